"""Reads of ``result://`` links answered as one ``application/json`` body, in the 2025 era too.

A full result is what did not fit the result budget, and the SDK clients refuse a server-sent event
over 1 MiB but read a JSON body of any size. The 2026 era answers a quick request as JSON already;
a 2025-era session answers every POST as an SSE stream, so for these reads (whose handler sends
nothing but the response) the stream is collected and its response sent as the JSON body instead.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jupyter_mcp.tools.wirecheck import read_body, replay

_PREFIX = "result://"


class JsonReads:
    """ASGI middleware on an MCP endpoint: see the module docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body, _ = await read_body(receive)
        request_id = _result_read_id(body)
        if request_id is None:
            await self.app(scope, replay(body, receive), send)
            return
        collected = _Collected(send, request_id)
        await self.app(scope, replay(body, receive), collected)
        await collected.finish()


def _result_read_id(body: bytes) -> Any:
    """The JSON-RPC id of a ``resources/read`` of a ``result://`` URI, else ``None``."""
    if _PREFIX.encode() not in body:
        return None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "resources/read":
        return None
    params = message.get("params")
    uri = params.get("uri") if isinstance(params, dict) else None
    return message.get("id") if isinstance(uri, str) and uri.startswith(_PREFIX) else None


class _Collected:
    """A ``send`` that holds an SSE response back and, at the end, sends its JSON-RPC response alone."""

    def __init__(self, send: Send, request_id: Any) -> None:
        self.send = send
        self.request_id = request_id
        self.start: Message | None = None
        self.chunks: list[bytes] = []
        self.passthrough = False

    async def __call__(self, message: Message) -> None:
        if self.passthrough:
            await self.send(message)
        elif message["type"] == "http.response.start":
            self.start = message
            self.passthrough = not _is_sse(message)
            if self.passthrough:
                await self.send(message)
        elif message["type"] == "http.response.body":
            self.chunks.append(message.get("body", b""))

    async def finish(self) -> None:
        if self.passthrough or self.start is None:
            return
        raw = b"".join(self.chunks)
        response = _response_in(raw, self.request_id)
        if response is None:
            await self.send(self.start)
            await self.send({"type": "http.response.body", "body": raw})
            return
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(response)).encode())]
        headers += [(k, v) for k, v in self.start.get("headers", ()) if k.lower() == b"mcp-session-id"]
        await self.send({"type": "http.response.start", "status": self.start["status"], "headers": headers})
        await self.send({"type": "http.response.body", "body": response})


def _is_sse(start: Message) -> bool:
    for key, value in start.get("headers", ()):
        if key.lower() == b"content-type":
            return bytes(value).startswith(b"text/event-stream")
    return False


def _response_in(stream: bytes, request_id: Any) -> bytes | None:
    """The data of the SSE event answering ``request_id``, if the stream has one."""
    for event in stream.replace(b"\r\n", b"\n").split(b"\n\n"):
        data = b"\n".join(line[5:].lstrip(b" ") for line in event.split(b"\n") if line.startswith(b"data:"))
        if not data.strip():
            continue
        try:
            message = json.loads(data)
        except ValueError:
            continue
        if (
            isinstance(message, dict)
            and message.get("id") == request_id
            and ("result" in message or "error" in message)
        ):
            return data
    return None
