"""The streamable-HTTP app for a ``ToolServer``: the SDK's transport, with one event store per session.

Built here rather than by ``Server.streamable_http_app`` for one reason: that shares a single
event store across every session, and because a stream id is the request's JSON-RPC id, a
client resuming its stream could be sent another session's events. ``_SessionManager`` gives each
new session its own store (``EventStores``); the rest is the SDK's own pieces, wired as it wires them.
"""

from __future__ import annotations

import sys
from typing import Any

from mcp.server import Server
from mcp.server.auth.middleware.bearer_auth import AuthorizationContext
from mcp.server.streamable_http import StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp

from jupyter_mcp.tools.settings import ServerSettings
from jupyter_mcp.tools.transports.http.bodies import JsonReads
from jupyter_mcp.tools.transports.http.eventstore import EventStores
from jupyter_mcp.tools.transports.http.wire import WireCheck

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


def streamable_http_app(
    lowlevel: Server[Any],
    stores: EventStores,
    *,
    path: str,
    json_response: bool,
    retry_interval: int,
    routes: list[BaseRoute],
    settings: ServerSettings,
) -> ASGIApp:
    """The MCP endpoint at ``path`` plus ``routes``, behind the message checks of ``WireCheck`` (limits
    from ``settings``).

    Host/Origin are checked by the caller's middleware, before auth (see http.py), so the SDK's own
    DNS-rebinding check is off here.
    """
    manager = _SessionManager(
        lowlevel,
        stores,
        json_response=json_response,
        retry_interval=retry_interval,
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=_NO_LIMIT,  # WireCheck applies max_body_bytes (as it is now), with a JSON-RPC error
    )
    app = Starlette(
        routes=[Route(path, endpoint=JsonReads(StreamableHTTPASGIApp(manager))), *routes],
        lifespan=lambda _: manager.run(),
    )
    return WireCheck(app, path, stores.knows, settings, json_response=json_response)
