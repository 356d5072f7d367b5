"""The few places the tool layer reaches past mcp 2.x's public API, kept in one module."""

from __future__ import annotations

from typing import Any

import mcp_types as mt
from mcp.server.connection import Connection
from mcp.server.context import ServerRequestContext
from mcp.server.session import ServerSession

LOG_LEVEL_STATE_KEY = "jupyter_mcp.log_level"


def connection_of(request: ServerRequestContext[Any, Any]) -> Connection | None:
    """The per-client ``Connection`` behind a request (mcp 2.3 exposes it only privately)."""
    session: ServerSession = request.session
    connection = getattr(session, "_connection", None)
    return connection if isinstance(connection, Connection) else None


def client_implementation(request: ServerRequestContext[Any, Any]) -> mt.Implementation | None:
    params = request.session.client_params
    return params.client_info if params is not None else None
