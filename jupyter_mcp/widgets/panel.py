"""``ServerPanel``: what ``%mcp`` and ``server.panel()`` show — the server, waiting calls, the connection,
tools, resources, prompts and the live call history — as data and behaviour.

It syncs a ``PanelState`` (``shapes.py``), one trait per part so that a refresh sends only the parts
that changed, in one message; the browser draws it (``labextension/src/ui/panel.ts``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from jupyter_mcp.shapes.views import ComponentRow, Header
from jupyter_mcp.widgets import snapshot
from jupyter_mcp.widgets._view import Action, LiveBinding, View, approval_actions
from jupyter_mcp.widgets.connection import ConnectionState
from jupyter_mcp.widgets.format import format_count
from jupyter_mcp.widgets.history import HistoryState
from jupyter_mcp.widgets.model import KINDS, client_rows, component_rows, waiting_for

if TYPE_CHECKING:
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.widgets.host import ServerHost

CLIENT_POLL = 2.0
"""Seconds between re-reads of the connected clients (they come and go without calls)."""


class ServerPanel(View):
    """The server at a glance, updating live (at most 10 times a second).

    Example::

        panel = server.panel()
        panel.history.rows[0]["status"]          # the newest call's status
        panel.history.select(panel.history.rows[0]["id"])
        panel.set_paused(True)                    # the pause switch
        panel.set_enabled("tool", "add", False)   # a tool's "served" box
    """

    header = traitlets.Any({}).tag(sync=True)
    connection_state = traitlets.Any({}).tag(sync=True)
    clients = traitlets.Any([]).tag(sync=True)
    components = traitlets.Any({}).tag(sync=True)
    history_state = traitlets.Any({}).tag(sync=True)
    detail = traitlets.Any(None).tag(sync=True)
    pending = traitlets.Any([]).tag(sync=True)
    questions = traitlets.Any([]).tag(sync=True)

    def __init__(self, server: ServerHost) -> None:
        super().__init__(view="panel")
        self.server = server
        self.connection = ConnectionState(server)
        self.history = HistoryState(server, self._now)
        self._live = LiveBinding(server, self.refresh, every=CLIENT_POLL)
        self.refresh()

    def actions(self) -> dict[str, Action]:
        history = self.history
        return {
            "pause": lambda paused: self.set_paused(bool(paused)),
            "enable": lambda kind, key, enabled: self.set_enabled(kind, key, bool(enabled)),
            "limit": lambda client, read_only: self.limit_client(str(client), bool(read_only)),
            "reveal": lambda revealed: self.reveal(bool(revealed)),
            "client": lambda client: self._connection_change(lambda: self.connection.pick(str(client))),
            "page": lambda origin, server_root, base_url="": self._connection_change(
                lambda: self.connection.probe.heard(origin, server_root, base_url)
            ),
            "filter": history.set_filter,
            "more": history.more,
            "clear": history.clear,
            "select": history.select,
            "keep": history.keep,
            **approval_actions(self.server),
        }

    def refresh(self) -> None:
        """Re-read everything (the throttle calls this; safe from any thread)."""
        with self._lock:
            listed, detail = self.history.read()
            components: dict[str, list[ComponentRow]] = {kind: component_rows(self.server, kind) for kind in KINDS}
            clients = client_rows(self.server)
            pending, questions = waiting_for(self.server)
            with self.hold_sync():  # the parts that changed go in one message
                self.components = components
                self.clients = clients
                self.header = self._header(components, len(clients))
                self.connection_state = self.connection.read()
                self.history_state = listed
                self.detail = detail
                self.pending, self.questions = pending, questions

    def _header(self, components: dict[str, list[ComponentRow]], clients: int) -> Header:
        counts = [format_count(len(rows), kind) for kind, rows in components.items() if rows]
        counts += [format_count(clients, "client"), format_count(self.server.history.total_calls, "call")]
        endpoint = self.server.endpoint()
        return Header(
            url=self.server.url,
            channel=endpoint is not None and not endpoint.own,
            paused=self.server.approvals.paused,
            counts=" · ".join(counts),
            pausable=bool(components["tool"]),
        )

    def _now(self) -> None:
        self._live.throttle.flush()

    # ---- what the panel's controls do ------------------------------------------------------------

    def set_paused(self, paused: bool) -> None:
        """The kill switch: refuse every client call of a tool (and cancel running ones), or serve again."""
        if paused != self.server.approvals.paused:
            (self.server.pause if paused else self.server.resume)()
        self._now()

    def set_enabled(self, kind: str, key: str, enabled: bool) -> None:
        """A component's "served" box."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        registry = self.server.registry_of(_kind(kind))
        item = registry.all().get(key)
        if item is not None and registry.is_visible(item) != enabled:
            (registry.enable if enabled else registry.disable)(names={key})
        self._now()

    def limit_client(self, client: str, read_only: bool) -> None:
        """A client's read-only box."""
        self.server.approvals.limit_client(client, read_only=read_only)
        self._now()

    def reveal(self, revealed: bool) -> None:
        """Show the token (and configs that hold it) in the panel, or hide it again."""
        self._connection_change(lambda: setattr(self.connection, "revealed", revealed))

    def _connection_change(self, change: Any) -> None:
        with self._lock:
            change()
            self.connection_state = self.connection.read()

    def close(self) -> None:
        self._live.close()
        super().close()

    def fallback_text(self) -> str:
        return snapshot.panel_text(self.server, self.clients, self.pending, self.questions, self.history.rows)

    def fallback_html(self) -> str:
        return snapshot.panel_html(self.header, self.clients, self.components, self.history.rows, self.history.total)


def _kind(kind: str) -> Kind:
    return "resource" if kind == "resource" else "prompt" if kind == "prompt" else "tool"
