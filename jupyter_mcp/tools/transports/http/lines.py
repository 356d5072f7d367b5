"""Server-sent events no reader can cut short: the characters JSON carries raw but line readers break on, escaped.

An SSE ``data:`` line ends only at CR or LF, but readers that split lines as Python's
``str.splitlines`` does (several SSE libraries) also break at U+0085 (NEXT LINE), U+2028 and
U+2029, which JSON may carry raw inside strings: such a reader cuts the event there. Every event
this app writes carries them as JSON escapes instead (the same string once parsed): ``line_safe``
for the events written here, ``LineSafeEvents`` for those the SDK's own writer sends (2025-era
answers it streams, GET streams, resumed streams).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

_LINE_BREAKS = [(chr(c).encode(), f"\\u{c:04x}".encode()) for c in (0x85, 0x2028, 0x2029)]
"""Characters JSON may carry raw that ``str.splitlines`` (not SSE) takes for line breaks, and their escapes."""
_PARTIAL = (b"\xe2\x80", b"\xe2", b"\xc2")
"""How a chunk may end inside one of them (their UTF-8 lead bytes)."""


def line_safe(data: bytes) -> bytes:
    """``data`` (UTF-8 JSON) with U+0085, U+2028 and U+2029 written as JSON escapes."""
    for raw, escaped in _LINE_BREAKS:
        if raw in data:
            data = data.replace(raw, escaped)
    return data


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
