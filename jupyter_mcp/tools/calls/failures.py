"""How a failed call is told: one classification for tool calls, resource reads and prompt gets.

A failure has a status for the history (``error``, ``timeout``, ``cancelled``, ``expired``), the
message a client sees, the full message and traceback the history keeps, and what kind of failure
it was; the call path then answers in its kind's way (a tool: an ``isError`` result; a read or a
prompt get: the JSON-RPC error the protocol handler makes of the raised ``ToolError``).
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Literal

import anyio
import mcp_types as mt
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools.calls.context import CallScope
from jupyter_mcp.tools.calls.events import CallStatus
from jupyter_mcp.tools.components.results import text
from jupyter_mcp.tools.errors import ToolError, ToolTimeoutError

FailureKind = Literal["cancelled", "protocol", "refused", "unexpected"]
"""``cancelled``: the call was stopped; ``protocol``: an ``MCPError``; ``refused``: a ``ToolError`` (its
message is for the client); ``unexpected``: any other exception (its details may be masked)."""


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    status: CallStatus
    message: str
    """What the client sees."""
    error: str
    """The full message for the record."""
    traceback: str | None = None


def classify(exc: BaseException, scope: CallScope, what: str, *, mask: bool) -> Failure | None:
    """The failure ``exc`` means for the call of ``what`` ("Tool 'x'"); ``None`` for what is no call's failure."""
    if isinstance(exc, anyio.get_cancelled_exc_class()):
        status = scope.stop_status
        return Failure("cancelled", status, f"Call {status}", status)
    if isinstance(exc, ToolTimeoutError):
        return Failure("refused", "timeout", str(exc), str(exc))
    if isinstance(exc, ToolError):
        return Failure("refused", "error", str(exc), str(exc), traceback_of(exc))
    if isinstance(exc, MCPError):
        message = f"protocol error {exc.error.code}: {exc.error.message}"
        return Failure("protocol", "error", message, message, traceback_of(exc))
    if not isinstance(exc, Exception):
        return None
    full = f"{type(exc).__name__}: {exc}"
    shown = f"{what} failed; the server hides error details" if mask else full
    return Failure("unexpected", "error", shown, full, traceback_of(exc))


def error_result(message: str) -> mt.CallToolResult:
    return mt.CallToolResult(content=[text(message)], is_error=True)


def traceback_of(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))
