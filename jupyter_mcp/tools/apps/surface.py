"""``AppSurface``: what the protocol handlers ask about MCP Apps, request by request.

Three questions, each answered only for a request whose client renders apps (``negotiation.py``)
while the server's ``apps`` setting is on and the app bundle exists; for any other request the
answer is "nothing changes":

- ``listed``: the ``tools/list`` entries with each tool's ``ui://`` link (a tool with ``app=False``,
  or with a ``ui`` entry of its own in ``meta``, keeps its entry as it is), plus the app-only tools;
- ``read``: the app document of ``ui://jupyter-mcp/tool/<name>``;
- ``call``: a ``tools/call`` of an app-only tool; every call is made under its ``REQUESTER``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

import mcp_types as mt
from mcp.server.context import ServerRequestContext

from jupyter_mcp.tools.apps import apponly, document
from jupyter_mcp.tools.apps.live import REQUESTER, LiveCalls, requester_of
from jupyter_mcp.tools.apps.negotiation import APP_MIME_TYPE, renders_apps, renders_apps_in
from jupyter_mcp.tools.budget.links import ResultLinks
from jupyter_mcp.tools.components.registry import ToolRegistry
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.errors import ResourceNotFoundError
from jupyter_mcp.tools.settings import ServerSettings

Ctx = ServerRequestContext[Any, Any]
_T = TypeVar("_T")

RESOURCE_META = {"ui": {"prefersBorder": True}}
"""The document's own ``_meta.ui``: a card reads best inside the host's border."""
COMPANIONS = {"status": apponly.STATUS_TOOL, "read": apponly.READ_TOOL}


class AppSurface:
    """MCP Apps for one server: its tools' cards, their documents, and the app-only tools."""

    def __init__(self, settings: ServerSettings, registry: ToolRegistry, links: Callable[[], ResultLinks]) -> None:
        self.settings = settings
        self.registry = registry
        self.live = LiveCalls()
        """Clients' calls as their apps may see them (observes the call path)."""
        self.app_only = apponly.AppOnlyTools(self.live, links)

    def active(self, ctx: Ctx) -> bool:
        """Whether this request gets apps: the setting, a built bundle, and a client that renders them."""
        return self.settings.apps and renders_apps(ctx) and document.bundle() is not None

    def variant(self, capabilities: Mapping[str, Any] | None) -> Hashable:
        """What splits a cached list: whether the client's lists carry apps (the list cache's ``variant``)."""
        return self.settings.apps and renders_apps_in(capabilities)

    # ---- tools/list --------------------------------------------------------------------------------

    def listed(self, ctx: Ctx, tools: Sequence[Tool], entries: list[mt.Tool]) -> list[mt.Tool]:
        """``entries`` (one per tool of ``tools``) as this request's client gets them."""
        if not self.active(ctx):
            return entries
        linked = [_linked(entry) if has_app(tool) else entry for tool, entry in zip(tools, entries, strict=True)]
        return linked + list(apponly.DEFINITIONS)

    # ---- resources/read ----------------------------------------------------------------------------

    def read(self, ctx: Ctx, uri: str, deref: bool) -> mt.ReadResourceResult | None:
        """The app document at ``uri``; ``None`` when ``uri`` is not an app's (or not for this client)."""
        name = document.tool_of(uri)
        script = document.bundle()
        if name is None or script is None or not self.active(ctx):
            return None
        tool = self.registry.get(name)
        if tool is None or not has_app(tool):
            raise ResourceNotFoundError(uri, f"No app at {uri!r}: no tool {name!r} with an app is served")
        html = document.document(_linked(tool.to_mcp(dereference_schemas=deref)), COMPANIONS, script)
        contents = mt.TextResourceContents(uri=uri, mime_type=APP_MIME_TYPE, text=html, meta=RESOURCE_META)
        return mt.ReadResourceResult(contents=[contents])

    # ---- tools/call --------------------------------------------------------------------------------

    async def call(
        self, ctx: Ctx, params: mt.CallToolRequestParams, call_next: Callable[[], Awaitable[_T]]
    ) -> _T | mt.CallToolResult:
        """An app-only tool's answer, or ``call_next()`` made under this request's ``REQUESTER``."""
        requester = requester_of(ctx)
        if params.name in apponly.NAMES and self.active(ctx):
            return self.app_only.call(params.name, params.arguments, requester)
        token = REQUESTER.set(requester)
        try:
            return await call_next()
        finally:
            REQUESTER.reset(token)


def has_app(tool: Tool) -> bool:
    """Whether ``tool`` gets our card as its app (not ``app=False``, no app of its own in its ``meta``)."""
    own = tool.meta or {}
    return tool.app and "ui" not in own and "ui/resourceUri" not in own


def _linked(entry: mt.Tool) -> mt.Tool:
    uri = document.app_uri(entry.name)
    return entry.model_copy(update={"meta": {**(entry.meta or {}), "ui": {"resourceUri": uri}, "ui/resourceUri": uri}})
