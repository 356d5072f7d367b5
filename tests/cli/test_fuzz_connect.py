"""Fuzzing ``jupyter-mcp connect``'s stdin: any line gets a JSON-RPC answer (or none, for a
notification), the bridge keeps running, logs no traceback, and relays a normal call afterwards.

The bulk runs the bridge in this process (``Bridge.run`` over the lines, exactly what ``connect``
runs over stdin) against a real server over loopback HTTP; the worst lines also go through a real
``jupyter-mcp connect`` process's stdin. Bounded by example counts (tests/reliability/fuzzing.py).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from jupyter_mcp.cli.bridge import Bridge, FixedLocator
from jupyter_mcp.tools import ToolServer
from tests.cli.conftest import JUPYTER_MCP
from tests.conftest import served
from tests.reliability.fuzzing import META, LogWatch, assert_clear_error, bodies, budget, near_valid, watched_log

TOKEN = "bridge-fuzz"
ALIVE = {
    "jsonrpc": "2.0",
    "id": "alive",
    "method": "tools/call",
    "params": {"name": "adds", "arguments": {"a": 2, "b": 3}, "_meta": META},
}
DEEP = b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    server = ToolServer()

    @server.tool
    def adds(a: int, b: int = 0) -> int:
        """Adds b to a."""
        return a + b

    with served(server, TOKEN) as address:
        yield address


@pytest.fixture
def log() -> Iterator[LogWatch]:
    with watched_log() as watch:
        yield watch


async def relay(url: str, lines: list[bytes]) -> list[dict[str, Any]]:
    """What the bridge writes back for ``lines`` (each must be one JSON-RPC message)."""
    written: list[bytes] = []

    async def stdin() -> AsyncIterator[bytes]:
        for line in lines:
            yield line

    await Bridge(FixedLocator(url, TOKEN), written.append, poll_interval=0.05).run(stdin())
    return [json.loads(line) for line in written]


def answer_to(replies: list[dict[str, Any]], request_id: Any) -> dict[str, Any]:
    (answer,) = [r for r in replies if r.get("id") == request_id and ("result" in r or "error" in r)]
    return answer


stdin_lines = (
    bodies.map(lambda body: body if isinstance(body, bytes) else body.encode()).filter(lambda line: b"\n" not in line)
    | near_valid.map(lambda message: json.dumps({**message, "id": "x"}).encode())
    | st.just(DEEP)
)


@budget(80)
@given(line=stdin_lines)
async def test_any_line_on_stdin(url: str, log: LogWatch, line: bytes) -> None:
    note(repr(line[:300]))
    replies = await relay(url, [line, json.dumps(ALIVE).encode()])
    for reply in replies:
        assert reply["jsonrpc"] == "2.0"
        if "error" in reply:
            assert_clear_error(reply["error"])
    assert answer_to(replies, "alive")["result"]["structuredContent"] == {"result": 5}
    log.assert_clean()


@pytest.mark.parametrize(
    "line",
    [
        DEEP,
        b'{"jsonrpc": "2.0", "method": "initialize", "id": "x"}',
        b"\xff\xfe garbage",
        b'{"jsonrpc": "2.0", "id": [1], "method": "ping"}',
        b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": [1]}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": 7}',
    ],
    ids=["deep", "refused-initialize", "bytes", "list-id", "cancel-with-list-params", "listen-with-number-params"],
)
def test_the_real_connect_process_takes_them(url: str, line: bytes) -> None:
    """Through a real ``jupyter-mcp connect`` process's stdin: the worst lines, then a call."""
    stdin = line + b"\n" + json.dumps(ALIVE).encode() + b"\n"
    command = [JUPYTER_MCP, "connect", "--url", url, "--token", TOKEN]
    done = subprocess.run(command, input=stdin, capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    replies = [json.loads(reply) for reply in done.stdout.splitlines()]
    assert answer_to(replies, "alive")["result"]["structuredContent"] == {"result": 5}
    assert b"Traceback" not in done.stderr, done.stderr.decode()[-2000:]
