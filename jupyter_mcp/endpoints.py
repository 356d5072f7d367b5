"""Where clients connect to a kernel's tool server (``Endpoint``): its own URL, or, when the kernel
opens no port (``JupyterMCP.transport = "kernel"``), its notebook's route on the Jupyter server, which
carries MCP over the kernel's own messaging (the kernel channel).

The kernel knows its notebook's file, not the Jupyter server's address, root or token. The browser
showing the notebook knows the address and the root (``BrowserPage``, which the server panel hears):
with it a route is exact; without it, it reads ``<jupyter url>/mcp/notebooks/<path>``. Shared by the
kernel and its views; standard library only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from jupyter_mcp.clientconfig import Target, url_target
from jupyter_mcp.hubenv import BrowserPage
from jupyter_mcp.routes import notebook_under, url_join

JUPYTER_URL = "<jupyter url>"
"""Stands for the Jupyter server's address where the kernel cannot tell it."""
JUPYTER_TOKEN = "<your Jupyter server's token>"  # noqa: S105 - a placeholder, not a secret
"""What goes where a Jupyter server's token belongs (the kernel never knows it)."""
SOME_NOTEBOOK = "<path>"


@dataclass(frozen=True)
class Endpoint:
    """Where clients connect to one kernel's tool server.

    Example::

        Endpoint("http://127.0.0.1:8123/mcp").phrase()   # 'at http://127.0.0.1:8123/mcp'
    """

    url: str
    """The kernel's own ``http://127.0.0.1:<port>/mcp``, or its notebook's route on the Jupyter server."""
    every: str = ""
    """For a route: the Jupyter server's ``/mcp``, every notebook's tools at one address."""

    @property
    def own(self) -> bool:
        """Whether clients connect to the kernel itself (with its token), not through a Jupyter server."""
        return not self.every

    def phrase(self) -> str:
        """How clients reach it, to follow "live" or "running"."""
        if self.own:
            return f"at {self.url}"
        return f"over the kernel's channel, through the Jupyter server at {self.url} (every notebook: {self.every})"


def channel_endpoint(notebook_path: str | None, kernel_id: str, page: BrowserPage | None = None) -> Endpoint:
    """The Jupyter server's routes to a kernel with no port of its own: its notebook's (it follows kernel
    restarts), else its kernel's; exact when ``page`` (the browser showing the notebook) is known."""
    jupyter = page if page is not None and page.base_url else None  # a page of Jupyter's own, not VS Code's
    origin, base = (jupyter.origin, jupyter.base_url) if jupyter is not None else (JUPYTER_URL, "/")
    if notebook_path:
        root = jupyter.server_root if jupyter is not None else ""
        path = notebook_under(notebook_path, Path(os.path.expanduser(root))) if root else None
        route = url_join(base, "mcp/notebooks", quote(path, safe="/") if path else SOME_NOTEBOOK)
    else:
        route = url_join(base, "mcp/kernels", quote(kernel_id, safe=""))
    return Endpoint(origin + route, every=origin + url_join(base, "mcp"))


def channel_target(endpoint: Endpoint, name: str) -> Target:
    """A client's target for a route: the Jupyter server's token (a placeholder: the kernel never knows it)."""
    return url_target(name, endpoint.url, {"Authorization": f"token {JUPYTER_TOKEN}"}, JUPYTER_TOKEN)
