"""Under JupyterHub: the public address and the token a user's client config needs.

A single-user server started by a hub has ``JUPYTERHUB_USER`` and ``JUPYTERHUB_SERVICE_PREFIX``
in its environment. Behind the hub's proxy the request's own scheme and host are the proxy's
internal ones, so the public origin comes from ``JUPYTERHUB_PUBLIC_URL`` when the hub sets it, else
from the proxy's ``X-Forwarded-Proto`` / ``X-Forwarded-Host``. The server's own token is not what a
client should use: a user makes a hub token with access to their server only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from jupyter_server.utils import url_path_join


@dataclass(frozen=True)
class Hub:
    user: str
    base_url: str
    """The hub's base URL (``JUPYTERHUB_BASE_URL``, usually ``/``)."""
    public_url: str | None
    """``JUPYTERHUB_PUBLIC_URL`` (the user's server's public URL), when the hub is configured with one."""

    @property
    def scope(self) -> str:
        return f"access:servers!user={self.user}"

    def origin(self, forwarded_proto: str | None, forwarded_host: str | None, fallback: str) -> str:
        """Scheme and host a client outside uses to reach the hub."""
        if self.public_url:
            parts = urlsplit(self.public_url)
            return f"{parts.scheme}://{parts.netloc}"
        if forwarded_host:
            scheme = (forwarded_proto or "http").split(",")[0].strip()
            return f"{scheme}://{forwarded_host.split(',')[0].strip()}"
        return fallback

    def token_placeholder(self, origin: str) -> str:
        """What goes where the token belongs: where to make one, and with which scope."""
        page = origin + url_path_join(self.base_url, "hub/token")
        return f"<a JupyterHub token from {page} with the scope {self.scope}>"


def current_hub(environ: Mapping[str, str] = os.environ) -> Hub | None:
    """The hub this server runs under, or ``None`` outside JupyterHub."""
    user, prefix = environ.get("JUPYTERHUB_USER"), environ.get("JUPYTERHUB_SERVICE_PREFIX")
    if not user or not prefix:
        return None
    return Hub(user, environ.get("JUPYTERHUB_BASE_URL", "/"), environ.get("JUPYTERHUB_PUBLIC_URL") or None)
