"""The MCP routes' door: Jupyter's own credentials as before, a signed-in client's token, or a 401 that
starts the sign-in.

- ``Authorization: Bearer jmcp_…`` is one of our access tokens: the SDK's ``BearerAuthBackend``
  checks it (in force, unexpired, issued for this very route: RFC 8707) against the ``Authority``.
  Jupyter's identity provider never sees it (under JupyterHub it would ask the hub about a token
  the hub never issued). The request then acts for the grant: its user is the one who consented,
  and ``grant`` holds what they allowed.
- A request with no credentials at all (no ``Authorization``, no ``?token=``, no cookie) gets the
  SDK's 401 (``RequireAuthMiddleware``) whose ``WWW-Authenticate`` names the route's metadata.
- Anything else (the Jupyter token, a hub API token, JupyterLab's cookie) is Jupyter's business,
  exactly as without sign-in.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from jupyter_server.auth import User
from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import JupyterHandler
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, BearerAuthBackend, RequireAuthMiddleware
from pydantic import AnyHttpUrl
from starlette.requests import HTTPConnection
from tornado import web

from jupyter_mcp.serverext.oauth import bridge
from jupyter_mcp.serverext.oauth.authority import GrantedToken
from jupyter_mcp.serverext.oauth.signin import SignIn
from jupyter_mcp.serverext.oauth.store import SECRET_PREFIX, WRITE_SCOPE, Grant
from jupyter_mcp.shapes.signedin import SignedIn

Method = TypeVar("Method", bound=Callable[..., Any])


def our_bearer(authorization: str) -> str | None:
    """The token of an ``Authorization: Bearer`` header, if this server issued it."""
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token.startswith(SECRET_PREFIX) else None


class SignInGuard(JupyterHandler):
    """Mixin (first among a Jupyter handler's bases) for the MCP routes. Subclasses give ``sign_in``."""

    grant: Grant | None = None
    """What the signed-in client may do (``None``: Jupyter's credentials, or none yet)."""
    granted_scopes: list[str] = []  # noqa: RUF012 - replaced per request, never mutated

    def sign_in(self) -> SignIn | None:
        raise NotImplementedError

    def signed_in(self) -> SignedIn | None:
        """What a kernel is told about the signed-in client of this request (``None``: not one)."""
        if self.grant is None:
            return None
        return SignedIn(
            client=self.grant.client_name,
            read_only=WRITE_SCOPE not in self.granted_scopes,
            notebook_tools=self.grant.choices.notebook_tools,
            notebooks=list(self.grant.choices.notebooks),
        )

    async def prepare(self) -> None:  # type: ignore[override]
        signin = self.sign_in()
        if signin is not None:
            token = our_bearer(self.request.headers.get("Authorization", ""))
            if token is not None:
                await self._admit(signin, token)
                return
            if not _credentials(self) and signin.offered(signin.site(self.request)):
                await self._challenge(signin)
                return
        result = super().prepare()
        if result is not None:
            await result

    async def _admit(self, signin: SignIn, token: str) -> None:
        site = signin.site(self.request)
        backend = BearerAuthBackend(signin.authority, resource_server_url=AnyHttpUrl(site.resource(self.request.path)))
        found = await backend.authenticate(
            HTTPConnection({"type": "http", "headers": [(b"authorization", f"Bearer {token}".encode())]})
        )
        if found is None:
            await self._challenge(signin)
            return
        if not self.check_host():  # Jupyter's DNS-rebinding check, as its own prepare does
            raise web.HTTPError(403)
        user = found[1]
        assert isinstance(user, AuthenticatedUser)
        assert isinstance(user.access_token, GrantedToken)
        grant = user.access_token.grant
        self.grant, self.granted_scopes = grant, list(user.scopes)
        self.current_user = User(username=grant.subject, name=grant.client_name, display_name=grant.client_name)
        self.settings["api_last_activity"] = datetime.now(UTC)  # keeps an idle-culled server alive

    async def _challenge(self, signin: SignIn) -> None:
        site = signin.site(self.request)
        metadata = AnyHttpUrl(site.resource_metadata(self.request.path))
        await bridge.answer_with(self, RequireAuthMiddleware(None, [], resource_metadata_url=metadata))
        raise web.Finish  # the 401 is the whole answer: no verb, no upstream


def _credentials(handler: web.RequestHandler) -> bool:
    """Whether the request carries anything Jupyter may take for credentials."""
    request = handler.request
    return bool(
        request.headers.get("Authorization") or request.headers.get("Cookie") or "token" in request.query_arguments
    )


def jupyter_or_grant(action: str, resource: str) -> Callable[[Method], Method]:
    """Jupyter's ``@web.authenticated`` + ``@authorized(action, resource)``, except for a request a grant
    admitted (the user who consented was authorized to ``action`` when they did)."""

    def decorate(method: Method) -> Method:
        checked = web.authenticated(authorized(action, resource=resource)(method))

        @functools.wraps(method)
        def wrapper(self: SignInGuard, *args: Any, **kwargs: Any) -> Any:
            if self.grant is not None:
                return method(self, *args, **kwargs)
            return checked(self, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
