"""``SignIn``: the extension's sign-in service, and the SDK's apps it answers with, per site.

For each origin a client reaches (``Site``), the SDK's own routes (``create_auth_routes``: authorize,
token, register, revoke) and metadata documents (``build_metadata``, ``create_protected_resource_routes``)
are built once and kept. OAuth needs TLS except on loopback (the SDK's ``validate_issuer_url``): an origin
that is neither gets no sign-in, and its MCP routes say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mcp.server.auth.handlers.metadata import MetadataHandler
from mcp.server.auth.routes import (
    build_metadata,
    cors_middleware,
    create_auth_routes,
    create_protected_resource_routes,
    validate_issuer_url,
)
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from pydantic import AnyHttpUrl
from starlette.routing import Route
from starlette.types import ASGIApp
from tornado.httputil import HTTPServerRequest

from jupyter_mcp.serverext.oauth.authority import Authority, Lifetimes
from jupyter_mcp.serverext.oauth.documents import MetadataDocuments
from jupyter_mcp.serverext.oauth.provider import JupyterOAuthProvider
from jupyter_mcp.serverext.oauth.store import SCOPES, Store
from jupyter_mcp.serverext.oauth.urls import Site

RESOURCE_NAME = "Jupyter notebooks' MCP tools"
_SITES = 32
"""Origins whose apps are kept (a server is reached by a few names: localhost, 127.0.0.1, its host name)."""


class NoSignIn(ValueError):
    """Sign-in is not offered at this origin (plain HTTP to a host that is not loopback)."""


@dataclass
class _SiteApps:
    endpoints: dict[str, ASGIApp]
    metadata: ASGIApp
    resources: dict[str, ASGIApp] = field(default_factory=dict)


class SignIn:
    """Sign-in with Jupyter for this server: the authority and the SDK's apps for each site."""

    def __init__(
        self,
        store_path: Path,
        *,
        base_url: str,
        public_url: str = "",
        lifetimes: Lifetimes | None = None,
        registration: bool = True,
        documents: MetadataDocuments | None = None,
    ) -> None:
        self.authority = Authority(Store(store_path), lifetimes)
        self.base_url = base_url
        self.public_url = public_url.rstrip("/")
        self.registration = registration
        self.documents = documents
        self._sites: dict[str, _SiteApps] = {}

    def close(self) -> None:
        self.authority.store.close()

    def site(self, request: HTTPServerRequest) -> Site:
        """This server as the client of ``request`` reaches it (``public_url`` wins when it is set)."""
        return Site(self.public_url or f"{request.protocol}://{request.host}", self.base_url)

    def endpoint(self, site: Site, name: str) -> ASGIApp:
        """The SDK's app for ``authorize``, ``token``, ``register`` or ``revoke`` at ``site``."""
        app = self._apps(site).endpoints.get(name)
        if app is None:
            raise NoSignIn(f"{name} is not offered here")
        return app

    def metadata(self, site: Site) -> ASGIApp:
        """The authorization server's metadata (RFC 8414; also served as OpenID discovery)."""
        return self._apps(site).metadata

    def resource_metadata(self, site: Site, route_path: str) -> ASGIApp:
        """The protected-resource metadata (RFC 9728) of the MCP route at ``route_path``."""
        apps = self._apps(site)
        resource = site.resource(route_path)
        if resource not in apps.resources:
            routes = create_protected_resource_routes(
                AnyHttpUrl(resource), [AnyHttpUrl(site.issuer)], scopes_supported=SCOPES, resource_name=RESOURCE_NAME
            )
            apps.resources[resource] = _app(routes[0])
        return apps.resources[resource]

    def offered(self, site: Site) -> bool:
        try:
            self._apps(site)
        except NoSignIn:
            return False
        return True

    def _apps(self, site: Site) -> _SiteApps:
        found = self._sites.get(site.origin)
        if found is None:
            found = self._build(site)
            if len(self._sites) >= _SITES:
                self._sites.pop(next(iter(self._sites)))
            self._sites[site.origin] = found
        return found

    def _build(self, site: Site) -> _SiteApps:
        issuer = AnyHttpUrl(site.issuer)
        try:
            validate_issuer_url(issuer)
        except ValueError as error:
            raise NoSignIn(f"sign-in with Jupyter needs HTTPS at {site.origin}: {error}") from None
        provider = JupyterOAuthProvider(self.authority, site, self.documents, self.registration)
        registration = ClientRegistrationOptions(enabled=self.registration, valid_scopes=SCOPES, default_scopes=SCOPES)
        revocation = RevocationOptions(enabled=True)
        routes = create_auth_routes(
            provider, issuer, client_registration_options=registration, revocation_options=revocation
        )
        endpoints = {
            route.path.rsplit("/", 1)[-1]: _app(route) for route in routes if "/.well-known/" not in route.path
        }
        metadata = build_metadata(issuer, None, registration, revocation)
        metadata.client_id_metadata_document_supported = self.documents is not None
        metadata.authorization_response_iss_parameter_supported = True
        return _SiteApps(endpoints, cors_middleware(MetadataHandler(metadata).handle, ["GET", "OPTIONS"]))


def _app(route: Route) -> ASGIApp:
    """A route's app, with the route's own method check (405)."""
    return route.handle
