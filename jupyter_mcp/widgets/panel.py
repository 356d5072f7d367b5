"""``ServerPanel``: what ``%mcp`` and ``server.panel()`` show — connection, tools, live call history."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import ipywidgets as widgets

from jupyter_mcp.widgets._base import LiveBinding, PanelBox, Section
from jupyter_mcp.widgets._html import esc, frame, span
from jupyter_mcp.widgets._style import style_widget
from jupyter_mcp.widgets.connection import ConnectionView
from jupyter_mcp.widgets.format import format_count
from jupyter_mcp.widgets.history import HistoryView
from jupyter_mcp.widgets.tools_table import ToolsTable

if TYPE_CHECKING:
    from jupyter_mcp.widgets.host import ServerHost

CLIENT_POLL = 2.0
"""Seconds between re-reads of the connected clients (they come and go without calls)."""


class ServerPanel(PanelBox):
    """The server at a glance, updating live (at most 10 times a second).

    Example::

        panel = server.panel()
        panel.history.rows[0]["status"]      # the newest call's status
        panel.history.select(panel.history.rows[0]["id"])
    """

    def __init__(self, server: ServerHost) -> None:
        self.server = server
        self._lock = threading.RLock()
        self.header = widgets.HTML()
        self.connection = ConnectionView(server)
        self.tools = ToolsTable(server)
        self.history = HistoryView(server)
        self.sections = {
            "connection": Section("Connection", self.connection),
            "tools": Section("Tools", self.tools),
            "history": Section("Call history", self.history),
        }
        super().__init__([style_widget(), self.header, *self.sections.values()])
        self.add_class("jmcp")
        self.add_class("jmcp-frame")
        self.add_class("jmcp-panel")
        self._live = LiveBinding(server, self.refresh, every=CLIENT_POLL)
        self.refresh()

    def refresh(self) -> None:
        """Re-read everything (the throttle calls this; safe from any thread)."""
        with self._lock:
            self.connection.refresh()
            self.tools.refresh()
            self.history.refresh()
            self.header.value = self._header_html()
            self.sections["tools"].title = f"Tools ({len(self.tools.rows)})"
            self.sections["history"].title = f"Call history ({self.server.history.total_calls:,})"

    def _header_html(self) -> str:
        url = self.server.url
        state = f"running at <code>{esc(url)}</code>" if url else span("not running", "jmcp-muted")
        dot = '<span class="jmcp-dot jmcp-on"></span>' if url else '<span class="jmcp-dot"></span>'
        counts = " · ".join(
            [
                format_count(len(self.tools.rows), "tool"),
                format_count(len(self.connection.clients), "client"),
                format_count(self.server.history.total_calls, "call"),
            ]
        )
        return f'<div class="jmcp-head">{dot} <b>MCP server</b> {state} {span(counts, "jmcp-muted")}</div>'

    def close(self) -> None:
        self._live.close()
        super().close()

    def fallback_text(self) -> str:
        server = self.server
        clients = ", ".join(f"{c['name']} {c['version']}" for c in self.connection.clients)
        lines = [
            f"MCP server: {server.url or 'not running'}",
            f"tools: {', '.join(server.tools) or 'none'}",
            f"clients: {clients or 'none'}",
            f"calls: {server.history.total_calls}",
        ]
        recent = self.history.fallback_text()
        return "\n".join(lines + ([recent] if recent else []))

    def fallback_html(self) -> str:
        parts = [self._header_html(), self.connection.fallback_html(), self.tools.fallback_html()]
        return frame("".join([*parts, self.history.fallback_html()]), "jmcp-panel")
