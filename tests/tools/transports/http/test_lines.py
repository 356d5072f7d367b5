"""Every path that writes events keeps U+0085, U+2028 and U+2029 out of the raw ``data:`` lines (as JSON escapes).

Readers that split lines as Python's ``str.splitlines`` does cut an event at those characters. The
bytes on the wire are checked on each path: a 2026-era stream (this package's writer), a 2025-era
answer streamed in its session (this package's writer on the fast path, the SDK's otherwise), the
session's GET stream and a resumed stream (the SDK's writer), with the fast paths on and off.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import httpx
import pytest

from jupyter_mcp.tools import Context, ToolServer
from tests.conftest import served

TOKEN = "lines-token"
ODD = "next\u0085line\u2028sep\u2029par"
"""A text holding each character a line-splitting reader breaks at."""
RAW = [chr(c).encode() for c in (0x85, 0x2028, 0x2029)]
BASE = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "Authorization": f"Bearer {TOKEN}",
}
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def _server(fast: bool) -> ToolServer:
    server = ToolServer("lines", fast_paths=fast)

    @server.tool
    async def talk(ctx: Context) -> str:
        """Reports progress, then answers, both with the odd characters."""
        await ctx.report_progress(1, 2, ODD)
        return ODD

    @server.tool
    async def poll(ctx: Context) -> str:
        """Closes its own stream (SSE polling) and answers later: the answer comes on a resumed stream."""
        request = ctx.request_context
        assert request is not None
        assert request.close_sse_stream is not None
        await ctx.report_progress(1, 2, ODD)
        await request.close_sse_stream()
        await anyio.sleep(0.3)
        return ODD

    @server.resource("data://{name}")
    def item(name: str) -> str:
        return name

    return server


def assert_line_safe(raw: bytes) -> list[dict[str, Any]]:
    """The raw event stream holds none of the odd characters raw; its events parse back to them."""
    for character in RAW:
        assert character not in raw, raw
    events = [line[5:].strip() for line in raw.decode().split("\r\n") if line.startswith("data:")]
    messages = [json.loads(data) for data in events if data]
    assert ODD in json.dumps(messages, ensure_ascii=False), messages
    return messages


@contextmanager
def _session(url: str) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    with httpx.Client(timeout=10) as http:
        opened = http.post(url, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT}, headers=BASE)
        headers = {**BASE, "Mcp-Session-Id": opened.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-11-25"}
        http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
        yield http, headers


def _call(name: str, request_id: int) -> dict[str, Any]:
    params = {"name": name, "arguments": {}, "_meta": {"progressToken": "p"}}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def test_a_2026_stream() -> None:
    with served(_server(fast=True), TOKEN) as url, httpx.Client(timeout=10) as http:
        body = _call("talk", 1)
        body["params"]["_meta"] = {**MODERN_META, "progressToken": "p"}
        headers = {**BASE, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "talk"}
        response = http.post(url, json=body, headers=headers)
    assert response.headers["content-type"] == "text/event-stream"
    assert len(assert_line_safe(response.content)) == 2  # the progress, then the answer


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "public"])
def test_a_2025_answer_streamed_in_its_session(fast: bool) -> None:
    with served(_server(fast), TOKEN) as url, _session(url) as (http, headers):
        response = http.post(url, json=_call("talk", 1), headers=headers)
    assert response.headers["content-type"] == "text/event-stream"
    assert len(assert_line_safe(response.content)) == 2


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "public"])
def test_a_sessions_get_stream(fast: bool) -> None:
    server = _server(fast)
    uri = f"data://{ODD}"
    with served(server, TOKEN) as url, _session(url) as (http, headers):
        subscribe = {"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe", "params": {"uri": uri}}
        assert "error" not in json.dumps(http.post(url, json=subscribe, headers=headers).text)
        with http.stream("GET", url, headers={**headers, "Accept": "text/event-stream"}) as stream:
            told = threading.Timer(0.3, server.notify_resource_updated, [uri])
            told.start()
            raw = _until(stream, b"resources/updated")
            told.cancel()
    (update,) = [m for m in assert_line_safe(raw) if m.get("method") == "notifications/resources/updated"]
    assert update["params"]["uri"] == uri


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "public"])
def test_a_resumed_stream(fast: bool) -> None:
    with served(_server(fast), TOKEN) as url, _session(url) as (http, headers):
        first = http.post(url, json=_call("poll", 1), headers=headers)  # ends when the tool closes it
        ids = [line[4:].strip() for line in first.text.split("\r\n") if line.startswith("id:")]
        assert ids, first.text
        resumed = {**headers, "Accept": "text/event-stream", "Last-Event-ID": ids[-1]}
        with http.stream("GET", url, headers=resumed) as stream:
            raw = _until(stream, b'"result"')
    (answer,) = [m for m in assert_line_safe(raw) if "result" in m]
    assert answer["result"]["content"][0]["text"] == ODD


def _until(stream: httpx.Response, marker: bytes) -> bytes:
    """The stream's raw bytes up to the end of the event holding ``marker``."""
    raw = b""
    for chunk in stream.iter_raw():
        raw += chunk
        if marker in raw and raw.endswith(b"\r\n\r\n"):
            return raw
    raise AssertionError(f"the stream ended before {marker!r}: {raw!r}")
