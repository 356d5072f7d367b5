"""``GET /api/mcp/union`` (what the sidebar's "All notebooks" shows) and ``POST /api/mcp/limits``.

The names are the ones clients of ``<base_url>/mcp`` see (from the same merged list they get);
a limit set here applies to the client in every notebook, those that start later included.
"""

from __future__ import annotations

import json

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.extension.handler import ExtensionHandlerMixin
from mcp_types.version import LATEST_MODERN_VERSION
from tornado import web

from jupyter_mcp.jsonlimits import JSONRefused, load_object
from jupyter_mcp.routes import union_route
from jupyter_mcp.serverext.services import Services
from jupyter_mcp.serverext.union.live.catalog import View
from jupyter_mcp.serverext.union.live.members import Member
from jupyter_mcp.serverext.union.live.scope import Scope
from jupyter_mcp.serverext.union.live.union import Union
from jupyter_mcp.shapes.rest import UnionNotebook, UnionReply

AUTH_RESOURCE = "kernels"


class _UnionBase(ExtensionHandlerMixin, APIHandler):
    auth_resource = AUTH_RESOURCE

    def initialize(self, name: str, services: Services) -> None:
        super().initialize(name)
        self.services = services


class UnionInfoHandler(_UnionBase):
    """The notebooks of ``<base_url>/mcp``, their prefixes and tool names, its clients and their limits."""

    @web.authenticated
    @authorized("read", resource=AUTH_RESOURCE)
    async def get(self) -> None:
        self.finish(json.dumps(await describe(self.services.union, self.base_url)))


class UnionLimitHandler(_UnionBase):
    """``{"client": name, "read_only": true|false}``: limit a client of any notebook to read-only tools, or lift it."""

    @web.authenticated
    @authorized("execute", resource=AUTH_RESOURCE)
    async def post(self) -> None:
        try:
            body = load_object(self.request.body)
        except JSONRefused as refused:
            raise web.HTTPError(400, str(refused), reason="Bad body") from None
        client, read_only = body.get("client"), body.get("read_only")
        if not isinstance(client, str) or not client or not isinstance(read_only, bool):
            raise web.HTTPError(400, 'give {"client": NAME, "read_only": true|false}', reason="Bad body")
        await self.services.union.limit(client, read_only=read_only)
        self.finish(json.dumps({"read_only_clients": sorted(self.services.union.read_only_clients)}))


async def describe(union: Union, base_url: str) -> UnionReply:
    members = await union.members(Scope())
    view = await union.catalog.view(members, "tools/list", LATEST_MODERN_VERSION, "{}")
    return {
        "route": union_route(base_url),
        "notebooks": [_notebook(member, view) for member in members if not member.bare],
        "renamed": [f"{original!r} of {key} is {name}" for key, original, name in view.renamed],
        "clients": union.clients(),
        "read_only_clients": sorted(union.read_only_clients),
    }


def _notebook(member: Member, view: View) -> UnionNotebook:
    tools = [name for name, (owner, _) in view.routes.items() if owner.key == member.key]
    return {
        "notebook_path": member.notebook,
        "kernel_id": member.info.kernel_id,
        "prefix": member.prefix,
        "collision": member.collision,
        "tools": tools,
    }
