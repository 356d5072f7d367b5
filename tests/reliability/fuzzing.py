"""What every fuzz test shares: its time budget, the hostile inputs, and what each case asserts.

Each door's test draws inputs here and asserts the same four things: no 5xx, no traceback in the
server's log, a clear error (a JSON-RPC error with one sentence, or a one-line usage error), and
the server still answers a normal call afterwards. The budgets keep every fuzz test together within
about two minutes on two cores (``FUZZ_SCALE`` scales them, e.g. 10 for a long local hunt).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from jupyter_mcp.kernel.serving.logs import LIBRARY_LOGGERS

ERA_2025 = "2025-11-25"
ERA_2026 = "2026-07-28"
META = {
    "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1"},
    "io.modelcontextprotocol/protocolVersion": ERA_2026,
    "io.modelcontextprotocol/clientCapabilities": {},
}
ACCEPT = "application/json, text/event-stream"

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": ERA_2025, "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}},
}
"""A 2025-era client's first request."""


def legacy_session(url: str, headers: dict[str, str]) -> dict[str, str]:
    """``headers`` plus a new, initialized 2025-era session's id and version."""
    response = httpx.post(url, json=INITIALIZE, headers=headers)
    session = {**headers, "mcp-session-id": response.headers["mcp-session-id"], "mcp-protocol-version": ERA_2025}
    httpx.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
    return session


def modern_call(url: str, token: str, tool: str, arguments: dict[str, Any], timeout: float = 20) -> httpx.Response:
    """A 2026-era ``tools/call`` with its routing headers, as a client sends it."""
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": META},
    }
    headers = {"Authorization": f"Bearer {token}", "Accept": ACCEPT, "mcp-protocol-version": ERA_2026}
    headers |= {"mcp-method": "tools/call", "mcp-name": tool}
    return httpx.post(url, json=body, headers=headers, timeout=timeout)


METHODS = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "server/discover",
    "subscriptions/listen",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
    "no/such/method",
]
"""Every method the server answers, the notifications it takes, and one it does not know."""

PARAM_KEYS = ["name", "arguments", "uri", "cursor", "level", "ref", "argument", "taskId", "requestId", "_meta"]
PARAM_KEYS += ["protocolVersion", "capabilities", "clientInfo", "notifications", "progressToken", "progress"]


def budget(examples: int) -> settings:
    """Hypothesis settings for ``examples`` cases (times ``FUZZ_SCALE``), no deadline, real fixtures."""
    scale = float(os.environ.get("FUZZ_SCALE", "1"))
    return settings(
        max_examples=max(1, int(examples * scale)),
        deadline=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],  # no explain: it reruns slow cases
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
ids = st.none() | st.integers(-5, 2**64) | st.text(max_size=8) | st.floats(allow_nan=False) | st.booleans()


def _with_meta(params: dict[str, Any]) -> dict[str, Any]:
    return {**params, "_meta": META}


params = (
    json_values
    | st.dictionaries(st.sampled_from(PARAM_KEYS), json_values, max_size=4)
    | st.dictionaries(st.sampled_from(PARAM_KEYS), json_values, max_size=4).map(_with_meta)
)
near_valid = st.fixed_dictionaries(
    {
        "jsonrpc": st.sampled_from(["2.0", "2.0", "2.0", "1.0", 2]),
        "method": st.sampled_from(METHODS) | st.text(max_size=12),
    },
    optional={"id": ids, "params": params},
)


def _nested(depth: int, leaf: str) -> str:
    return "[" * depth + leaf + "]" * depth


hostile_text = st.one_of(
    st.integers(150, 5000).map(
        lambda depth: '{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"a": ' + _nested(depth, "1") + "}}"
    ),
    st.integers(2, 3000).map(lambda depth: _nested(depth, "")),
    st.sampled_from(
        ['{"a": 1, "a": 2}', '{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}', "NaN", "[1,]", '"\\ud800"', "\ufeff{}"]
    ),
)
bodies = (
    near_valid.map(json.dumps)
    | json_values.map(json.dumps)
    | hostile_text
    | st.binary(max_size=60).map(bytes.hex)
    | st.binary(max_size=40)
)
"""Request bodies: near-valid JSON-RPC for every method, any JSON, deep nesting, bytes."""

header_values = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"), max_size=30
).map(lambda text: text.strip(" \t"))
"""Header values HTTP can carry (latin-1, no control characters, no space at either end)."""


LISTEN_ACK = "notifications/subscriptions/acknowledged"


def post(url: str, content: str | bytes, headers: dict[str, str]) -> httpx.Response:
    """POST and read the reply; an SSE stream only until its answer (a held ``subscriptions/listen``
    stream until its acknowledgement), so a stream that rightly stays open ends the read."""
    with httpx.Client(timeout=10) as client, client.stream("POST", url, content=content, headers=headers) as response:
        if not response.headers.get("content-type", "").startswith("text/event-stream"):
            response.read()
            return response
        lines: list[str] = []
        for line in _sse_lines(response):
            lines.append(line)
            if line.startswith("data:") and _ends_stream(line[5:]):
                break
        response._content = "\n".join(lines).encode()  # what was read is the reply to check
        return response


_SSE_LINE_END = re.compile(r"\r\n|\r|\n")
"""What ends a line in an event stream; ``str.splitlines`` (and httpx's ``iter_lines``) also split at U+0085,
U+2028 and other characters a JSON string may carry raw."""


def _sse_lines(response: httpx.Response) -> Iterator[str]:
    pending = ""
    for chunk in response.iter_text():
        *lines, pending = _SSE_LINE_END.split(pending + chunk)
        yield from lines
    if pending:
        yield pending


def _ends_stream(data: str) -> bool:
    if not data.strip():
        return False  # the priming event
    message = json.loads(data)
    return "result" in message or "error" in message or message.get("method") == LISTEN_ACK


def messages_of(response: httpx.Response) -> list[dict[str, Any]]:
    """The JSON-RPC messages in a reply (a JSON body or an SSE stream); fails on anything else."""
    kind = response.headers.get("content-type", "")
    if response.status_code in (200, 202, 405) and not response.content:
        return []  # accepted, a session ended (DELETE), or a verb the era does not take (405, as the spec has it)
    if kind.startswith("text/event-stream"):
        data = [line[5:].strip() for line in _SSE_LINE_END.split(response.text) if line.startswith("data:")]
        return [json.loads(item) for item in data if item]
    assert kind.startswith("application/json"), (response.status_code, kind, response.text[:200])
    return [response.json()]


def assert_clear(response: httpx.Response, allowed: tuple[int, ...] = (200, 202, 400, 404, 405, 406, 413, 415)) -> None:
    """No 5xx; every message is JSON-RPC, every error one clear sentence (no pydantic dump, no traceback)."""
    assert response.status_code in allowed, (response.status_code, response.text[:300])
    for message in messages_of(response):
        assert message["jsonrpc"] == "2.0"
        if "error" in message:
            assert_clear_error(message["error"])
        else:
            assert "result" in message or "method" in message
    if response.status_code >= 400 and response.status_code != 405:
        assert any("error" in message for message in messages_of(response)), response.text[:300]


def assert_clear_error(error: dict[str, Any]) -> None:
    assert isinstance(error["code"], int)
    text = error["message"]
    assert isinstance(text, str), error
    assert text.strip(), error
    assert "validation errors for" not in text, f"a pydantic dump reached the client: {text[:300]}"
    assert "Traceback" not in text, text[:300]
    assert "\n" not in text.strip(), text[:300]


class LogWatch(logging.Handler):
    """Every log record of this process while installed: a fuzz case must log no traceback and no error."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self._seen: set[int] = set()

    def emit(self, record: logging.LogRecord) -> None:
        if id(record) not in self._seen:  # installed on several loggers: a propagated record comes twice
            self._seen.add(id(record))
            self.records.append(record)

    def clear(self) -> None:
        self.records.clear()
        self._seen.clear()

    def assert_clean(self) -> None:
        """No record at ERROR or above, none with a traceback, every warning one line."""
        for record in self.records:
            text = record.getMessage()
            assert record.exc_info is None, f"{record.name}: {text[:500]}"
            assert "Traceback" not in text, f"{record.name}: {text[:500]}"
            assert record.levelno < logging.ERROR, f"{record.name}: {text[:500]}"
            if record.levelno == logging.WARNING:
                assert "\n" not in text.strip(), f"{record.name}: {text[:500]}"
        self.clear()


@contextmanager
def watched_log() -> Iterator[LogWatch]:
    """A ``LogWatch`` on the root logger (warnings and up reach it from every library) and on the loggers
    a notebook server in this process stops from propagating (``quiet_library_loggers``: once any test
    here has started one, the package's records no longer reach the root)."""
    watch = LogWatch()
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in LIBRARY_LOGGERS)]
    for logger in loggers:
        logger.addHandler(watch)
    try:
        yield watch
    finally:
        for logger in loggers:
            logger.removeHandler(watch)
