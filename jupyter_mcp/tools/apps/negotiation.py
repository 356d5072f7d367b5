"""Whether a request comes from a client that renders MCP Apps, decided per request in both eras.

The SDK's ``client_supports_apps`` reads the capabilities the request's connection declared: the
``initialize`` handshake's (2025 era) or the request's own ``_meta`` envelope (2026 era). The
list cache needs the same answer from raw capabilities (``renders_apps_in``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, client_supports_apps
from mcp.server.context import ServerRequestContext

__all__ = ["APP_MIME_TYPE", "EXTENSION_ID", "client_capabilities_of", "renders_apps", "renders_apps_in"]


def renders_apps(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether this request's client declared the extension with the MCP App MIME type."""
    return client_supports_apps(ctx)


def renders_apps_in(capabilities: Mapping[str, Any] | None) -> bool:
    """The same answer from capabilities as JSON (``{"extensions": {EXTENSION_ID: {"mimeTypes": [...]}}}``)."""
    extensions = capabilities.get("extensions") if capabilities is not None else None
    settings = extensions.get(EXTENSION_ID) if isinstance(extensions, Mapping) else None
    mime_types = settings.get("mimeTypes") if isinstance(settings, Mapping) else None
    return isinstance(mime_types, list | tuple) and APP_MIME_TYPE in mime_types


def client_capabilities_of(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any] | None:
    """The capabilities this request's client declared, as JSON (``None`` when it declared none)."""
    capabilities = ctx.session.client_capabilities
    return capabilities.model_dump(by_alias=True, exclude_none=True) if capabilities is not None else None
