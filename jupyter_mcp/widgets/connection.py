"""``ConnectionView``: the endpoint, the token (hidden until revealed), clients, and client configs."""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING

import ipywidgets as widgets
import traitlets

from jupyter_mcp.hubenv import BrowserPage, current_hub
from jupyter_mcp.widgets._base import PanelBox
from jupyter_mcp.widgets._html import copy_button, esc, frame, heading, span, table
from jupyter_mcp.widgets.approvals import ClientLimits
from jupyter_mcp.widgets.model import ClientRow, client_rows
from jupyter_mcp.widgets.page import PageProbe

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
    "It runs <code>jupyter-mcp connect</code>, which finds this kernel again after a restart.",
    "vscode": "Add to <code>.vscode/mcp.json</code> in your workspace.",
    "cursor": "Add to <code>~/.cursor/mcp.json</code> (or <code>.cursor/mcp.json</code> in a project).",
    "inspector": "Run in a terminal (Node.js ≥ 22) to list this kernel's tools.",
}


HUB_WHERE = (
    "Under JupyterHub clients reach this notebook through the hub, with a JupyterHub token you make "
    "(replace the &lt;…&gt; placeholder). Claude Desktop's entry runs <code>jupyter-mcp</code> on your own "
    "machine: <code>pip install jupyter-live-mcp</code> there first (use its full path if Claude cannot find it)."
)


def config_text(server: ServerHost, client: str, page: BrowserPage | None = None) -> str:
    """What to paste for ``client``: JSON, or the Inspector's command line."""
    config = server.client_config(client, page)
    return str(config["command"]) if client == "inspector" else json.dumps(config, indent=2)


def masked(text: str, token: str, revealed: bool) -> str:
    return text if revealed or not token else text.replace(token, MASK)


class ConnectionView(PanelBox):
    """Where clients connect. ``revealed`` shows the token (it is never in the widget state before)."""

    revealed = traitlets.Bool(False)
    client = traitlets.Unicode("claude")
    url = traitlets.Unicode(None, allow_none=True)
    clients: traitlets.List[ClientRow] = traitlets.List()
    """``ClientRow`` dicts of the connected clients."""

    def __init__(self, server: ServerHost) -> None:
        self.server = server
        self._lock = threading.RLock()
        self.endpoint = widgets.HTML()
        self.reveal = widgets.ToggleButton(description="Reveal", icon="eye", tooltip="Show the token and copy buttons")
        self.reveal.layout.width = "auto"
        self.clients_view = widgets.HTML()
        self.limits = ClientLimits(server)
        self.client_choice = widgets.ToggleButtons(options=CLIENT_CHOICES, value="claude")
        self.config_view = widgets.HTML()
        self.probe = PageProbe()
        endpoint_line = widgets.HBox([self.endpoint, self.reveal], layout=widgets.Layout(align_items="center"))
        parts = [endpoint_line, self.clients_view, self.limits, widgets.HTML(heading("Client configuration"))]
        super().__init__([*parts, self.client_choice, self.config_view, self.probe])
        self.add_class("jmcp-connection")
        widgets.link((self.reveal, "value"), (self, "revealed"))
        widgets.link((self.client_choice, "value"), (self, "client"))
        self.observe(lambda _change: self._render(), ["revealed", "client"])
        self.probe.observe(lambda _change: self._render(), ["origin", "server_root"])

    def refresh(self) -> None:
        """Re-read the URL and the connected clients (called by the owning panel's throttle)."""
        with self._lock:
            self.url = self.server.url
            self.clients = client_rows(self.server)
            self.limits.show(sorted({c["name"] for c in self.clients if c["name"]}))
            self._render()

    def _render(self) -> None:
        with self._lock:
            self.reveal.description = "Hide" if self.revealed else "Reveal"
            self.reveal.icon = "eye-slash" if self.revealed else "eye"
            self.endpoint.value = self._endpoint_html()
            self.clients_view.value = clients_html(self.clients)
            self.config_view.value = self._config_html()

    def _endpoint_html(self) -> str:
        if self.url is None:
            return span("Not serving: run %mcp start (or define a tool).", "jmcp-muted")
        token = self.server.token
        shown = esc(token) + copy_button(token) if self.revealed else esc(MASK)
        url = f"<code>{esc(self.url)}</code>{copy_button(self.url)}"
        return table(["endpoint", "token"], [[url, f"<code>{shown}</code>"]], "jmcp-endpoint")

    def _config_html(self) -> str:
        text = config_text(self.server, self.client, self.probe.page())
        token = self.server.token
        needs_token = token in text
        shown = masked(text, token, self.revealed)
        action = (
            copy_button(text) if self.revealed or not needs_token else span("Reveal the token to copy", "jmcp-muted")
        )
        return (
            f'<div class="jmcp-config"><div class="jmcp-muted">{self._where()}</div>'
            f"<pre class='jmcp-pre'>{esc(shown)}</pre>{action}</div>"
        )

    def _where(self) -> str:
        return WHERE[self.client] + (" " + HUB_WHERE if current_hub() is not None else "")

    def fallback_text(self) -> str:
        clients = ", ".join(f"{c['name']} {c['version']}" for c in self.clients) or "none"
        return f"endpoint: {self.url or 'not running'}\nclients: {clients}"

    def fallback_html(self) -> str:
        # No token here: this snapshot is saved into the notebook file.
        url = f"<code>{esc(self.url)}</code>" if self.url else "not running"
        return frame(f"<div>endpoint {url}</div>" + clients_html(self.clients))


def clients_html(rows: list[ClientRow]) -> str:
    if not rows:
        return heading("Clients") + span("No clients connected yet.", "jmcp-muted")
    cells = [[esc(r["name"]), esc(r["version"]), esc(r["era"]), esc(r["kind"]), esc(r["since"])] for r in rows]
    return heading("Clients") + table(["client", "version", "protocol era", "connection", "since"], cells)
