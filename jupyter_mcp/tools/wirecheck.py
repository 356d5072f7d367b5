"""Reject malformed messages before the SDK sees them: the right JSON-RPC code and one sentence.

The SDK answers a body that is not a JSON-RPC message with a pydantic dump of every union member
it tried (2025 era), calls a request whose ``params`` is an array "not a single JSON-RPC object"
(2026 era), and answers a ``Last-Event-ID`` it does not know with an empty 200 stream that a
client then reconnects to forever. Both eras get the same checks here, in front of the SDK.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR
from pydantic import ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_MAX_ID_REPR = 40


class MessageError(Exception):
    """A message the server refuses: JSON-RPC ``code``, one sentence, and the request id if known."""

    def __init__(self, code: int, message: str, request_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


def check_body(body: bytes) -> None:
    """Raise ``MessageError`` unless ``body`` is one JSON-RPC 2.0 request, notification or response."""
    try:
        message = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageError(PARSE_ERROR, f"Parse error: the body is not valid JSON ({_reason(exc)})") from None
    check_message(message)


def check_message(message: Any) -> None:
    if isinstance(message, list):
        raise MessageError(INVALID_REQUEST, "Invalid request: batches are not supported; send one JSON-RPC object")
    if not isinstance(message, dict):
        raise MessageError(INVALID_REQUEST, f"Invalid request: expected a JSON-RPC object, got {_kind(message)}")
    request_id = message.get("id")
    if message.get("jsonrpc") != "2.0":
        raise MessageError(INVALID_REQUEST, 'Invalid request: "jsonrpc" must be "2.0"', _safe_id(request_id))
    if "id" in message and not _valid_id(request_id):
        raise MessageError(
            INVALID_REQUEST, f'Invalid request: "id" must be a string or an integer, got {_kind(request_id)}'
        )
    if "method" in message:
        _check_call(message, request_id)
    elif "result" not in message and "error" not in message:
        raise MessageError(
            INVALID_REQUEST, 'Invalid request: a message needs a "method" (or, for a response, "result" or "error")'
        )
    elif "id" not in message:
        raise MessageError(INVALID_REQUEST, 'Invalid request: a response needs the "id" of its request')


def _check_call(message: dict[str, Any], request_id: Any) -> None:
    method = message["method"]
    if not isinstance(method, str) or not method:
        raise MessageError(
            INVALID_REQUEST, f'Invalid request: "method" must be a non-empty string, got {_kind(method)}', request_id
        )
    params = message.get("params")
    if "params" in message and not isinstance(params, dict):
        raise MessageError(
            INVALID_PARAMS, f'Invalid params: "params" of {method} must be an object, got {_kind(params)}', request_id
        )


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _safe_id(value: Any) -> Any:
    return value if _valid_id(value) else None


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    if type(value) in names:
        return names[type(value)]
    return "a number" if isinstance(value, int | float) else type(value).__name__


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
            check_body(body)
        except MessageError as error:
            await _refuse(send, 400, error)
            return
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


async def explain_invalid_params(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: a request whose params do not validate gets -32602 naming the problem
    (the SDK sends "Invalid request parameters" with nothing else)."""
    try:
        return await call_next(ctx)
    except ValidationError as exc:
        raise MCPError(code=INVALID_PARAMS, message=f"Invalid params for {ctx.method}: {_first_problem(exc)}") from None


def _first_problem(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False)
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "params"
    problem = f"{where!r} is required" if first["type"] == "missing" else f"{where}: {first['msg']}"
    return problem + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else "")
