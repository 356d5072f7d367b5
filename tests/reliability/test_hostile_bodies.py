"""The inputs the fuzzers found, exactly, and the body limits (``max_body_bytes``, ``max_json_depth``).

Each refusal is a JSON-RPC error with one sentence and the HTTP status that says why, in both
eras, with one WARNING line in the server's log and no traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.errors import ToolDefinitionError
from tests.conftest import served
from tests.reliability.fuzzing import ACCEPT, ERA_2025, ERA_2026, META, LogWatch, legacy_session, watched_log

TOKEN = "hostile-token"
HEADERS = {"Accept": ACCEPT, "Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"}
DEEP = b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
"""The body of issue 28: 100,000 levels, about 200 kB (was HTTP 500 and a RecursionError traceback)."""


@pytest.fixture(scope="module")
def server() -> ToolServer:
    server = ToolServer()

    @server.tool
    def echo(value: Any) -> Any:
        """Returns value."""
        return value

    return server


@pytest.fixture(scope="module")
def endpoint(server: ToolServer) -> Iterator[str]:
    with served(server, TOKEN) as url:
        yield url


@pytest.fixture
def log() -> Iterator[LogWatch]:
    with watched_log() as watch:
        yield watch


@pytest.fixture(params=[ERA_2025, ERA_2026])
def headers(request: pytest.FixtureRequest, endpoint: str) -> dict[str, str]:
    if request.param == ERA_2026:
        return {**HEADERS, "mcp-protocol-version": ERA_2026}
    return legacy_session(endpoint, HEADERS)


def refused(response: httpx.Response, status: int, code: int, log: LogWatch) -> str:
    """The one sentence of a refusal; checks its status, code, and the one WARNING line it logged."""
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == code
    warnings = [r for r in log.records if r.levelno >= logging.WARNING and r.name.startswith("jupyter_mcp")]
    assert [r.levelno for r in warnings] == [logging.WARNING]
    assert error["message"] in warnings[0].getMessage()
    log.assert_clean()
    return str(error["message"])


def call(value: Any) -> dict[str, Any]:
    params = {"name": "echo", "arguments": {"value": value}, "_meta": META}
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}


def modern(name: str = "echo") -> dict[str, str]:
    return {**HEADERS, "mcp-protocol-version": ERA_2026, "mcp-method": "tools/call", "mcp-name": name}


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def test_the_100000_deep_body_is_a_parse_error(endpoint: str, headers: dict[str, str], log: LogWatch) -> None:
    said = refused(httpx.post(endpoint, content=DEEP, headers=headers), 400, -32700, log)
    assert said == (
        "Parse error: the body nests arrays and objects more than 100 levels deep (this server's max_json_depth setting)"
    )


def test_a_body_over_max_body_bytes_is_413(endpoint: str, headers: dict[str, str], log: LogWatch) -> None:
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "pad": "' + b"x" * (4 * 1024 * 1024) + b'"}'
    said = refused(httpx.post(endpoint, content=body, headers=headers), 413, -32600, log)
    assert said == (
        f"Invalid request: the body is {len(body):,} bytes, more than this server takes "
        "(4,194,304 bytes, its max_body_bytes setting)"
    )


def test_a_streamed_body_is_refused_once_it_is_over(endpoint: str, headers: dict[str, str], log: LogWatch) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the size shows only as it arrives
        yield b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "pad": "'
        for _ in range(80):
            yield b"x" * 65536
        yield b'"}'

    said = refused(httpx.post(endpoint, content=chunks(), headers=headers), 413, -32600, log)
    assert said.startswith("Invalid request: the body is more than this server takes (4,194,304 bytes")


def test_the_limits_are_settings_read_per_request(server: ToolServer, endpoint: str, log: LogWatch) -> None:
    ok = httpx.post(endpoint, json=call(nested(60)), headers=modern())
    assert ok.json()["result"]["content"][0]["text"] == "[" * 60 + "1" + "]" * 60
    server.settings.max_json_depth = 10
    server.settings.max_body_bytes = "1kB"
    try:
        said = refused(httpx.post(endpoint, json=call(nested(60)), headers=modern()), 400, -32700, log)
        assert "more than 10 levels deep" in said
        said = refused(httpx.post(endpoint, json=call("x" * 2000), headers=modern()), 413, -32600, log)
        assert "(1,000 bytes, its max_body_bytes setting)" in said
    finally:
        server.settings.max_json_depth = 100
        server.settings.max_body_bytes = 4 * 1024 * 1024


def test_the_limits_are_checked_when_set() -> None:
    with pytest.raises(ToolDefinitionError, match=r"^max_json_depth: Input should be less than or equal to 200"):
        ToolServer(max_json_depth=500)
    with pytest.raises(ToolDefinitionError, match=r"^max_body_bytes: must be a size in bytes .* got 'lots'"):
        ToolServer(max_body_bytes="lots")
    assert ToolServer(max_body_bytes="10MB").settings.max_body_bytes == 10_000_000


@pytest.mark.parametrize(
    "body",
    [
        b'{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","\\u006dethod":"x"}',
    ],
)
def test_a_key_said_twice_in_the_envelope_is_refused(
    endpoint: str, headers: dict[str, str], log: LogWatch, body: bytes
) -> None:
    said = refused(httpx.post(endpoint, content=body, headers=headers), 400, -32600, log)
    assert said.startswith("Invalid request: the message has the key ")


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"\xff", "Parse error: the body is not valid JSON (expected value at line 1 column 1)"),
        (b'"\\ud800"', "Parse error: the body is not valid JSON (unexpected end of hex escape at line 1 column 8)"),
        (b"[1,]", "Parse error: the body is not valid JSON (trailing comma at line 1 column 4)"),
    ],
)
def test_bytes_that_are_not_json(endpoint: str, headers: dict[str, str], log: LogWatch, body: bytes, said: str) -> None:
    assert refused(httpx.post(endpoint, content=body, headers=headers), 400, -32700, log) == said


def test_a_body_that_is_not_json_by_its_content_type_is_415(
    endpoint: str, headers: dict[str, str], log: LogWatch
) -> None:
    # Found by the header fuzzer: a plain-text 400 "Invalid Content-Type header" from the SDK.
    sent = {**headers, "Content-Type": "2025-11-25"}
    said = refused(httpx.post(endpoint, json=call(1), headers=sent), 415, -32600, log)
    assert said == "Invalid request: the Content-Type must be application/json, got '2025-11-25'"


def test_a_client_that_accepts_no_answer_is_406(endpoint: str, headers: dict[str, str], log: LogWatch) -> None:
    # Found by the header fuzzer: the 2026 era answered an empty 406.
    sent = {**headers, "Accept": "2025-11-25"}
    said = refused(httpx.post(endpoint, json=call(1), headers=sent), 406, -32600, log)
    assert said == (
        "Not acceptable: the Accept header must list application/json and text/event-stream, got '2025-11-25'"
    )
