"""``ApprovalsView``: client calls waiting for the notebook user, with Allow / Allow for N minutes / Deny.

Shown at the top of the server panel (every waiting call, plus the pause switch) and in a tool's
card (that tool's waiting calls). A view: the state lives in ``server.approvals``; this re-renders
when it changes (throttled) and turns clicks into ``allow`` / ``deny``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from jupyter_mcp.widgets._html import esc, span
from jupyter_mcp.widgets._throttle import Throttle
from jupyter_mcp.widgets.tryit import TryItForm, TryTarget

if TYPE_CHECKING:
    from jupyter_mcp.tools.approvals.waits import NotebookQuestion, PendingCall
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
        self.questions: dict[str, QuestionRow] = {}
        self._lock = threading.Lock()
        self.add_class("jmcp-approvals")
        self._throttle = Throttle(self.refresh)
        self._stop = server.approvals.changes.add(self._throttle.mark)
        self.refresh()

    def refresh(self) -> None:
        """Show a row per waiting call and per question (safe from any thread)."""
        with self._lock:
            approvals = self.server.approvals
            waiting = [p for p in approvals.pending if self.tool is None or p.tool == self.tool]
            asking = [q for q in approvals.questions if self.tool is None or q.tool == self.tool]
            self.rows = {p.id: self.rows.get(p.id) or PendingRow(p) for p in waiting}
            self.questions = {q.id: self.questions.get(q.id) or QuestionRow(q) for q in asking}
            self.children = [*self.rows.values(), *self.questions.values()]
            self.layout.display = None if self.children else "none"

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


class QuestionRow(widgets.VBox):  # type: ignore[misc]
    """A tool's question (``ctx.ask_notebook_user``): its message, a form from its schema, Send and Decline."""

    def __init__(self, question: NotebookQuestion) -> None:
        self.question = question

        def send(values: dict[str, Any]) -> Future[Any]:
            question.answer(values)
            done: Future[Any] = Future()
            done.set_result(None)
            return done

        self.form = TryItForm(TryTarget(question.tool, question.schema, send))
        self.form.run_button.description = "Send"
        self.form.run_button.icon = "reply"
        self.decline_button = _button("Decline", "warning", question.decline)
        asker = f"<b>{esc(question.tool)}</b> asks you" + (f" (for {esc(question.client)})" if question.client else "")
        self.summary = widgets.HTML(f"{asker}: {esc(question.message)}")
        super().__init__([self.summary, self.form, self.decline_button])
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
    """Lines for text fallbacks: one per waiting call and per question."""
    return [
        *(f"waiting for approval: {_call_text(p)} from {p.client or 'a client'}" for p in server.approvals.pending),
        *(f"{q.tool} asks you: {q.message}" for q in server.approvals.questions),
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


def _call_text(pending: PendingCall) -> str:
    return f"{pending.tool}({json.dumps(pending.arguments, ensure_ascii=False)})"


class ClientLimits(widgets.HBox):  # type: ignore[misc]
    """One "read-only" checkbox per connected client: checked, the client may call read-only tools only."""

    def __init__(self, server: ServerHost) -> None:
        super().__init__()
        self.server = server
        self.boxes: dict[str, widgets.Checkbox] = {}
        self.add_class("jmcp-client-limits")

    def show(self, names: list[str]) -> None:
        """Boxes for these client names (called when the connected clients are re-read)."""
        limited = self.server.approvals.read_only_clients
        for name in names:
            if name not in self.boxes:
                self.boxes[name] = self._box(name)
            self.boxes[name].value = name in limited
        self.children = [self.boxes[name] for name in names]
        self.layout.display = None if names else "none"

    def _box(self, name: str) -> widgets.Checkbox:
        box = widgets.Checkbox(
            description=f"{name}: read-only tools only", indent=False, layout=widgets.Layout(width="auto")
        )
        box.observe(lambda change: self.server.approvals.limit_client(name, read_only=change["new"]), "value")
        return box
