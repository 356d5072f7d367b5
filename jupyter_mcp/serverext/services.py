"""The extension's long-lived objects, handed to every handler."""

from __future__ import annotations

from dataclasses import dataclass

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp.serverext.carriers.registry import Carriers
from jupyter_mcp.serverext.directory import ToolServerDirectory
from jupyter_mcp.serverext.oauth.signin import SignIn
from jupyter_mcp.serverext.union.live.union import Union


@dataclass
class Services:
    directory: ToolServerDirectory
    pool: ConnectionPool
    carriers: Carriers
    keepalive_interval: float
    status_timeout: float
    public_url: str
    config_includes_token: bool
    union: Union
    """``<base_url>/mcp``: every notebook's tools as one server (idle until its first request)."""
    signin: SignIn | None = None
    """Sign-in with Jupyter (OAuth) on the MCP routes; ``None`` when ``MCPExtensionApp.oauth`` is off."""
