"""2025-era clients of the union: the ``initialize`` handshake, a session, its GET stream, DELETE.

The session is the union's own; the client's requests that concern a notebook go through the
client's session with that notebook's kernel (``sessions.Link``), opened on first use. What the
kernel asks the client mid-call (sampling, elicitation, roots) comes back on the call's stream with
an id of the union's; the client's answer is POSTed here and goes on to the kernel that asked.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from mcp_types.methods import validate_client_request
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION
from pydantic import ValidationError

from jupyter_mcp.capabilities import CAPABILITIES, SERVER_INFO
from jupyter_mcp.serverext.union.live import upstream
from jupyter_mcp.serverext.union.live.catalog import LISTS
from jupyter_mcp.serverext.union.live.sessions import ClientSession, Link, LinkFailed
from jupyter_mcp.serverext.union.routing.forward import Job, forward, translate
from jupyter_mcp.serverext.union.routing.replies import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    Reply,
    accepted,
    encode,
    error,
    result,
)
from jupyter_mcp.serverext.union.routing.router import (
    INSTRUCTIONS,
    ROUTED,
    Incoming,
    Routed,
    Shared,
    Viewer,
    params_of,
    parse,
    refused,
    unreadable,
)
from jupyter_mcp.tools.protocol.checks import MessageError

if TYPE_CHECKING:
    from jupyter_mcp.serverext.union.live.union import Union

SESSION_HEADER = "Mcp-Session-Id"


class Legacy:
    """Answers 2025-era POSTs, GETs and DELETEs."""

    def __init__(self, union: Union) -> None:
        self.union = union
        self.shared = Shared(union)

    # ---- POST ----------------------------------------------------------------------------------------

    async def post(self, incoming: Incoming) -> Reply:
        refusal = unreadable(incoming)
        if refusal is not None:
            return refusal
        try:
            body = parse(incoming.body)
        except MessageError as problem:
            return refused(problem)
        if not isinstance(body, dict) or (not isinstance(body.get("method"), str) and "id" not in body):
            return error(None, INVALID_REQUEST, "Invalid request: one JSON-RPC message per POST", status=400)
        if body.get("method") == "initialize" and "id" in body:
            return self._initialize(body, incoming)
        session = self._session(incoming)
        if isinstance(session, Reply):
            return session
        if "method" not in body:
            return await self._answer_to_kernel(session, body)
        if "id" not in body:
            return await self._notification(session, body)
        return await self._request(session, body)

    def _session(self, incoming: Incoming) -> ClientSession | Reply:
        session_id = incoming.header("mcp-session-id")
        if not session_id:
            return _refused(400, "Bad Request: Missing session ID")
        session = self.union.sessions.get(session_id, incoming.user)
        return session if session is not None else _refused(404, "Session not found")

    def _initialize(self, body: dict[str, Any], incoming: Incoming) -> Reply:
        params = params_of(body)
        requested = params.get("protocolVersion")
        version = requested if requested in HANDSHAKE_PROTOCOL_VERSIONS else LATEST_HANDSHAKE_VERSION
        try:
            validate_client_request("initialize", version, params)
        except (ValidationError, KeyError, ValueError) as exc:
            return error(body["id"], INVALID_PARAMS, f"Invalid params for initialize: {exc}")
        session = self.union.sessions.open(incoming.user, incoming.scope, params, version, incoming.vouched())
        info = params.get("clientInfo") or {}
        self.union.seen(incoming.named(str(info.get("name", ""))), str(info.get("version", "")), version, "session")
        value = {"protocolVersion": version, "capabilities": CAPABILITIES, "serverInfo": SERVER_INFO}
        return result(body["id"], {**value, "instructions": INSTRUCTIONS}, {SESSION_HEADER: session.id})

    async def _request(self, session: ClientSession, body: dict[str, Any]) -> Reply:
        request_id, method = body["id"], body["method"]
        params = params_of(body)
        if method == "ping":
            return result(request_id, {})
        if method in LISTS:
            return await self.shared.list_reply(request_id, _viewer(session), method)
        if method == "logging/setLevel":
            return await self._set_level(session, request_id, params)
        if method not in ROUTED:
            return error(request_id, METHOD_NOT_FOUND, "Method not found", method)
        routed = await self.shared.route(request_id, method, params, _viewer(session))
        if isinstance(routed, Reply):
            return routed
        return await self._forward(session, body, routed)

    async def _forward(self, session: ClientSession, body: dict[str, Any], routed: Routed) -> Reply:
        try:
            link = await self.union.sessions.link(session, routed.member)
        except LinkFailed as exc:
            return error(body["id"], INTERNAL_ERROR, f"jupyter-mcp: {exc}")
        key = json.dumps(body["id"])
        session.inflight[key] = link
        job = Job(routed.member, body["id"], body["method"], routed.name, modern=False, session=session, link=link)
        reply = await forward(self.union, job, encode({**body, "params": routed.params}), link.headers())
        if body["method"] == "resources/subscribe" and reply.status == 200:
            self._follow(session, link)
        if reply.events is None:
            session.inflight.pop(key, None)
            return reply
        reply.events = _done_then(reply.events, lambda: session.inflight.pop(key, None))
        return reply

    async def _set_level(self, session: ClientSession, request_id: Any, params: dict[str, Any]) -> Reply:
        try:
            validate_client_request("logging/setLevel", session.protocol_version, params)
        except (ValidationError, KeyError, ValueError) as exc:
            return error(request_id, INVALID_PARAMS, f"Invalid params for logging/setLevel: {exc}")
        session.log_level = params
        request = encode({"jsonrpc": "2.0", "id": "union-set-level", "method": "logging/setLevel", "params": params})
        links = [task.result() for task in session.links.values() if task.done() and not task.exception()]
        await asyncio.gather(*(self.union.sessions.quietly(link, request) for link in links))
        return result(request_id, {})

    async def _notification(self, session: ClientSession, body: dict[str, Any]) -> Reply:
        method = body.get("method")
        if method == "notifications/initialized":
            session.initialized = True
        elif method == "notifications/cancelled":
            params = params_of(body)
            link = session.inflight.get(json.dumps(params.get("requestId")))
            if link is not None:
                await self.union.sessions.quietly(link, encode(body))
        elif method == "notifications/roots/list_changed":
            links = [task.result() for task in session.links.values() if task.done() and not task.exception()]
            await asyncio.gather(*(self.union.sessions.quietly(link, encode(body)) for link in links))
        return accepted()

    async def _answer_to_kernel(self, session: ClientSession, body: dict[str, Any]) -> Reply:
        """The client's answer to a kernel's request: back to that kernel, under the kernel's own id."""
        asked = session.asked.pop(str(body.get("id")), None) if isinstance(body.get("id"), str) else None
        if asked is not None:
            link, original = asked
            await self.union.sessions.quietly(link, encode({**body, "id": original}))
        return accepted()

    def _follow(self, session: ClientSession, link: Link) -> None:
        """After a subscription: the kernel's ``resources/updated`` come on its session's GET stream."""
        if link.stream is None or link.stream.done():
            link.stream = self.union.spawn(self._relay_stream(session, link))

    async def _relay_stream(self, session: ClientSession, link: Link) -> None:
        try:
            response = await upstream.get_stream(link.member.carrier, link.member.info, link.headers())
            async for data in upstream.messages(response):
                job = Job(link.member, None, "", "", modern=False, session=session, link=link)
                message = _from_stream(job, data)
                if message is not None:
                    session.tell(message)
        except Exception:  # the kernel went away: the union's list change tells the client
            return

    # ---- GET and DELETE ----------------------------------------------------------------------------

    async def get(self, incoming: Incoming) -> Reply:
        if not incoming.accepts[1]:
            return _refused(406, "Not Acceptable: Client must accept text/event-stream")
        session = self._session(incoming)
        if isinstance(session, Reply):
            return session
        if session.streaming:
            return _refused(409, "Conflict: Only one SSE stream is allowed per session")
        session.streaming = True
        return Reply(200, events=_outbox(session), headers={SESSION_HEADER: session.id})

    async def delete(self, incoming: Incoming) -> Reply:
        session = self._session(incoming)
        if isinstance(session, Reply):
            return session
        await self.union.sessions.close(session)
        return Reply(200)


def _viewer(session: ClientSession) -> Viewer:
    return Viewer(session.scope, session.protocol_version, session.capabilities)


def _from_stream(job: Job, data: bytes) -> bytes | None:
    message, _ = translate(job, data)
    return message


async def _outbox(session: ClientSession) -> AsyncIterator[bytes]:
    try:
        while True:
            yield await session.outbox.get()
    finally:
        session.streaming = False


async def _done_then(events: AsyncIterator[bytes], then: Any) -> AsyncIterator[bytes]:
    try:
        async for event in events:
            yield event
    finally:
        then()


def _refused(status: int, text: str) -> Reply:
    return error(None, INVALID_REQUEST, text, status=status)
