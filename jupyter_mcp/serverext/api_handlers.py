"""``GET /api/mcp/servers``, ``GET /api/mcp/config``, the notebook user's POSTs and ``GET /api/mcp/openapi.json``
(which describes them all): thin REST handlers."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.extension.handler import ExtensionHandlerMixin
from tornado import web

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.clientconfig import CLIENTS
from jupyter_mcp.hubenv import current_hub
from jupyter_mcp.jsonlimits import JSONRefused, load_object
from jupyter_mcp.serverext.approvals import forward
from jupyter_mcp.serverext.config import ConfigRequest, client_config
from jupyter_mcp.serverext.directory import NoToolServer, UnknownKernel
from jupyter_mcp.serverext.openapi import openapi_document
from jupyter_mcp.serverext.servers import describe_all
from jupyter_mcp.serverext.services import Services

AUTH_RESOURCE = "kernels"


class _Base(ExtensionHandlerMixin, APIHandler):
    auth_resource = AUTH_RESOURCE

    def initialize(self, name: str, services: Services) -> None:
        super().initialize(name)
        self.services = services


class ServersHandler(_Base):
    """Every live tool server of this Jupyter server's kernels."""

    @web.authenticated
    @authorized("read", resource=AUTH_RESOURCE)
    async def get(self) -> None:
        located = await self.services.directory.live()
        entries = await describe_all(located, self.base_url, self.services.status_timeout)
        self.finish(json.dumps(entries))


class ConfigHandler(_Base):
    """A ready client config: for ``<base_url>/mcp`` (every notebook; ``notebooks=a.ipynb,dir/`` scopes it),
    or for one notebook's (``notebook=PATH``) or kernel's (``kernel=ID``) route."""

    @web.authenticated
    @authorized("read", resource=AUTH_RESOURCE)
    def get(self) -> None:
        client = self.get_query_argument("client", "claude")
        if client not in CLIENTS:
            raise web.HTTPError(400, f"client must be one of {', '.join(CLIENTS)}", reason="Unknown client")
        notebook = self.get_query_argument("notebook", None)
        kernel = self.get_query_argument("kernel", None)
        if notebook and kernel:
            raise web.HTTPError(
                400, "give notebook=PATH or kernel=ID (or neither, for every notebook)", reason="Bad target"
            )
        scope = tuple(p for p in self.get_query_argument("notebooks", "").split(",") if p.strip())
        request = ConfigRequest(
            client,
            notebook,
            kernel,
            self._public_origin(),
            self.base_url,
            self._token(),
            current_hub() is not None,
            scope,
        )
        self.finish(json.dumps(client_config(request)))

    def _public_origin(self) -> str:
        own = self.services.public_url.rstrip("/") or f"{self.request.protocol}://{self.request.host}"
        hub = current_hub()
        if hub is None or self.services.public_url:
            return own
        headers = self.request.headers
        return hub.origin(headers.get("X-Forwarded-Proto"), headers.get("X-Forwarded-Host"), own)

    def _token(self) -> str | None:
        hub = current_hub()
        if hub is not None:
            return hub.token_placeholder(self._public_origin())  # the user's own hub token, not the server's
        if not self.services.config_includes_token:
            return None
        token: Any = getattr(self.identity_provider, "token", "")
        return str(token) if token else None


class OpenAPIHandler(_Base):
    """This API's OpenAPI document, for this server's base URL."""

    @web.authenticated
    @authorized("read", resource=AUTH_RESOURCE)
    def get(self) -> None:
        self.finish(json.dumps(openapi_document(self.base_url)))


class MissingRouteHandler(_Base):
    """Any other path under ``/api/mcp/``: a JSON 404 that names the routes (not Jupyter's HTML page)."""

    @web.authenticated
    @authorized("read", resource=AUTH_RESOURCE)
    def get(self) -> None:
        raise web.HTTPError(404, _NO_ROUTE, reason="Not Found")

    post = put = patch = delete = get


_NO_ROUTE = (
    "no such route: the routes under /api/mcp/ are servers, config, union, limits, kernels/<id>/approvals/<call id>, "
    "kernels/<id>/pause, kernels/<id>/questions/<call id>, kernels/<id>/limits, notebook-tools, "
    "notebook-tools/undo and openapi.json"
)


class _KernelPost(_Base):
    """POST a JSON body on to the kernel's own server (its bearer token stays here)."""

    async def _forward(self, kernel_id: str, path: str) -> None:
        try:
            body = load_object(self.request.body)
        except JSONRefused as refused:
            raise web.HTTPError(400, str(refused), reason="Bad body") from None
        try:
            reach = await self.services.directory.server_of_kernel(kernel_id)
        except UnknownKernel as error:
            raise web.HTTPError(404, str(error), reason="Unknown kernel") from None
        except NoToolServer as error:
            raise web.HTTPError(503, str(error), reason="No MCP tool server yet") from None
        except ValueError as error:
            raise web.HTTPError(502, str(error), reason="Kernel's tool server unreachable") from None
        try:
            status, reply = await forward(reach.carrier, reach.info, path, body)
        except HttpError as error:
            raise web.HTTPError(502, str(error), reason="Kernel's tool server unreachable") from None
        if status >= 400:
            said = reply.get("error") if isinstance(reply, dict) else None
            message = str(said or "refused")
            # No format arguments: APIHandler sends log_message as the JSON "message" without formatting it.
            raise web.HTTPError(status, message, reason=message[:80])
        self.finish(json.dumps(reply))


class ApprovalHandler(_KernelPost):
    """Allow or deny a client's call waiting in a kernel: ``{"decision": "allow"|"deny", "reason", "minutes"}``."""

    @web.authenticated
    @authorized("execute", resource=AUTH_RESOURCE)
    async def post(self, kernel_id: str, call_id: str) -> None:
        await self._forward(kernel_id, f"/approvals/{quote(call_id, safe='')}")


class PauseHandler(_KernelPost):
    """The kill switch of a kernel's tools: ``{"paused": true|false}``."""

    @web.authenticated
    @authorized("execute", resource=AUTH_RESOURCE)
    async def post(self, kernel_id: str) -> None:
        await self._forward(kernel_id, "/pause")


class QuestionHandler(_KernelPost):
    """Answer a tool's question to the notebook user: ``{"action": "accept", "content": {...}}`` or ``decline``."""

    @web.authenticated
    @authorized("execute", resource=AUTH_RESOURCE)
    async def post(self, kernel_id: str, call_id: str) -> None:
        await self._forward(kernel_id, f"/questions/{quote(call_id, safe='')}")


class LimitHandler(_KernelPost):
    """Limit a client to read-only tools, or lift it: ``{"client": name, "read_only": true|false}``."""

    @web.authenticated
    @authorized("execute", resource=AUTH_RESOURCE)
    async def post(self, kernel_id: str) -> None:
        await self._forward(kernel_id, "/limits")
