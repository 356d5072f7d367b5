"""The transport's own paths (``transports/http/stateless.py``, ``lists.py``) answer as the SDK's would.

Lists come from bytes encoded once per registry change, with an ETag, in both eras; a 2026-era
request is answered in its own task (JSON, or an SSE stream once the tool sends something); header
values padded with white space still match the body; an SSE event never holds a character that
line-splitting readers take for a line break.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from jupyter_mcp.tools import Context, ToolServer
from tests.conftest import served

TOKEN = "fast-token"
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
BASE = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "Authorization": f"Bearer {TOKEN}",
}


def _server() -> ToolServer:
    server = ToolServer("fast")

    @server.tool
    def add(a: int, b: int) -> int:
        """Adds two integer numbers together."""
        return a + b

    @server.tool
    async def talk(ctx: Context) -> str:
        """Reports progress whose message holds a next-line character (U+0085)."""
        await ctx.report_progress(1, 2, "half\u0085way")
        return "done"

    return server


@contextmanager
def _session(url: str, era: str) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    """A raw client and the headers of its requests: a 2025-era session, or 2026-era single requests."""
    with httpx.Client(timeout=10) as http:
        if era == "2026":
            yield http, {**BASE, "Mcp-Protocol-Version": MODERN}
            return
        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        opened = http.post(url, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, headers=BASE)
        headers = {**BASE, "Mcp-Session-Id": opened.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-11-25"}
        http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
        yield http, headers


def _request(era: str, method: str, params: dict[str, Any], request_id: int = 7) -> dict[str, Any]:
    if era == "2026":
        params = {**params, "_meta": META}
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def _answer(response: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC answer in a JSON body or in the last event of an SSE stream."""
    if response.headers["content-type"].startswith("application/json"):
        answer: dict[str, Any] = response.json()
        return answer
    events = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
    return dict(json.loads([e for e in events if e][-1]))


@pytest.mark.parametrize("era", [pytest.param("2025", marks=pytest.mark.fast_path), "2026"])
def test_a_repeated_list_is_the_same_answer_from_bytes_with_an_etag(era: str) -> None:
    server = _server()
    with served(server, TOKEN) as url, _session(url, era) as (http, headers):
        route = {"Mcp-Method": "tools/list"} if era == "2026" else {}
        first = http.post(url, json=_request(era, "tools/list", {}, 1), headers={**headers, **route})
        again = http.post(url, json=_request(era, "tools/list", {}, 2), headers={**headers, **route})
        assert again.status_code == 200
        assert again.headers["content-type"] == "application/json"
        assert again.headers["etag"].startswith('"')
        assert _answer(again) == {**_answer(first), "id": 2}
        if era == "2025":
            assert again.headers["mcp-session-id"] == headers["Mcp-Session-Id"]
        server.add_tool(lambda: 1, name="one")  # the registry changed: a new list, a new validator
        http.post(url, json=_request(era, "tools/list", {}, 3), headers={**headers, **route})
        changed = http.post(url, json=_request(era, "tools/list", {}, 4), headers={**headers, **route})
        assert [t["name"] for t in _answer(changed)["result"]["tools"]] == ["add", "talk", "one"]
        assert changed.headers["etag"] != again.headers["etag"]


def test_a_2025_list_for_a_closed_session_is_the_sdks_404() -> None:
    server = _server()
    with served(server, TOKEN) as url, _session(url, "2025") as (http, headers):
        http.post(url, json=_request("2025", "tools/list", {}, 1), headers=headers)
        assert http.delete(url, headers=headers).status_code == 200
        gone = http.post(url, json=_request("2025", "tools/list", {}, 2), headers=headers)
        assert gone.status_code == 404


def test_a_2026_call_is_json_unless_the_tool_sends_something_first() -> None:
    server = _server()
    with served(server, TOKEN) as url, _session(url, "2026") as (http, headers):
        call = {"Mcp-Method": "tools/call", "Mcp-Name": "add"}
        quiet = http.post(
            url,
            json=_request("2026", "tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}}),
            headers={**headers, **call},
        )
        assert quiet.headers["content-type"] == "application/json"
        assert _answer(quiet)["result"]["structuredContent"] == {"result": 5}
        params = {"name": "talk", "arguments": {}, "_meta": {**META, "progressToken": "p"}}
        body = {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": params}
        talking = http.post(url, json=body, headers={**headers, "Mcp-Method": "tools/call", "Mcp-Name": "talk"})
        assert talking.headers["content-type"] == "text/event-stream"
        data = [line for line in talking.text.split("\r\n") if line.startswith("data:")]
        assert len(data) == 2, talking.text  # the progress notification, then the answer
        assert "\u0085" not in talking.text
        assert "half\\u0085way" in data[0]
        assert json.loads(data[0][5:])["params"]["message"] == "half\u0085way"
        assert _answer(talking)["result"]["content"][0]["text"] == "done"


def test_routing_headers_padded_with_white_space_still_match_the_body() -> None:
    """httptools keeps a value's trailing white space (h11 dropped it); ``protect()`` strips it."""
    server = _server()
    with served(server, TOKEN) as url:
        host, port = url.split("//")[1].split("/")[0].split(":")
        body = json.dumps(_request("2026", "tools/call", {"name": "add", "arguments": {"a": 1, "b": 1}})).encode()
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            f"Mcp-Protocol-Version: {MODERN}\r\nMcp-Method: tools/call  \r\nMcp-Name: add \t\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        with socket.create_connection((host, int(port)), timeout=10) as raw:
            raw.sendall(head.encode() + body)
            reply = b""
            while chunk := raw.recv(65536):
                reply += chunk
        status, _, rest = reply.partition(b"\r\n")
        assert status.split()[1] == b"200", reply[:300]
        answer = json.loads(rest.partition(b"\r\n\r\n")[2])
        assert answer["result"]["structuredContent"] == {"result": 2}


def test_each_2026_request_is_served_as_its_own_envelopes_client() -> None:
    """The typed envelopes are remembered per envelope: alternating clients each stay themselves, and one
    whose ``clientInfo`` is not an ``Implementation`` is refused by the SDK's params check, every time."""
    server = _server()

    @server.tool
    def whoami(ctx: Context) -> str:
        """Names the calling client."""
        info = ctx.client_info
        return f"{info.name} {info.version}" if info is not None else "nobody"

    def envelope(client_info: Any) -> dict[str, Any]:
        return {**META, "io.modelcontextprotocol/clientInfo": client_info}

    clients = [
        {"name": "ada", "version": "1"},
        {"name": "grace", "version": "2"},
        {"name": 5},
        {"name": "ada", "version": "1"},
    ]
    with served(server, TOKEN) as url, _session(url, "2026") as (http, headers):
        seen = []
        for _ in range(2):
            for client_info in clients:
                message = {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": "whoami", "arguments": {}, "_meta": envelope(client_info)},
                }
                answered = http.post(
                    url, json=message, headers={**headers, "Mcp-Method": "tools/call", "Mcp-Name": "whoami"}
                )
                answer = _answer(answered)
                seen.append(answer["result"]["structuredContent"]["result"] if "result" in answer else answer["error"])
    refused = {
        "code": -32602,
        "message": "Invalid params for tools/call: params._meta.io.modelcontextprotocol/clientInfo.name: "
        "Input should be a valid string (and 1 more)",
    }
    assert seen == ["ada 1", "grace 2", refused, "ada 1"] * 2


@pytest.mark.parametrize("copies", [pytest.param(True, marks=pytest.mark.fast_path), False])
def test_a_2026_connection_is_built_per_request_with_its_own_state(copies: bool) -> None:
    """Copies of one envelope's connection (the fast path) share only what the envelope fixed, as connections
    built per request do; the SDK adapter's check fails first if ``Connection`` grows an attribute."""
    from mcp.server.connection import Connection

    from jupyter_mcp.adapters import sdk
    from jupyter_mcp.tools.transports.http.envelopes import Envelopes

    assert sdk.check() is None or not copies
    envelopes = Envelopes(copies=copies)
    info, capabilities = {"name": "ada", "version": "1"}, {"roots": {}}
    first, second = (envelopes.connection("2026-07-28", info, capabilities) for _ in range(2))
    built = Connection.from_envelope("2026-07-28", info, capabilities)
    assert first.client_params == second.client_params == built.client_params
    assert first.client_capabilities == built.client_capabilities
    assert first.initialized.is_set()
    first.state["mine"] = 1
    assert second.state == {}
    assert first.exit_stack is not second.exit_stack
    odd = envelopes.connection("2026-07-28", {"name": 5}, capabilities)  # not a model: the SDK's own treatment
    assert odd.client_params is None
    assert odd.client_capabilities == built.client_capabilities
