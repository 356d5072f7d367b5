"""Reject malformed JSON-RPC messages before the SDK sees them: the right code and one sentence.

The SDK answers a body that is not a JSON-RPC message with a pydantic dump of every union member
it tried (2025 era), calls a request whose ``params`` is an array "not a single JSON-RPC object"
(2026 era), and answers a ``Last-Event-ID`` it does not know with an empty 200 stream that a
client then reconnects to forever. Both eras get the same checks here, in front of the SDK.
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, INVALID_REQUEST
from pydantic import ValidationError


class MessageError(Exception):
    """A message the server refuses: JSON-RPC ``code``, one sentence, and the request id if known."""

    def __init__(self, code: int, message: str, request_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


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
