"""``ApprovalsView``: client calls waiting for the notebook user, with Allow / Allow for N minutes / Deny.

Shown at the top of the server panel (every waiting call, plus the pause switch) and in a tool's
card (that tool's waiting calls). A view: the state lives in ``server.approvals``; this re-renders
when it changes (throttled) and turns clicks into ``allow`` / ``deny``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from jupyter_mcp.widgets._html import esc, span
from jupyter_mcp.widgets._throttle import Throttle

if TYPE_CHECKING:
    from jupyter_mcp.tools.approvals import PendingCall
    from jupyter_mcp.widgets.host import ServerHost

DEFAULT_MINUTES = 10


class ApprovalsView(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped
    """The waiting calls (of one ``tool``, or all); ``rows`` maps call id -> its ``PendingRow``.

    Example::

        view = ApprovalsView(server)
        view.rows[call_id].allow_button.click()
    """

    def __init__(self, server: ServerHost, tool: str | None = None) -> None:
        super().__init__()
        self.server, self.tool = server, tool
        self.rows: dict[str, PendingRow] = {}
        self._lock = threading.Lock()
        self.add_class("jmcp-approvals")
        self._throttle = Throttle(self.refresh)
        self._stop = server.approvals.changes.add(self._throttle.mark)
        self.refresh()

    def refresh(self) -> None:
        """Show a row per waiting call (safe from any thread)."""
        with self._lock:
            waiting = [p for p in self.server.approvals.pending if self.tool is None or p.tool == self.tool]
            self.rows = {p.id: self.rows.get(p.id) or PendingRow(p) for p in waiting}
            self.children = list(self.rows.values())
            self.layout.display = None if self.rows else "none"

    def close(self) -> None:
        self._stop()
        super().close()


class PendingRow(widgets.VBox):  # type: ignore[misc]
    """One waiting call: who asks, what with, and the three answers."""

    def __init__(self, pending: PendingCall) -> None:
        self.pending = pending
        self.summary = widgets.HTML(_summary_html(pending))
        self.allow_button = _button("Allow", "success", lambda: pending.allow(via="panel"))
        self.minutes = widgets.BoundedIntText(DEFAULT_MINUTES, min=1, max=1440, layout=widgets.Layout(width="5em"))
        self.allow_for_button = _button(
            "Allow this client for", "info", lambda: pending.allow(minutes=self.minutes.value, via="panel")
        )
        self.reason = widgets.Text(placeholder="reason (the client sees it)", layout=widgets.Layout(width="16em"))
        self.deny_button = _button("Deny", "danger", lambda: pending.deny(self.reason.value, via="panel"))
        answers = [self.allow_button, self.allow_for_button, self.minutes, widgets.Label("min"), self.reason]
        super().__init__([self.summary, widgets.HBox([*answers, self.deny_button])])
        self.add_class("jmcp-pending")


def _button(label: str, style: str, action: Callable[[], None]) -> widgets.Button:
    button = widgets.Button(description=label, button_style=style, layout=widgets.Layout(width="auto"))

    def clicked(_: Any) -> None:
        button.disabled = True  # one answer per click; the row goes once the call moves on
        action()

    button.on_click(clicked)
    return button


def _summary_html(pending: PendingCall) -> str:
    client = pending.client or "a client"
    arguments = json.dumps(pending.arguments, ensure_ascii=False)
    if len(arguments) > 300:
        arguments = arguments[:299] + "…"
    return (
        f"<b>{esc(client)}</b> wants to call <code>{esc(pending.tool)}</code> "
        f"<code>{esc(arguments)}</code> {span('waiting for your approval', 'jmcp-muted')}"
    )


def pending_text(server: ServerHost) -> list[str]:
    """Lines for text fallbacks: one per waiting call."""
    return [
        f"waiting for approval: {p.tool}({json.dumps(p.arguments, ensure_ascii=False)}) from {p.client or 'a client'}"
        for p in server.approvals.pending
    ]


class PauseSwitch(widgets.ToggleButton):  # type: ignore[misc]
    """The kill switch: down = every client call refused, running async ones cancelled."""

    def __init__(self, server: ServerHost) -> None:
        super().__init__(value=server.approvals.paused, layout=widgets.Layout(width="auto"))
        self.server = server
        self._show()
        self.observe(self._toggled, "value")
        self._stop = server.approvals.changes.add(self._follow)

    def _toggled(self, change: dict[str, Any]) -> None:
        if change["new"] != self.server.approvals.paused:
            (self.server.pause if change["new"] else self.server.resume)()
        self._show()

    def _follow(self) -> None:
        self.value = self.server.approvals.paused  # %mcp pause, the lab, another panel

    def _show(self) -> None:
        self.description = "Paused: resume tools" if self.value else "Pause all tools"
        self.icon = "play" if self.value else "pause"
        self.button_style = "danger" if self.value else ""
        self.tooltip = "Client calls are refused until you resume" if self.value else "Stop every tool at once"

    def close(self) -> None:
        self._stop()
        super().close()
