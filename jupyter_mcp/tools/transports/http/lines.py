"""``LineSafeEvents``: the events the SDK's own writer sends, with no character a line reader breaks at.

An SSE ``data:`` line ends only at CR or LF, but readers that split lines as Python's
``str.splitlines`` does (several SSE libraries) also break at U+0085 (NEXT LINE), U+2028 and
U+2029, which JSON may carry raw inside strings. The events this app writes itself carry them as
JSON escapes (``_wire.sse.line_safe``); this middleware does the same to those the SDK's writer
sends (2025-era answers it streams, GET streams, resumed streams).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jupyter_mcp._wire.sse import line_safe

_PARTIAL = (b"\xe2\x80", b"\xe2", b"\xc2")
"""How a chunk may end inside one of them (their UTF-8 lead bytes)."""


class LineSafeEvents:
    """ASGI middleware: the body of a ``text/event-stream`` response goes out ``line_safe`` (a character split
    between two chunks is held until the next)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        events = False
        held = b""

        async def sending(message: Message) -> None:
            nonlocal events, held
            if message["type"] == "http.response.start":
                events = _content_type(message).startswith(b"text/event-stream")
            elif message["type"] == "http.response.body" and events:
                body, more = held + bytes(message.get("body", b"")), bool(message.get("more_body", False))
                held = next((tail for tail in _PARTIAL if more and body.endswith(tail)), b"")
                message = {**message, "body": line_safe(body[: len(body) - len(held)])}
            await send(message)

        await self.app(scope, receive, sending)


def _content_type(start: Message) -> bytes:
    for key, value in start.get("headers", ()):
        if key.lower() == b"content-type":
            return bytes(value).lower()
    return b""
