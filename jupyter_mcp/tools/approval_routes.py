"""The HTTP side of approvals on the server's own (token-protected) app: answer a waiting call, pause.

The Jupyter server extension forwards JupyterLab's clicks here with the kernel's bearer token and the
admin token from the discovery file (``ADMIN_HEADER``), which MCP clients never get, so a client
cannot answer its own calls:
``POST /approvals/<call_id>`` with an ``ApprovalAnswer``, ``POST /pause`` with ``{"paused": bool}``.
"""

from __future__ import annotations

import hmac
import json
from typing import Any, Literal, TypedDict

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from jupyter_mcp.discovery import ADMIN_HEADER
from jupyter_mcp.tools.approvals import Approvals


class ApprovalAnswer(TypedDict, total=False):
    """What JupyterLab sends for a waiting call."""

    decision: Literal["allow", "deny"]
    reason: str | None
    """Deny only: the client sees it."""
    minutes: float | None
    """Allow only: this client's next calls run unasked for this long."""


def approval_routes(approvals: Approvals) -> list[Route]:
    """``/approvals/{call_id}`` and ``/pause`` for ``approvals``."""

    async def answer(request: Request) -> Response:
        body = await _admin_json(request, approvals)
        if isinstance(body, Response):
            return body
        pending = approvals.find(request.path_params["call_id"])
        if pending is None:
            return _error(404, "no call with this id is waiting for approval (it was answered, or it timed out)")
        try:
            _apply(pending, body)
        except ValueError as exc:
            return _error(400, str(exc))
        return JSONResponse({"ok": True})

    async def pause(request: Request) -> Response:
        body = await _admin_json(request, approvals)
        if isinstance(body, Response):
            return body
        if not isinstance(body.get("paused"), bool):
            return _error(400, 'send {"paused": true} or {"paused": false}')
        (approvals.pause if body["paused"] else approvals.resume)()
        return JSONResponse({"paused": approvals.paused})

    return [
        Route("/approvals/{call_id}", answer, methods=["POST"]),
        Route("/pause", pause, methods=["POST"]),
    ]


def _apply(pending: Any, body: dict[str, Any]) -> None:
    decision, reason, minutes = body.get("decision"), body.get("reason"), body.get("minutes")
    if decision == "allow":
        if minutes is not None and not isinstance(minutes, int | float):
            raise ValueError("minutes must be a number")
        pending.allow(minutes=minutes, via="lab")
    elif decision == "deny":
        if reason is not None and not isinstance(reason, str):
            raise ValueError("reason must be text")
        pending.deny(reason, via="lab")
    else:
        raise ValueError('decision must be "allow" or "deny"')


async def _admin_json(request: Request, approvals: Approvals) -> dict[str, Any] | Response:
    """The JSON object body of a request that carries the admin token; else the error response."""
    given = request.headers.get(ADMIN_HEADER, "")
    if not hmac.compare_digest(given.encode(), approvals.admin_token.encode()):
        return _error(403, "only the notebook's side answers approvals (through Jupyter), not an MCP client")
    return await _json_object(request)


async def _json_object(request: Request) -> dict[str, Any] | Response:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        return _error(400, "the body must be JSON")
    return body if isinstance(body, dict) else _error(400, "the body must be a JSON object")


def _error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)
