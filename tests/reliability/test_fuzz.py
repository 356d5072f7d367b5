"""Property-based fuzzing of the wire, both eras: any body gets a well-formed answer, the server lives.

Bounded: a fixed number of examples per property, loopback only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupyter_mcp.tools import ToolServer
from tests.conftest import served

TOKEN = "fuzz-token"
ERA_2026 = "2026-07-28"
META = {
    "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1"},
    "io.modelcontextprotocol/protocolVersion": ERA_2026,
    "io.modelcontextprotocol/clientCapabilities": {},
}
HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "Authorization": f"Bearer {TOKEN}",
}
METHODS = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "prompts/list",
    "completion/complete",
    "logging/setLevel",
    "server/discover",
    "notifications/initialized",
    "notifications/cancelled",
    "no/such/method",
]
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
ids = (
    st.none()
    | st.integers(-5, 10**6)
    | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
)
near_valid = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "2.0", "1.0", 2]), "method": st.sampled_from(METHODS) | st.text(max_size=12)},
    optional={
        "id": ids,
        "params": json_values
        | st.dictionaries(st.sampled_from(["name", "arguments", "cursor", "level", "_meta"]), json_values, max_size=3),
    },
)
bodies = (
    near_valid.map(json.dumps)
    | json_values.map(json.dumps)
    | st.binary(max_size=60).map(bytes.hex)
    | st.binary(max_size=40)
)


def fuzz_server() -> ToolServer:
    server = ToolServer()

    @server.tool
    def adds(a: int, b: int = 0) -> int:
        """Adds b to a."""
        return a + b

    @server.tool
    def shapes(points: list[tuple[float, float]], label: str | None = None, mode: str = "fast") -> dict[str, Any]:
        """Describes points."""
        return {"n": len(points), "label": label, "mode": mode}

    return server


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with served(fuzz_server(), TOKEN) as url:
        yield url


def session_headers(url: str) -> dict[str, str]:
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}},
    }
    response = httpx.post(url, json=init, headers=HEADERS)
    headers = {**HEADERS, "mcp-session-id": response.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    httpx.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


def messages_of(response: httpx.Response) -> list[dict[str, Any]]:
    """The JSON-RPC messages in a reply (a JSON body or an SSE stream); fails on anything else."""
    kind = response.headers.get("content-type", "")
    if response.status_code == 202:
        assert response.content == b""
        return []
    if kind.startswith("text/event-stream"):
        data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
        return [json.loads(item) for item in data if item]
    assert kind.startswith("application/json"), (response.status_code, kind, response.text[:200])
    return [response.json()]


def assert_well_formed(response: httpx.Response) -> None:
    assert response.status_code in (200, 202, 400, 404, 405, 406), (response.status_code, response.text[:300])
    for message in messages_of(response):
        assert message["jsonrpc"] == "2.0"
        if "error" in message:
            error = message["error"]
            assert isinstance(error["code"], int)
            assert isinstance(error["message"], str)
            assert error["message"].strip()
            assert "validation errors for" not in error["message"], "a pydantic dump reached the client"
        else:
            assert "result" in message or "method" in message


def assert_alive(url: str) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": "alive",
        "method": "tools/call",
        "params": {"name": "adds", "arguments": {"a": 2, "b": 3}, "_meta": META},
    }
    response = httpx.post(
        url,
        json=body,
        headers={**HEADERS, "mcp-protocol-version": ERA_2026, "mcp-method": "tools/call", "mcp-name": "adds"},
    )
    assert response.json()["result"]["structuredContent"] == {"result": 5}


@FUZZ
@given(body=bodies)
def test_any_body_in_a_2025_session(endpoint: str, body: str | bytes) -> None:
    headers = session_headers(endpoint)
    assert_well_formed(httpx.post(endpoint, content=body, headers=headers, timeout=10))
    assert_alive(endpoint)


@FUZZ
@given(body=bodies)
def test_any_body_in_the_2026_era(endpoint: str, body: str | bytes) -> None:
    headers = {**HEADERS, "mcp-protocol-version": ERA_2026}
    assert_well_formed(httpx.post(endpoint, content=body, headers=headers, timeout=10))
    assert_alive(endpoint)


arguments = st.dictionaries(
    st.sampled_from(["a", "b", "points", "label", "mode", "ctx", "zz"]) | st.text(max_size=6), json_values, max_size=4
)


@FUZZ
@given(tool=st.sampled_from(["adds", "shapes"]), args=arguments)
def test_any_arguments_give_a_result_or_a_tool_error(endpoint: str, tool: str, args: dict[str, Any]) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": args, "_meta": META},
    }
    headers = {**HEADERS, "mcp-protocol-version": ERA_2026, "mcp-method": "tools/call", "mcp-name": tool}
    reply = httpx.post(endpoint, json=body, headers=headers, timeout=10).json()
    result = reply["result"]
    if result["isError"]:
        assert result["content"][0]["text"].startswith(f"Invalid arguments for tool {tool!r}:")
    else:
        assert set(args) <= {"a", "b", "points", "label", "mode"}
        assert "structuredContent" in result
