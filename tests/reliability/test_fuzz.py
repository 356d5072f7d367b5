"""Property-based fuzzing of a server's MCP endpoint, both eras: any body, any method's params, any
header gets a well-formed answer, the log stays free of tracebacks, and the server lives.

A plain ``ToolServer`` over loopback HTTP, the same app a kernel serves (the kernel's own endpoint
is fuzzed in test_fuzz_doors.py). Bounded: a fixed number of examples per property.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from jupyter_mcp.tools import Context, ToolServer
from tests.conftest import served
from tests.reliability.fuzzing import (
    ACCEPT,
    ERA_2025,
    ERA_2026,
    META,
    METHODS,
    LogWatch,
    assert_clear,
    bodies,
    budget,
    header_values,
    json_values,
    legacy_session,
    params,
    post,
    watched_log,
)

TOKEN = "fuzz-token"
HEADERS = {"Accept": ACCEPT, "Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"}


def fuzz_server() -> ToolServer:
    server = ToolServer()

    @server.tool
    def adds(a: int, b: int = 0) -> int:
        """Adds b to a."""
        return a + b

    @server.tool(task=True)
    async def shapes(
        ctx: Context, points: list[tuple[float, float]], label: str | None = None, mode: str = "fast"
    ) -> dict[str, Any]:
        """Describes points."""
        await ctx.info("shaping")
        return {"n": len(points), "label": label, "mode": mode}

    @server.resource("data://table/{name}")
    def table(name: str) -> str:
        """A table by name."""
        return name

    @server.prompt
    def review(topic: str) -> str:
        """Review a topic."""
        return f"Review {topic}"

    return server


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with served(fuzz_server(), TOKEN) as url:
        yield url


@pytest.fixture
def log() -> Iterator[LogWatch]:
    with watched_log() as watch:
        yield watch


def session_headers(url: str) -> dict[str, str]:
    return legacy_session(url, HEADERS)


def modern_headers(body: Any) -> dict[str, str]:
    """The 2026-era routing headers a client derives from a body (``Mcp-Method``, ``Mcp-Name``)."""
    headers = {**HEADERS, "mcp-protocol-version": ERA_2026}
    if isinstance(body, dict) and isinstance(body.get("method"), str) and body["method"].isascii():
        headers["mcp-method"] = body["method"]
        named = body.get("params", {}).get("name") if isinstance(body.get("params"), dict) else None
        if isinstance(named, str) and named.isascii() and named.isprintable():
            headers["mcp-name"] = named
    return headers


def assert_alive(url: str) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": "alive",
        "method": "tools/call",
        "params": {"name": "adds", "arguments": {"a": 2, "b": 3}, "_meta": META},
    }
    response = httpx.post(url, json=body, headers={**modern_headers(body), "mcp-name": "adds"})
    assert response.json()["result"]["structuredContent"] == {"result": 5}


@budget(60)
@given(body=bodies)
def test_any_body_in_a_2025_session(endpoint: str, log: LogWatch, body: str | bytes) -> None:
    headers = session_headers(endpoint)
    assert_clear(post(endpoint, body, headers))
    assert_alive(endpoint)
    log.assert_clean()


@budget(80)
@given(body=bodies)
def test_any_body_in_the_2026_era(endpoint: str, log: LogWatch, body: str | bytes) -> None:
    headers = {**HEADERS, "mcp-protocol-version": ERA_2026}
    assert_clear(post(endpoint, body, headers))
    assert_alive(endpoint)
    log.assert_clean()


@budget(90)
@given(
    era=st.sampled_from([ERA_2025, ERA_2026]),
    method=st.sampled_from(METHODS),
    given_params=params,
    request_id=st.integers(1, 10**6) | st.text(max_size=6),
)
def test_every_method_with_any_params(
    endpoint: str, log: LogWatch, era: str, method: str, given_params: Any, request_id: int | str
) -> None:
    body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": given_params}
    note(f"{era} {json.dumps(body)}")
    headers = session_headers(endpoint) if era == ERA_2025 else modern_headers(body)
    if method == "initialize":
        headers.pop("mcp-session-id", None)
    assert_clear(post(endpoint, json.dumps(body), headers))
    assert_alive(endpoint)
    log.assert_clean()


header_names = st.sampled_from(
    [
        *("Mcp-Session-Id", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name", "Last-Event-ID", "Content-Type"),
        *("Accept", "Mcp-Param-Region", "Mcp-Param-A", "Mcp-Param-", "Content-Length"),
    ]
)
known_values = st.sampled_from([ERA_2025, ERA_2026, "tools/call", "adds", "application/json", ACCEPT, "*/*", "0", "-1"])


@budget(60)
@given(
    verb=st.sampled_from(["POST", "GET", "DELETE"]),
    era=st.sampled_from([ERA_2025, ERA_2026]),
    changed=st.dictionaries(header_names, known_values | header_values, max_size=4),
    body=st.sampled_from(["tools/list", "tools/call", "ping"]),
)
def test_any_headers(endpoint: str, log: LogWatch, verb: str, era: str, changed: dict[str, str], body: str) -> None:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": 7, "method": body, "params": {}}
    if body == "tools/call":
        message["params"] = {"name": "adds", "arguments": {"a": 1}}
    if era == ERA_2026:
        message["params"]["_meta"] = META
    headers = session_headers(endpoint) if era == ERA_2025 else modern_headers(message)
    headers.update(changed)
    content = json.dumps(message).encode() if verb == "POST" else b""
    if "Content-Length" in changed:
        headers.pop("Content-Length")  # a wrong length makes the client, not the server, fail
    note(f"{verb} {era} {body} {changed}")
    raw = {name: value.encode("latin-1") for name, value in headers.items()}  # as HTTP carries them
    with httpx.Client(timeout=10) as client:
        request = client.build_request(verb, endpoint, content=content, headers=raw)
        if verb == "GET":
            with client.stream("GET", endpoint, headers=raw) as response:
                assert response.status_code < 500, response.status_code
                if response.status_code >= 400:
                    response.read()
                    assert_clear(response)
        else:
            assert_clear(client.send(request))
    assert_alive(endpoint)
    log.assert_clean()


arguments = st.dictionaries(
    st.sampled_from(["a", "b", "points", "label", "mode", "ctx", "zz"]) | st.text(max_size=6), json_values, max_size=4
)


@budget(60)
@given(tool=st.sampled_from(["adds", "shapes"]), args=arguments)
def test_any_arguments_give_a_result_or_a_tool_error(
    endpoint: str, log: LogWatch, tool: str, args: dict[str, Any]
) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": args, "_meta": META},
    }
    reply = httpx.post(endpoint, json=body, headers=modern_headers(body), timeout=10).json()
    result = reply["result"]
    if result["isError"]:
        assert result["content"][0]["text"].startswith(f"Invalid arguments for tool {tool!r}:")
    else:
        assert set(args) <= {"a", "b", "points", "label", "mode"}
        assert "structuredContent" in result
    log.assert_clean()
