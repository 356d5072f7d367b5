"""``WireCheck``: the HTTP side of the message checks — read a POST body once, check it, or refuse it.

The checks themselves (``protocol/checks.py``, ``protocol/parsing.py``) know nothing of HTTP; this
middleware refuses a body that is not ``application/json`` (HTTP 415) and a request that does not
accept the answer's media types (HTTP 406), with a JSON-RPC error as every refusal here; it reads the body (no further
than ``max_body_bytes``: HTTP 413), parses it once within the
server's limits, answers a malformed one with HTTP 400 and a JSON-RPC error (and one WARNING line),
and refuses a GET whose ``Last-Event-ID`` names no event the session still keeps. The parsed
message travels on in the ASGI scope (``parsed_message``) for what comes after.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from typing import Any

from mcp.server.streamable_http import check_accept_headers
from mcp_types import INVALID_REQUEST
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jupyter_mcp.tools.protocol.checks import MessageError, check_message
from jupyter_mcp.tools.protocol.parsing import BodyLimits, parse_message, too_large
from jupyter_mcp.tools.settings import ServerSettings

logger = logging.getLogger(__name__)

_MAX_ID_REPR = 40
_SCOPE_KEY = "jupyter_mcp.message"


class Refused(MessageError):
    """An invalid request refused with an HTTP ``status`` other than 400 (its headers; a body too large)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(INVALID_REQUEST, message)
        self.status = status


def check_body(body: bytes, limits: BodyLimits) -> Any:
    """The message ``body`` holds; ``MessageError`` unless it is one JSON-RPC 2.0 request, notification
    or response within ``limits``."""
    message = parse_message(body, limits)
    check_message(message)
    return message


def parsed_message(scope: Scope) -> Any:
    """The message ``WireCheck`` parsed from this request's body (``None`` before it, or for a GET)."""
    return scope.get(_SCOPE_KEY)


class WireCheck:
    """ASGI middleware for an MCP endpoint: checks POST bodies and GET ``Last-Event-ID`` headers.

    ``knows_event(session_id, event_id)`` tells whether a session can still resume after an event;
    ``settings`` gives the body limits (``max_body_bytes``, ``max_json_depth``), read per request.
    """

    def __init__(
        self,
        app: ASGIApp,
        path: str,
        knows_event: Callable[[str | None, str], bool],
        settings: ServerSettings,
        *,
        json_response: bool = False,
    ) -> None:
        self.app = app
        self.path = path.rstrip("/") or "/"
        self.knows_event = knows_event
        self.settings = settings
        self.json_response = json_response

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        if scope["method"] == "POST":
            await self._post(scope, receive, send)
        elif scope["method"] == "GET" and (refusal := self._last_event_refusal(scope)) is not None:
            await _refuse(send, 400, refusal, scope)
        else:
            await self.app(scope, receive, send)

    async def _post(self, scope: Scope, receive: Receive, send: Send) -> None:
        limits = BodyLimits(self.settings.max_body_bytes, self.settings.max_json_depth)
        try:
            self._check_headers(scope)
            body = await read_body(scope, receive, limits.max_bytes)
            message = check_body(body, limits)
            self._check_accepts(scope, message)
        except MessageError as error:
            await _refuse(send, error.status if isinstance(error, Refused) else 400, error, scope)
            return
        scope[_SCOPE_KEY] = message
        await self.app(scope, replay(body, receive), send)

    def _check_headers(self, scope: Scope) -> None:
        """A POST's body must be JSON (415), and its reply something the client accepts (406)."""
        kind = header(scope, b"content-type") or ""
        if not kind.lower().startswith("application/json"):
            said = f"Invalid request: the Content-Type must be application/json, got {_shown(kind)}"
            raise Refused(415, said)
        has_json, has_sse = _accepts(_accept(scope))
        if not has_json or not (has_sse or self.json_response):
            needed = "application/json" if self.json_response else "application/json and text/event-stream"
            raise Refused(406, f"Not acceptable: the Accept header must list {needed}, got {_shown(_accept(scope))}")

    def _check_accepts(self, scope: Scope, message: Any) -> None:
        """A ``subscriptions/listen`` answer is always an event stream, even where others are JSON."""
        if message.get("method") == "subscriptions/listen" and not _accepts(_accept(scope))[1]:
            raise Refused(406, "Not acceptable: subscriptions/listen answers with text/event-stream; accept it")

    def _last_event_refusal(self, scope: Scope) -> MessageError | None:
        last = header(scope, b"last-event-id")
        if last is None or self.knows_event(header(scope, b"mcp-session-id"), last):
            return None
        return MessageError(
            INVALID_REQUEST,
            f"Invalid request: Last-Event-ID {_shown(last)} is not an event this server still keeps; "
            "open a new stream without it",
        )


async def read_body(scope: Scope, receive: Receive, max_bytes: int) -> bytes:
    """The whole body; ``Refused`` (413) as soon as it is over ``max_bytes`` (by its Content-Length, or
    while it arrives), ``MessageError`` if the client went away before sending it all."""
    declared = header(scope, b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        raise Refused(413, too_large(int(declared), max_bytes))
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise MessageError(INVALID_REQUEST, "Invalid request: the client went away before sending the whole body")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            raise Refused(413, too_large(None, max_bytes))
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def receive_again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again


def _shown(value: str) -> str:
    return repr(value if len(value) <= _MAX_ID_REPR else value[:_MAX_ID_REPR] + "…")


@functools.lru_cache(maxsize=64)
def _accepts(accept: str) -> tuple[bool, bool]:
    """The SDK's ``check_accept_headers`` of an Accept value (a client sends the same one every time)."""
    return check_accept_headers(Request({"type": "http", "headers": [(b"accept", accept.encode("latin-1"))]}))


def _accept(scope: Scope) -> str:
    return header(scope, b"accept") or ""


def header(scope: Scope, name: bytes) -> str | None:
    """The request's header ``name`` (lower case), decoded; ``None`` when it has none."""
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _refuse(send: Send, status: int, error: MessageError, scope: Scope) -> None:
    logger.warning("refused a %s request with HTTP %d: %s", scope["method"], status, error.message)
    payload = {"jsonrpc": "2.0", "id": error.request_id, "error": {"code": error.code, "message": error.message}}
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
