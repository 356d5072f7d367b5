"""The server panel's connection section, as data: the endpoint, the token (only once revealed), and
client configs; and what the browser tells the kernel about where it shows the notebook.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from jupyter_mcp.endpoints import JUPYTER_URL, SOME_NOTEBOOK, Endpoint
from jupyter_mcp.hubenv import BrowserPage, current_hub
from jupyter_mcp.shapes.views import Connection

if TYPE_CHECKING:
    from jupyter_mcp.widgets.host import ServerHost

MASK = "••••••••••••"
CLIENT_CHOICES = (
    ("Claude Desktop", "claude"),
    ("VS Code", "vscode"),
    ("Cursor", "cursor"),
    ("MCP Inspector", "inspector"),
)
WHERE = {
    "claude": "Add to claude_desktop_config.json (Settings → Developer → Edit Config). "
    "It runs `jupyter-mcp connect`, which finds this kernel again after a restart.",
    "vscode": "Add to `.vscode/mcp.json` in your workspace.",
    "cursor": "Add to `~/.cursor/mcp.json` (or `.cursor/mcp.json` in a project).",
    "inspector": "Run in a terminal (Node.js ≥ 22) to list this kernel's tools.",
}
HUB_WHERE = (
    "Under JupyterHub clients reach this notebook through the hub, with a JupyterHub token you make "
    "(replace the <…> placeholder). Claude Desktop's entry runs `jupyter-mcp` on your own "
    "machine: `pip install jupyter-live-mcp` there first (use its full path if Claude cannot find it)."
)


def config_text(server: ServerHost, client: str, page: BrowserPage | None = None) -> str:
    """What to paste for ``client``: JSON, or the Inspector's command line."""
    config = server.client_config(client, page)
    return str(config["command"]) if client == "inspector" else json.dumps(config, indent=2)


def masked(text: str, token: str, revealed: bool) -> str:
    return text if revealed or not token else text.replace(token, MASK)


class PageProbe:
    """What the browser showing the notebook knows and the kernel does not.

    Under JupyterHub the kernel cannot tell the hub's public address (the proxy sits in front of the
    user's server), but the page can: the panel's front end sends ``location.origin`` and JupyterLab's
    ``serverRoot`` once it is shown. ``page()`` is ``None`` until then.
    """

    def __init__(self) -> None:
        self.origin = ""
        self.server_root = ""
        self.base_url = ""

    def heard(self, origin: str, server_root: str, base_url: str = "") -> None:
        self.origin, self.server_root, self.base_url = str(origin), str(server_root), str(base_url)

    def page(self) -> BrowserPage | None:
        return BrowserPage(self.origin, self.server_root, self.base_url) if self.origin else None


class ConnectionState:
    """Where clients connect. ``revealed`` shows the token (it is never in the widget state before)."""

    def __init__(self, server: ServerHost) -> None:
        self.server = server
        self.revealed = False
        self.client = "claude"
        self.probe = PageProbe()

    def pick(self, client: str) -> None:
        if client not in WHERE:
            raise ValueError(f"unknown client {client!r}")
        self.client = client

    def read(self) -> Connection:
        page = self.probe.page()
        endpoint = self.server.endpoint(page)
        own = endpoint is not None and endpoint.own
        token = self.server.token if own else ""  # through a Jupyter server, clients present its token instead
        text = config_text(self.server, self.client, page) if endpoint is not None else ""
        copyable = self.revealed or not token or token not in text
        notes = [WHERE[self.client], HUB_WHERE if current_hub() is not None else ""]
        return Connection(
            url=endpoint.url if endpoint is not None else None,
            channel=channel_text(endpoint) if endpoint is not None and not own else "",
            token=token if self.revealed and own else None,
            revealed=self.revealed,
            client=self.client,
            choices=[[label, kind] for label, kind in CLIENT_CHOICES],
            where=" ".join(note for note in notes if note),
            config=masked(text, token, self.revealed),
            copy=text if copyable else None,
        )


def channel_text(endpoint: Endpoint) -> str:
    """What the panel says of a kernel with no port: how clients get to it, and what to fill in."""
    said = (
        'This kernel opens no port (`JupyterMCP.transport = "kernel"`): clients connect through the Jupyter '
        f"server, which carries MCP over the kernel's channel, with the Jupyter server's token. Every notebook's "
        f"tools are at `{endpoint.every}`."
    )
    if JUPYTER_URL in endpoint.url or SOME_NOTEBOOK in endpoint.url:
        said += " The MCP Tools sidebar shows these addresses filled in."
    return said
