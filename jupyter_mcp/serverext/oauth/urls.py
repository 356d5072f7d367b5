"""Where the pieces of sign-in live, for the origin a client reached (``Site``).

- the issuer (authorization server) is ``<base_url>mcp/oauth``, its endpoints below it;
- each MCP route is a protected resource of its own (RFC 8707: a token is good for one route), its
  metadata (RFC 9728) at ``<base_url>.well-known/oauth-protected-resource/<route>``, which the 401's
  ``resource_metadata`` names; the RFC's own place, ``/.well-known/oauth-protected-resource<path>``
  at the origin's root, answers too when the server owns the root (no JupyterHub proxy in front);
- the authorization server's metadata answers at ``<issuer>/.well-known/openid-configuration`` and
  ``<issuer>/.well-known/oauth-authorization-server`` (path-appended: the form that reaches a
  single-user server behind JupyterHub) and at the root's path-inserted forms (RFC 8414).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from jupyter_mcp.routes import url_join

OAUTH = "mcp/oauth"
PROTECTED_RESOURCE = ".well-known/oauth-protected-resource"
AUTHORIZATION_SERVER = ".well-known/oauth-authorization-server"
OPENID = ".well-known/openid-configuration"
CONSENT = "consent"

_MCP_ROUTE = re.compile(r"mcp(/(scope|kernels|notebooks)/.+)?/?")
"""The MCP routes, relative to the base URL (``/mcp/oauth/…`` is not one: ``oauth`` is no route kind)."""


def is_mcp_route(relative: str) -> bool:
    """Whether a path below the base URL (unquoted, no leading slash) is one of the MCP routes."""
    return _MCP_ROUTE.fullmatch(relative) is not None


def describe_route(relative: str) -> str:
    """What an MCP route (below the base URL, unquoted) reaches, in words."""
    kind, _, rest = relative.strip("/").removeprefix("mcp").lstrip("/").partition("/")
    return {
        "": "the tools of all your notebooks",
        "scope": f"the tools of the notebooks in {rest}",
        "notebooks": f"the tools of notebook {rest}",
        "kernels": f"the tools of kernel {rest}",
    }.get(kind, relative)


def same_resource(a: str, b: str) -> bool:
    """Whether two resource URLs name the same route: case of scheme and host, percent-encoding and a final
    slash aside."""
    return _resource_key(a) == _resource_key(b)


def _resource_key(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower(), unquote(parts.path).rstrip("/")


@dataclass(frozen=True)
class Site:
    """This Jupyter server as one client reaches it: ``origin`` (scheme://host[:port]) and ``base_url``."""

    origin: str
    base_url: str

    @property
    def issuer(self) -> str:
        return self.origin + url_join(self.base_url, OAUTH)

    def endpoint(self, name: str) -> str:
        """A path (no origin) below the issuer: ``authorize``, ``token``, ``consent``..."""
        return url_join(self.base_url, OAUTH, name)

    def resource(self, route_path: str) -> str:
        """The resource URL of the MCP route at ``route_path`` (a request's path, base URL included)."""
        return self.origin + route_path

    def resource_metadata(self, route_path: str) -> str:
        """Where the route's protected-resource metadata answers below the base URL (what the 401 names)."""
        return self.origin + url_join(self.base_url, PROTECTED_RESOURCE, self.relative(route_path))

    def relative(self, path: str) -> str:
        """``path`` without the base URL (and without a leading slash)."""
        base = self.base_url.rstrip("/")
        if base and path.startswith(base + "/"):
            path = path[len(base) :]
        return path.lstrip("/")

    def owns_resource(self, resource: str) -> bool:
        """Whether ``resource`` is one of this site's MCP routes (origin and path)."""
        parts = urlsplit(resource)
        if parts.fragment or f"{parts.scheme}://{parts.netloc}".lower() != self.origin.lower():
            return False
        base = unquote(self.base_url).rstrip("/")
        path = unquote(parts.path)
        return path.startswith(base + "/") and is_mcp_route(path[len(base) + 1 :])
