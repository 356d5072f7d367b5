"""The streamable-HTTP app for a ``ToolServer``: 2026-era requests answered here, the rest by the SDK's transport.

Every POST body is read and parsed once, by ``WireCheck``, which checks it and hands the parsed
message on in the scope. On the MCP path, ahead of Starlette's routing: a 2026-era request goes to
``StatelessEntry`` (the SDK's protocol core, without its per-request machinery); everything else
(2025-era sessions, GET streams, DELETE, notifications) goes to the SDK's session manager, behind
``JsonReads``. Other routes (``/status``, approvals) are Starlette's.

The session manager is built here rather than by ``Server.streamable_http_app`` because that
shares a single event store across every session, and because a stream id is the request's
JSON-RPC id, a client resuming its stream could be sent another session's events.
``_SessionManager`` gives each new session its own store (``EventStores``).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import sys
from collections.abc import Iterator
from typing import Any, Protocol

import anyio
from mcp.server import Server
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, AuthorizationContext, authorization_context
from mcp.server.streamable_http import StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from jupyter_mcp.tools.settings import ServerSettings
from jupyter_mcp.tools.transports.http.bodies import JsonReads
from jupyter_mcp.tools.transports.http.eventstore import EventStores
from jupyter_mcp.tools.transports.http.inbound import WireCheck, parsed_message
from jupyter_mcp.tools.transports.http.lists import CachedLists, ListReplies, Sessions
from jupyter_mcp.tools.transports.http.sessioned import SessionEntry
from jupyter_mcp.tools.transports.http.stateless import StatelessEntry, is_modern, takes


class Served(Protocol):
    """What the HTTP app serves from (a ``ToolServer`` is one)."""

    @property
    def lowlevel(self) -> Server[Any]: ...
    @property
    def event_stores(self) -> EventStores: ...
    @property
    def list_cache(self) -> CachedLists: ...
    @property
    def clients_tracker(self) -> Sessions: ...


_NO_LIMIT = sys.maxsize


class _SessionManager(StreamableHTTPSessionManager):
    def __init__(self, app: Server[Any], stores: EventStores, **options: Any) -> None:
        super().__init__(app, event_store=None, **options)
        self.stores = stores

    def _admit_session(self, requestor: AuthorizationContext | None) -> StreamableHTTPServerTransport | None:
        transport = super()._admit_session(requestor)
        if transport is not None and transport.mcp_session_id is not None:
            transport._event_store = self.stores.new(transport.mcp_session_id)
        return transport

    def lifespan_state(self) -> Any:
        return self._lifespan_state

    def session_open(self, scope: Scope, session_id: str) -> bool:
        """Whether ``session_id`` is open to this request (``transport_for``); a request answered outside its
        transport resets its idle clock too."""
        transport = self.transport_for(scope, session_id)
        if transport is None:
            return False
        idle = transport.idle_scope
        if idle is not None and transport._idle_timeout is not None and not transport._requests_in_flight:
            idle.deadline = anyio.current_time() + transport._idle_timeout  # as the transport does after a request
        return True

    def transport_for(self, scope: Scope, session_id: str) -> StreamableHTTPServerTransport | None:
        """The open session's transport, if this request's credential is the one that opened it."""
        transport = self._server_instances.get(session_id)
        if (
            transport is None
            or transport.is_terminated
            or (transport.idle_scope and transport.idle_scope.cancel_called)
        ):
            return None
        user = scope.get("user")
        requestor = authorization_context(user) if isinstance(user, AuthenticatedUser) else None
        return transport if requestor == self._session_owners.get(session_id) else None

    @contextlib.contextmanager
    def holding(self, transport: StreamableHTTPServerTransport) -> Iterator[None]:
        """A request in flight holds its session open, as the transport's own ``handle_request`` does."""
        idle, timeout = transport.idle_scope, transport._idle_timeout
        if idle is None or timeout is None:
            yield
            return
        transport._requests_in_flight += 1
        idle.deadline = math.inf
        try:
            yield
        finally:
            transport._requests_in_flight -= 1
            if not transport._requests_in_flight:
                idle.deadline = asyncio.get_running_loop().time() + timeout  # anyio's clock, without its backend lookup


class _McpPath:
    """The MCP path ahead of Starlette: 2026-era requests to ``stateless``, 2025-era ones in a session to ``lists``
    or ``sessioned``, the rest of it to ``sdk``."""

    def __init__(
        self,
        path: str,
        sdk: ASGIApp,
        rest: ASGIApp,
        *,
        stateless: StatelessEntry,
        lists: ListReplies,
        sessioned: SessionEntry,
    ) -> None:
        self.path = path
        self.sdk = sdk
        self.stateless = stateless
        self.lists = lists
        self.sessioned = sessioned
        self.rest = rest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.rest(scope, receive, send)
            return
        message = parsed_message(scope)
        if takes(message):
            if is_modern(scope):
                await self.stateless(scope, receive, send, message)
                return
            if await self.lists.in_session(scope, send, message):
                return
            if await self.sessioned(scope, receive, send, message):
                return
        await self.sdk(scope, receive, send)


async def _plain_refusal(request: Request, exc: Exception) -> Response:
    """Starlette's 404/405 as this app's other refusals are written: JSON ``{"error": sentence}``."""
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    said = "no such route" if status == 404 else f"{request.method} is not allowed here"
    return JSONResponse({"error": f"{said}: {request.method} {request.url.path}"}, status_code=status)


def streamable_http_app(
    served: Served,
    *,
    path: str,
    json_response: bool,
    retry_interval: int,
    routes: list[BaseRoute],
    settings: ServerSettings,
) -> ASGIApp:
    """The MCP endpoint at ``path`` plus ``routes``, behind the message checks of ``WireCheck`` (limits
    from ``settings``).

    Host/Origin are checked by the caller's middleware, before auth (see auth.py), so the SDK's own
    DNS-rebinding check is off here.
    """
    manager = _SessionManager(
        served.lowlevel,
        served.event_stores,
        json_response=json_response,
        retry_interval=retry_interval,
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=_NO_LIMIT,  # WireCheck applies max_body_bytes (as it is now), with a JSON-RPC error
    )
    sdk = JsonReads(StreamableHTTPASGIApp(manager))
    lists = ListReplies(served.list_cache, served.clients_tracker, manager.session_open)
    stateless = StatelessEntry(served.lowlevel, manager.lifespan_state, json_response=json_response, lists=lists)
    sessioned = SessionEntry(
        served.lowlevel,
        manager.lifespan_state,
        manager,
        served.clients_tracker.session_connection,
        json_response=json_response,
        retry_interval=retry_interval,
    )
    rest = Starlette(
        routes=[Route(path, endpoint=sdk), *routes],
        lifespan=lambda _: manager.run(),
        exception_handlers={404: _plain_refusal, 405: _plain_refusal},
    )
    # An encoded slash (``/approvals/x%2F``) decodes to a trailing "/": Starlette would answer it with a
    # redirect to a path nobody serves. A route either matches as written or is refused.
    rest.router.redirect_slashes = False
    endpoint = _McpPath(path, sdk, rest, stateless=stateless, lists=lists, sessioned=sessioned)
    return WireCheck(endpoint, path, served.event_stores.knows, settings, json_response=json_response)
