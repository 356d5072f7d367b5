"""``WireCheck``: the HTTP side of the message checks — read a POST body once, check it, or refuse it.

The checks themselves (``protocol/checks.py``) know nothing of HTTP; this middleware reads the
body, parses it, answers a malformed one with HTTP 400 and a JSON-RPC error, and refuses a GET
whose ``Last-Event-ID`` names no event the session still keeps.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp_types import INVALID_REQUEST, PARSE_ERROR
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jupyter_mcp.tools.protocol.checks import MessageError, check_message

_MAX_ID_REPR = 40
_SCOPE_KEY = "jupyter_mcp.message"


def check_body(body: bytes) -> Any:
    """The message in ``body``; ``MessageError`` unless it is one JSON-RPC 2.0 request, notification or response."""
    try:
        message = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageError(PARSE_ERROR, f"Parse error: the body is not valid JSON ({_reason(exc)})") from None
    check_message(message)
    return message


def parsed_message(scope: Scope) -> Any:
    """The message ``WireCheck`` parsed from this request's body (``None`` before it, or for a GET)."""
    return scope.get(_SCOPE_KEY)


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    return "it is not UTF-8"


class WireCheck:
    """ASGI middleware for an MCP endpoint: checks POST bodies and GET ``Last-Event-ID`` headers.

    ``knows_event(session_id, event_id)`` tells whether a session can still resume after an event.
    """

    def __init__(self, app: ASGIApp, path: str, knows_event: Callable[[str | None, str], bool]) -> None:
        self.app = app
        self.path = path.rstrip("/") or "/"
        self.knows_event = knows_event

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        if scope["method"] == "POST":
            await self._post(scope, receive, send)
        elif scope["method"] == "GET" and (refusal := self._last_event_refusal(scope)) is not None:
            await _refuse(send, 400, refusal)
        else:
            await self.app(scope, receive, send)

    async def _post(self, scope: Scope, receive: Receive, send: Send) -> None:
        body, more = await read_body(receive)
        if more is not None:
            await _refuse(send, 400, MessageError(INVALID_REQUEST, f"Invalid request: {more}"))
            return
        try:
            message = check_body(body)
        except MessageError as error:
            await _refuse(send, 400, error)
            return
        scope[_SCOPE_KEY] = message
        await self.app(scope, replay(body, receive), send)

    def _last_event_refusal(self, scope: Scope) -> MessageError | None:
        last = _header(scope, b"last-event-id")
        if last is None or self.knows_event(_header(scope, b"mcp-session-id"), last):
            return None
        shown = last if len(last) <= _MAX_ID_REPR else last[:_MAX_ID_REPR] + "…"
        return MessageError(
            INVALID_REQUEST,
            f"Invalid request: Last-Event-ID {shown!r} is not an event this server still keeps; "
            "open a new stream without it",
        )


async def read_body(receive: Receive) -> tuple[bytes, str | None]:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"", "the client disconnected before sending the whole body"
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), None


def replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def receive_again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _refuse(send: Send, status: int, error: MessageError) -> None:
    payload = {"jsonrpc": "2.0", "id": error.request_id, "error": {"code": error.code, "message": error.message}}
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
