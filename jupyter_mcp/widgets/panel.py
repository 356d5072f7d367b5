"""``ServerPanel``: what ``%mcp`` and ``server.panel()`` show — connection, tools, resources, prompts,
live call history."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import ipywidgets as widgets

from jupyter_mcp.widgets._base import LiveBinding, PanelBox, Section
from jupyter_mcp.widgets._html import badge, esc, frame, span
from jupyter_mcp.widgets._style import style_widget
from jupyter_mcp.widgets.approvals import ApprovalsView, PauseSwitch, pending_text
from jupyter_mcp.widgets.components_table import ComponentsTable
from jupyter_mcp.widgets.connection import ConnectionView
from jupyter_mcp.widgets.format import format_count
from jupyter_mcp.widgets.history import HistoryView

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
        self.pause = PauseSwitch(server)
        self.approvals = ApprovalsView(server)
        self.connection = ConnectionView(server)
        self.tools = ComponentsTable(server, "tool")
        self.resources = ComponentsTable(server, "resource")
        self.prompts = ComponentsTable(server, "prompt")
        self.history = HistoryView(server)
        self.sections = {
            "connection": Section("Connection", self.connection),
            "tools": Section("Tools", self.tools),
            "resources": Section("Resources", self.resources),
            "prompts": Section("Prompts", self.prompts),
            "history": Section("Call history", self.history),
        }
        top = widgets.HBox([self.header, self.pause], layout=widgets.Layout(align_items="center"))
        super().__init__([style_widget(), top, self.approvals, *self.sections.values()])
        self.add_class("jmcp")
        self.add_class("jmcp-frame")
        self.add_class("jmcp-panel")
        self._live = LiveBinding(server, self.refresh, every=CLIENT_POLL)
        self._stop_approvals = server.approvals.changes.add(self._live.throttle.mark)
        self.refresh()

    def refresh(self) -> None:
        """Re-read everything (the throttle calls this; safe from any thread)."""
        with self._lock:
            self.connection.refresh()
            for table in self.tables:
                table.refresh()
                self.sections[f"{table.kind}s"].title = f"{table.kind.capitalize()}s ({len(table.rows)})"
            self.history.refresh()
            self.header.value = self._header_html()
            self.sections["history"].title = f"Call history ({self.server.history.total_calls:,})"

    @property
    def tables(self) -> tuple[ComponentsTable, ...]:
        return (self.tools, self.resources, self.prompts)

    def _header_html(self) -> str:
        url = self.server.url
        state = f"running at <code>{esc(url)}</code>" if url else span("not running", "jmcp-muted")
        dot = '<span class="jmcp-dot jmcp-on"></span>' if url else '<span class="jmcp-dot"></span>'
        counts = " · ".join(
            [
                *(
                    format_count(len(table.rows), table.kind)
                    for table in self.tables
                    if table.rows or table is self.tools
                ),
                format_count(len(self.connection.clients), "client"),
                format_count(self.server.history.total_calls, "call"),
            ]
        )
        paused = badge("paused", "destructive", "Client calls are refused") if self.server.approvals.paused else ""
        paused = f" {paused}" if paused else ""
        return f'<div class="jmcp-head">{dot} <b>MCP server</b> {state}{paused} {span(counts, "jmcp-muted")}</div>'

    def close(self) -> None:
        self._live.close()
        self._stop_approvals()
        self.approvals.close()
        self.pause.close()
        super().close()

    def fallback_text(self) -> str:
        server = self.server
        clients = ", ".join(f"{c['name']} {c['version']}" for c in self.connection.clients)
        lines = [
            f"MCP server: {server.url or 'not running'}",
            f"tools: {', '.join(server.tools) or 'none'}",
            *([f"resources: {', '.join(server.resources)}"] if server.resources else []),
            *([f"prompts: {', '.join(server.prompts)}"] if server.prompts else []),
            f"clients: {clients or 'none'}",
            f"calls: {server.history.total_calls}",
            *(["PAUSED by the notebook user: client calls are refused"] if server.approvals.paused else []),
            *pending_text(server),
        ]
        recent = self.history.fallback_text()
        return "\n".join(lines + ([recent] if recent else []))

    def fallback_html(self) -> str:
        parts = [self._header_html(), self.connection.fallback_html(), *(t.fallback_html() for t in self.tables)]
        return frame("".join([*parts, self.history.fallback_html()]), "jmcp-panel")
