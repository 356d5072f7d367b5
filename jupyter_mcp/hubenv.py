"""Under JupyterHub: the public address, the route and the token a user's client config needs.

A single-user server started by a hub (and every kernel it starts) has ``JUPYTERHUB_USER`` and
``JUPYTERHUB_SERVICE_PREFIX`` in its environment. Behind the hub's proxy the request's own scheme
and host are the proxy's internal ones, so the public origin comes from ``JUPYTERHUB_PUBLIC_URL``
when the hub sets it, else from the proxy's ``X-Forwarded-Proto`` / ``X-Forwarded-Host`` (the
server extension) or from the browser showing the notebook (the kernel's server panel). The
server's own token is not what a client should use: a user makes a hub token with access to their
server only. And the client runs on the user's own machine, so its ``jupyter-mcp`` is that
machine's, not the hub's.

Shared by the server extension and the kernel; standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from jupyter_mcp.clientconfig import Target, server_name, url_target
from jupyter_mcp.routes import kernel_route, notebook_route, notebook_under, url_join

REMOTE_COMMAND = ("jupyter-mcp",)
"""How a desktop client on the user's own machine starts the bridge (installed there with pip)."""
UNKNOWN_ORIGIN = "<the JupyterHub address>"


@dataclass(frozen=True)
class Hub:
    user: str
    prefix: str
    """This user's server's prefix on the hub (``JUPYTERHUB_SERVICE_PREFIX``, e.g. ``/user/alice/``)."""
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
        page = origin + url_join(self.base_url, "hub/token")
        return f"<a JupyterHub token from {page} with the scope {self.scope}>"


@dataclass(frozen=True)
class BrowserPage:
    """Where a browser shows the notebook: what only the browser knows about the hub's address."""

    origin: str
    """``location.origin`` of the JupyterLab (or Notebook) page, e.g. ``https://hub.example.org``."""
    server_root: str
    """The Jupyter server's root directory (JupyterLab's ``serverRoot`` page option); notebook routes
    are relative to it."""
    base_url: str = ""
    """The Jupyter server's base URL as the page sees it (its ``baseUrl`` page option, e.g. ``/user/alice/``);
    empty on a page that is not Jupyter's own (VS Code, Colab)."""


def current_hub(environ: Mapping[str, str] = os.environ) -> Hub | None:
    """The hub this server (or kernel) runs under, or ``None`` outside JupyterHub."""
    user, prefix = environ.get("JUPYTERHUB_USER"), environ.get("JUPYTERHUB_SERVICE_PREFIX")
    if not user or not prefix:
        return None
    public_url = environ.get("JUPYTERHUB_PUBLIC_URL") or None
    return Hub(user, prefix, environ.get("JUPYTERHUB_BASE_URL", "/"), public_url)


def hub_target(hub: Hub, notebook_path: str | None, kernel_id: str, page: BrowserPage | None = None) -> Target:
    """A kernel's server as a client outside reaches it: the hub's route, a hub token, the user's own
    ``jupyter-mcp``. The origin is the hub's public URL, else the browser's, else a placeholder."""
    origin = hub.origin(None, None, page.origin if page else UNKNOWN_ORIGIN)
    url = origin + hub_route(hub, notebook_path, kernel_id, page)
    token = hub.token_placeholder(origin)
    name = server_name(notebook_path, kernel_id)
    return url_target(name, url, {"Authorization": f"token {token}"}, token, command=REMOTE_COMMAND)


def hub_route(hub: Hub, notebook_path: str | None, kernel_id: str, page: BrowserPage | None) -> str:
    """The notebook's route (it follows kernel restarts) when the notebook lies under the server's root
    (the browser's ``serverRoot``, else the home directory, a spawner's default); else the kernel's."""
    if notebook_path:
        root = Path(os.path.expanduser(page.server_root)) if page and page.server_root else Path.home()
        path = notebook_under(notebook_path, root)
        if path is not None:
            return notebook_route(hub.prefix, path)
    return kernel_route(hub.prefix, kernel_id)
