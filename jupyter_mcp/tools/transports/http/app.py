"""The streamable-HTTP app for a ``ToolServer``: 2026-era requests answered here, the rest by the SDK's transport.

Every POST body is read and parsed once, by ``WireCheck``, which checks it and hands the parsed
message on in the scope. On the MCP path, ahead of Starlette's routing: a 2026-era request goes to
``StatelessEntry`` (the SDK's protocol core, without its per-request machinery); everything else
(2025-era sessions, GET streams, DELETE, notifications) goes through ``SessionPeers`` (each session's
``Peer``) to the SDK's session manager, behind ``JsonReads``. With the SDK adapter's fast paths on,
2025-era requests in an open session are answered first by ``ListReplies`` (lists from bytes) and
``SessionEntry`` (in the request's own task). Other routes (``/status``, approvals) are Starlette's.

The session manager gets one event store, ``PeerEvents``, which keeps each session's events apart:
a stream id is the request's JSON-RPC id, so with one shared store a client resuming its stream
could be sent another session's events.
"""

from __future__ import annotations

import sys
from typing import Any, Protocol

from mcp.server import Server
from mcp.server.streamable_http_manager import (
    DEFAULT_SESSION_IDLE_TIMEOUT,
    StreamableHTTPASGIApp,
    StreamableHTTPSessionManager,
)
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from jupyter_mcp.adapters import sdk
from jupyter_mcp.adapters.fastpaths import FastPaths
from jupyter_mcp.tools.settings import ServerSettings
from jupyter_mcp.tools.transports.http.bodies import JsonReads
from jupyter_mcp.tools.transports.http.eventstore import EventStores, PeerEvents
from jupyter_mcp.tools.transports.http.inbound import WireCheck, parsed_message
from jupyter_mcp.tools.transports.http.lines import LineSafeEvents
from jupyter_mcp.tools.transports.http.lists import CachedLists, ListReplies, Sessions
from jupyter_mcp.tools.transports.http.peering import SessionPeers
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
    @property
    def fast_paths_taken(self) -> FastPaths: ...
    @property
    def lifespan_state(self) -> dict[str, Any]: ...


_NO_LIMIT = sys.maxsize
IDLE_TIMEOUT = DEFAULT_SESSION_IDLE_TIMEOUT
"""Seconds a 2025-era session lives without a request under way (the SDK's default)."""


class _McpPath:
    """The MCP path ahead of Starlette: 2026-era requests to ``stateless``; 2025-era ones, with their session's
    peer, to ``lists`` or ``sessioned`` (fast paths) or to ``sdk``."""

    def __init__(
        self,
        path: str,
        sdk_app: ASGIApp,
        rest: ASGIApp,
        *,
        stateless: StatelessEntry,
        peers: SessionPeers,
        lists: ListReplies | None,
        sessioned: SessionEntry | None,
    ) -> None:
        self.path = path
        self.sdk = sdk_app
        self.stateless = stateless
        self.peers = peers
        self.lists = lists
        self.sessioned = sessioned
        self.rest = rest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.rest(scope, receive, send)
            return
        if is_modern(scope):  # no session, no peer
            message = parsed_message(scope)
            await (self.stateless(scope, receive, send, message) if takes(message) else self.sdk(scope, receive, send))
            return
        await self.peers.serve(scope, receive, send, self._legacy)

    async def _legacy(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = parsed_message(scope)
        if takes(message):
            if self.lists is not None and await self.lists.in_session(scope, send, message):
                return
            if self.sessioned is not None and await self.sessioned(scope, receive, send, message):
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
    fast = served.fast_paths_taken.takes(sdk.LIBRARY)
    peers = SessionPeers(IDLE_TIMEOUT, served.event_stores.name)
    events = PeerEvents(served.event_stores)
    options: dict[str, Any] = {
        "event_store": events,
        "json_response": json_response,
        "retry_interval": retry_interval,
        "security_settings": TransportSecuritySettings(enable_dns_rebinding_protection=False),
        "max_request_body_size": _NO_LIMIT,  # WireCheck applies max_body_bytes (as it is now), with a JSON-RPC error
        "session_idle_timeout": IDLE_TIMEOUT,
    }
    state = lambda: served.lifespan_state  # noqa: E731 - what the lowlevel server's lifespan yields
    manager = (
        sdk.SessionManager(served.lowlevel, on_end=peers.end, **options)
        if fast
        else StreamableHTTPSessionManager(served.lowlevel, **options)
    )
    opened = manager if isinstance(manager, sdk.SessionManager) else None
    lists = ListReplies(served.list_cache, served.clients_tracker, opened.session_open if opened else None)
    sessioned = (
        SessionEntry(served.lowlevel, state, opened, events, json_response=json_response, retry_interval=retry_interval)
        if opened
        else None
    )
    sdk_app = LineSafeEvents(JsonReads(StreamableHTTPASGIApp(manager)))
    stateless = StatelessEntry(served.lowlevel, state, json_response=json_response, lists=lists, fast=fast)
    rest = Starlette(
        routes=[Route(path, endpoint=sdk_app), *routes],
        lifespan=lambda _: manager.run(),
        exception_handlers={404: _plain_refusal, 405: _plain_refusal},
    )
    # An encoded slash (``/approvals/x%2F``) decodes to a trailing "/": Starlette would answer it with a
    # redirect to a path nobody serves. A route either matches as written or is refused.
    rest.router.redirect_slashes = False
    endpoint = _McpPath(
        path, sdk_app, rest, stateless=stateless, peers=peers, lists=lists if opened else None, sessioned=sessioned
    )
    return WireCheck(endpoint, path, served.event_stores.knows, settings, json_response=json_response)
