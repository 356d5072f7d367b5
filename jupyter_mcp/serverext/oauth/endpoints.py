"""The tornado routes of the flow: the SDK's endpoints and the discovery documents, answered through ``bridge``.

None of them takes Jupyter credentials: clients call them before they have any. The token,
registration and revocation endpoints authenticate clients their own way (PKCE, client secrets), so
Jupyter's XSRF check, which protects cookie sessions, does not apply to them; the authorization
endpoint only checks a request and sends the browser on to the consent page, which is behind
Jupyter's login and XSRF.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any
from urllib.parse import parse_qs, unquote

from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.extension.handler import ExtensionHandlerMixin
from starlette.types import ASGIApp
from tornado import web

from jupyter_mcp.routes import url_join
from jupyter_mcp.serverext.oauth import bridge
from jupyter_mcp.serverext.oauth.provider import presented_secret, requested_resource
from jupyter_mcp.serverext.oauth.signin import NoSignIn, SignIn
from jupyter_mcp.serverext.oauth.urls import AUTHORIZATION_SERVER, OAUTH, OPENID, PROTECTED_RESOURCE, is_mcp_route


class _SignInHandler(ExtensionHandlerMixin, JupyterHandler):
    """A route of the flow: no Jupyter login, answered by one of the SDK's apps."""

    def initialize(self, name: str, signin: SignIn) -> None:
        super().initialize(name)
        self.signin = signin

    def check_xsrf_cookie(self) -> None:
        """No cookie session is used here (see the module's docstring)."""

    async def answer(self, app: ASGIApp) -> None:
        await bridge.answer_with(self, app)

    def no_sign_in(self, error: NoSignIn) -> None:
        self.set_status(404)
        self.set_header("Content-Type", "application/json")
        self.finish({"error": "invalid_request", "error_description": str(error)})

    def compute_etag(self) -> None:
        return None


class EndpointHandler(_SignInHandler):
    """``<base_url>mcp/oauth/{authorize,token,register,revoke}``: the SDK's handlers."""

    async def _endpoint(self, name: str) -> None:
        try:
            app = self.signin.endpoint(self.signin.site(self.request), name)
        except NoSignIn as error:
            self.no_sign_in(error)
            return
        secret = presented_secret.set(_presented_secret(self.request.headers.get("Authorization", ""), self._form()))
        resource = requested_resource.set(_first(self._form(), "resource") if name == "token" else None)
        try:
            await self.answer(app)
        finally:
            presented_secret.reset(secret)
            requested_resource.reset(resource)

    def _form(self) -> dict[str, list[str]]:
        if not self.request.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            return {}
        return parse_qs(self.request.body.decode("utf-8", "replace"))

    @allow_unauthenticated
    async def get(self, name: str) -> None:
        await self._endpoint(name)

    @allow_unauthenticated
    async def post(self, name: str) -> None:
        await self._endpoint(name)

    @allow_unauthenticated
    async def options(self, name: str) -> None:
        await self._endpoint(name)


class AuthorizationServerMetadataHandler(_SignInHandler):
    """RFC 8414 and OpenID discovery documents of the authorization server (both names, every place)."""

    @allow_unauthenticated
    async def get(self, *_: str) -> None:
        await self._metadata()

    @allow_unauthenticated
    async def options(self, *_: str) -> None:
        await self._metadata()

    async def _metadata(self) -> None:
        try:
            await self.answer(self.signin.metadata(self.signin.site(self.request)))
        except NoSignIn as error:
            self.no_sign_in(error)


class ResourceMetadataHandler(_SignInHandler):
    """RFC 9728 metadata of one MCP route: ``<prefix><route>``, the prefix being where this handler is mounted."""

    def initialize(self, name: str, signin: SignIn, prefix: str) -> None:  # type: ignore[override]
        super().initialize(name, signin)
        self.prefix = prefix

    @allow_unauthenticated
    async def get(self) -> None:
        await self._metadata()

    @allow_unauthenticated
    async def options(self) -> None:
        await self._metadata()

    async def _metadata(self) -> None:
        site = self.signin.site(self.request)
        relative = self.request.path[len(self.prefix) :]
        if not is_mcp_route(unquote(relative)):
            raise web.HTTPError(404, "%s is not an MCP route of this server", relative)
        try:
            await self.answer(self.signin.resource_metadata(site, url_join(self.signin.base_url, relative)))
        except NoSignIn as error:
            self.no_sign_in(error)


def _first(form: dict[str, list[str]], name: str) -> str | None:
    values = form.get(name)
    return values[0] if values else None


def _presented_secret(authorization: str, form: dict[str, list[str]]) -> str | None:
    """A client secret from ``Authorization: Basic`` (RFC 6749 §2.3.1) or the form's ``client_secret``."""
    if authorization.startswith("Basic "):
        try:
            decoded = base64.b64decode(authorization[6:], validate=True).decode()
        except (ValueError, binascii.Error):
            return None
        return unquote(decoded.partition(":")[2]) or None
    return _first(form, "client_secret")


Routes = list[tuple[str, Any, dict[str, Any]]]


def handlers(signin: SignIn) -> tuple[Routes, Routes]:
    """The routes below the base URL (the extension's), and those at the origin's root: the RFCs' own
    path-inserted places, which answer only when nothing (a JupyterHub proxy) owns the root."""
    options: dict[str, Any] = {"signin": signin}
    base = signin.base_url
    in_base = url_join(base, PROTECTED_RESOURCE) + "/"
    at_root = "/" + PROTECTED_RESOURCE + base.rstrip("/") + "/"
    metadata = f"(?:{re.escape(OPENID)}|{re.escape(AUTHORIZATION_SERVER)})"
    below: Routes = [
        (r"/mcp/oauth/(?P<name>authorize|token|register|revoke)", EndpointHandler, options),
        (rf"/mcp/oauth/{metadata}", AuthorizationServerMetadataHandler, options),
        (rf"/{re.escape(PROTECTED_RESOURCE)}/mcp(?:/.*)?", ResourceMetadataHandler, {**options, "prefix": in_base}),
    ]
    root: Routes = [
        (rf"/{metadata}{re.escape(url_join(base, OAUTH))}", AuthorizationServerMetadataHandler, options),
    ]
    if at_root != in_base:
        root.append((rf"{re.escape(at_root)}mcp(?:/.*)?", ResourceMetadataHandler, {**options, "prefix": at_root}))
    return below, root
