"""The HTTP side of approvals on the server's own (token-protected) app: answer a waiting call, pause.

The Jupyter server extension forwards JupyterLab's clicks here with the kernel's bearer token and the
admin token from the discovery file (``ADMIN_HEADER``), which MCP clients never get, so a client
cannot answer its own calls:
``POST /approvals/<call_id>`` with an ``ApprovalAnswer``, ``POST /pause`` with a ``PauseSwitch``,
``POST /questions/<call_id>`` with a ``QuestionReply`` (``ctx.ask_notebook_user``) and
``POST /limits`` with a ``ClientLimit``.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any, TypeVar

import pydantic
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from jupyter_mcp.discovery import ADMIN_HEADER
from jupyter_mcp.jsonlimits import JSONRefused, load_object
from jupyter_mcp.shapes.answers import PauseState, ReadOnlyClients, Settled
from jupyter_mcp.tools.approvals.policy import Approvals
from jupyter_mcp.tools.approvals.waits import NotebookQuestion

_W = TypeVar("_W")


class _AnyId(Convertor[str]):
    """Whatever follows ``/approvals/``: an id with an encoded slash or line break still reaches its
    route, which checks the admin token before it says the id is unknown (``str`` stops at "/",
    ``path`` at a line break)."""

    regex = r"[\s\S]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("any_id", _AnyId())


def approval_routes(approvals: Approvals) -> list[Route]:
    """``/approvals/{call_id}``, ``/pause``, ``/questions/{call_id}`` and ``/limits`` for ``approvals``."""

    async def answer(request: Request) -> Response:
        missing = "no call with this id is waiting for approval (it was answered, or it timed out)"
        return await _settle(request, approvals, approvals.find, missing, _apply)

    async def pause(request: Request) -> Response:
        body = await _admin_json(request, approvals)
        if isinstance(body, Response):
            return body
        if not isinstance(body.get("paused"), bool):
            return _error(400, 'send {"paused": true} or {"paused": false}')
        (approvals.pause if body["paused"] else approvals.resume)()
        return JSONResponse(PauseState(paused=approvals.paused))

    async def reply(request: Request) -> Response:
        missing = "no question with this id is waiting for an answer (it was answered, or it timed out)"
        return await _settle(request, approvals, approvals.find_question, missing, _reply)

    async def limit(request: Request) -> Response:
        body = await _admin_json(request, approvals)
        if isinstance(body, Response):
            return body
        client, read_only = body.get("client"), body.get("read_only")
        if not isinstance(client, str) or not client or not isinstance(read_only, bool):
            return _error(400, 'send {"client": "<client name>", "read_only": true or false}')
        approvals.limit_client(client, read_only=read_only)
        return JSONResponse(ReadOnlyClients(read_only_clients=sorted(approvals.read_only_clients)))

    return [
        Route("/approvals/{call_id:any_id}", answer, methods=["POST"]),
        Route("/pause", pause, methods=["POST"]),
        Route("/questions/{call_id:any_id}", reply, methods=["POST"]),
        Route("/limits", limit, methods=["POST"]),
    ]


async def _settle(
    request: Request,
    approvals: Approvals,
    find: Callable[[str], _W | None],
    missing: str,
    settle: Callable[[_W, dict[str, Any]], None],
) -> Response:
    """Answer what waits under the path's call id (a call, a question) with the admin's JSON body."""
    body = await _admin_json(request, approvals)
    if isinstance(body, Response):
        return body
    waiting = find(request.path_params["call_id"])
    if waiting is None:
        return _error(404, missing)
    try:
        settle(waiting, body)
    except ValueError as exc:
        return _error(400, str(exc))
    return JSONResponse(Settled(ok=True))


def _reply(question: NotebookQuestion, body: dict[str, Any]) -> None:
    action, content = body.get("action"), body.get("content", {})
    if action == "decline":
        question.decline()
    elif action == "accept":
        if not isinstance(content, dict):
            raise ValueError("content must be a JSON object of the form's fields")
        _check_fits(question.schema, content)
        try:
            question.answer(content)
        except pydantic.ValidationError:
            raise ValueError("each field of content must be text, a number, true/false or a list of text") from None
    else:
        raise ValueError('action must be "accept" or "decline"')


def _check_fits(schema: dict[str, Any], content: dict[str, Any]) -> None:
    """Raise ``ValueError`` (one sentence) when ``content`` does not fit the question's ``schema``."""
    import jsonschema  # imported when needed (components/verbatim.py says why)

    validator = jsonschema.validators.validator_for(schema)(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(content))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path)
        raise ValueError(f"the answer does not fit the question's form: {where + ': ' if where else ''}{error.message}")


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
        return load_object(await request.body())
    except JSONRefused as refused:
        return _error(400, str(refused))


def _error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)
