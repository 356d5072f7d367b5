"""Large ``resources/read`` and ``prompts/get`` answers go out as one ``application/json`` body, in either era.

The SDK clients refuse a server-sent event over 1 MiB but read a JSON body of any size. A read is
answered as an SSE stream in the 2025 era always, and in the 2026 era once its handler sends a
notification (a log, progress) or runs past the transport's ping interval. A read must return its
whole contents (a ``result://`` link's full value, or a user's resource of any size), so its
stream is held back until the response is known:

- a response that fits one event goes out as the stream it was, notifications included;
- a larger one goes out alone, as a JSON body (its notifications are in the call history);
- a request to the client (2025 era: the read asks the client something) needs its answer now,
  so from there on the stream is sent as it goes; a response too large for one event is then
  replaced by an error saying so (the client would refuse it with nothing to say why).
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types import INTERNAL_ERROR
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jupyter_mcp.tools.transports.http.inbound import parsed_message

EVENT_ROOM = 1_000_000
"""Bytes of a response an SSE event may carry: the SDK clients' limit is 1 MiB for the whole event."""


class JsonReads:
    """ASGI middleware on an MCP endpoint, behind ``WireCheck`` (which parsed the body): see the module docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        read = _read_request(parsed_message(scope))
        if read is None:
            await self.app(scope, receive, send)
            return
        held = _HeldStream(send, *read)
        await self.app(scope, receive, held)
        await held.finish()


_WHAT = {"resources/read": "uri", "prompts/get": "name"}
"""The requests answered whole (a resource's contents, a prompt's messages), by the parameter naming what."""


def _read_request(message: Any) -> tuple[Any, str] | None:
    """The JSON-RPC id of a ``resources/read`` or ``prompts/get`` request and what it asks for, else ``None``."""
    if not isinstance(message, dict) or message.get("method") not in _WHAT or "id" not in message:
        return None
    params = message.get("params")
    named = params.get(_WHAT[message["method"]]) if isinstance(params, dict) else None
    if message["method"] == "resources/read":
        return message["id"], f"The contents of {named}"
    return message["id"], f"The messages of prompt {named!r}"


class _HeldStream:
    """A ``send`` that holds an SSE response back, then sends it whole or its large response alone."""

    def __init__(self, send: Send, request_id: Any, what: str) -> None:
        self.send = send
        self.request_id = request_id
        self.what = what
        self.start: Message | None = None
        self.chunks: list[bytes] = []
        self.passthrough = False
        self.flushed = False

    async def __call__(self, message: Message) -> None:
        if self.passthrough:
            await self.send(self._receivable(message) if self.flushed else message)
        elif message["type"] == "http.response.start":
            self.start = message
            self.passthrough = not _is_sse(message)
            if self.passthrough:
                await self.send(message)
        elif message["type"] == "http.response.body":
            chunk = message.get("body", b"")
            self.chunks.append(chunk)
            if b'"method"' in chunk and any(_is_request(sent) for _, sent in _messages(chunk)):
                await self._flush(more=bool(message.get("more_body", False)))

    async def _flush(self, *, more: bool) -> None:
        """Send what is held and everything after it as it comes."""
        assert self.start is not None
        self.passthrough = self.flushed = True
        await self.send(self.start)
        await self.send({"type": "http.response.body", "body": b"".join(self.chunks), "more_body": more})
        self.chunks = []

    def _receivable(self, message: Message) -> Message:
        """``message``, or an error event in place of a response too large for one event."""
        body = message.get("body", b"")
        if message["type"] != "http.response.body" or len(body) <= EVENT_ROOM:
            return message
        response = _response_in(body, self.request_id)
        if response is None or len(response) <= EVENT_ROOM:
            return message
        said = (
            f"{self.what} are {len(response):,} bytes as JSON, more than one server-sent event "
            "may carry to MCP clients (1 MiB), and this request asked the client a question, so its answer "
            "could not go out as one JSON body: return less, or ask the question in a tool first"
        )
        error = {"jsonrpc": "2.0", "id": self.request_id, "error": {"code": INTERNAL_ERROR, "message": said}}
        return {**message, "body": b"event: message\r\ndata: " + json.dumps(error).encode() + b"\r\n\r\n"}

    async def finish(self) -> None:
        if self.passthrough or self.start is None:
            return
        raw = b"".join(self.chunks)
        response = _response_in(raw, self.request_id)
        if response is None or len(response) <= EVENT_ROOM:
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


def _is_request(message: dict[str, Any]) -> bool:
    return "method" in message and "id" in message


def _messages(stream: bytes) -> list[tuple[bytes, dict[str, Any]]]:
    """The JSON-RPC messages in ``stream``'s SSE events, each with its data as sent."""
    found: list[tuple[bytes, dict[str, Any]]] = []
    for event in stream.replace(b"\r\n", b"\n").split(b"\n\n"):
        data = b"\n".join(line[5:].lstrip(b" ") for line in event.split(b"\n") if line.startswith(b"data:"))
        if not data.strip():
            continue
        try:
            message = json.loads(data)
        except ValueError:
            continue
        if isinstance(message, dict):
            found.append((data, message))
    return found


def _response_in(stream: bytes, request_id: Any) -> bytes | None:
    """The data of the SSE event answering ``request_id``, if the stream has one."""
    for data, message in _messages(stream):
        if message.get("id") == request_id and ("result" in message or "error" in message):
            return data
    return None
