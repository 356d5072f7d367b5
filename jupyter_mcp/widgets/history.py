"""``HistoryView``: the live call list with filters, and the selected call's full detail.

A finished call's detail has a "Keep as test" button: ``history.keep`` marks it, and the kernel
saves it for ``export`` (which replays it as a test of the exported server).

The list is a front-end view (``CallList``): a refresh sends its rows in one message however many
moved, and a click on a row sets ``CallList.selected``, which the kernel answers with the detail.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from jupyter_mcp.tools.calls.history import unkeepable
from jupyter_mcp.widgets._base import PanelBox
from jupyter_mcp.widgets._html import frame, span
from jupyter_mcp.widgets.calllist import CallList
from jupyter_mcp.widgets.format import format_count
from jupyter_mcp.widgets.model import KINDS, STATUSES, CallRow, call_row, recent_records
from jupyter_mcp.widgets.render import call_list_html, record_detail_html

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord
    from jupyter_mcp.widgets.host import ServerHost

PAGE = 20
MAX_ROWS = 200
ALL = ""


class HistoryView(PanelBox):
    """Calls, reads and prompt gets, newest first; click one for its arguments, result, error, output and logs.

    State lives in traits: ``rows`` (what is listed), ``selected`` (a call id), ``kind_filter``
    (tool/resource/prompt), ``tool_filter`` (a name or URI), ``status_filter`` (``""`` for all), ``limit``.
    """

    rows: traitlets.List[CallRow] = traitlets.List()
    selected = traitlets.Unicode(None, allow_none=True)
    kind_filter = traitlets.Unicode(ALL)
    tool_filter = traitlets.Unicode(ALL)
    status_filter = traitlets.Unicode(ALL)
    limit = traitlets.Int(PAGE)
    total = traitlets.Int(0)

    def __init__(self, server: ServerHost) -> None:
        self.server = server
        self._lock = threading.RLock()
        self.kind_choice = widgets.Dropdown(options=_kind_options(), value=ALL, description="kind")
        self.tool_choice = widgets.Dropdown(options=[("all names", ALL)], value=ALL, description="name")
        self.status_choice = widgets.Dropdown(options=_status_options(), value=ALL, description="status")
        self.summary = widgets.HTML()
        self.more = widgets.Button(description=f"{PAGE} more", icon="angle-down", tooltip="List more calls")
        self.clear_button = widgets.Button(description="Clear", icon="trash", tooltip="Forget finished calls")
        for button in (self.more, self.clear_button):
            button.layout.width = "auto"
        self.list_view = CallList()
        self.keep_button = widgets.Button(icon="check", tooltip="Replay this call as a test of the exported server")
        self.keep_button.layout.width = "auto"
        self.keep_note = widgets.HTML()
        self.detail = widgets.HTML()
        parts = [self._toolbar(), self.list_view, self.more]
        super().__init__([*parts, widgets.HBox([self.keep_button, self.keep_note]), self.detail])
        self.add_class("jmcp-history")
        self._wire()

    def _toolbar(self) -> widgets.HBox:
        for choice in (self.kind_choice, self.tool_choice, self.status_choice):
            choice.style.description_width = "initial"
        bar = widgets.HBox([self.kind_choice, self.tool_choice, self.status_choice, self.clear_button, self.summary])
        bar.add_class("jmcp-toolbar")
        return bar

    def _wire(self) -> None:
        widgets.link((self.kind_choice, "value"), (self, "kind_filter"))
        widgets.link((self.tool_choice, "value"), (self, "tool_filter"))
        widgets.link((self.status_choice, "value"), (self, "status_filter"))
        self.more.on_click(lambda _button: self.set_trait("limit", min(MAX_ROWS, self.limit + PAGE)))
        self.clear_button.on_click(lambda _button: self.server.history.clear())
        self.keep_button.on_click(lambda _button: self.keep_selected())
        self.list_view.observe(self._picked, "selected")
        self.observe(lambda _change: self.refresh(), ["kind_filter", "tool_filter", "status_filter", "limit"])

    # ---- state -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Re-read the history (called by the owning panel's throttle, and on filter changes)."""
        with self._lock:
            history = self.server.history
            kind, tool, status = self.kind_filter or None, self.tool_filter or None, self.status_filter or None
            records = recent_records(history, kind=kind, tool=tool, status=status, limit=self.limit)
            rows = [call_row(record) for record in records]
            self._refresh_tool_options([r["tool"] for r in rows])
            self._render(rows, len(history))

    def select(self, call_id: str | None) -> None:
        """Show a call's detail (selecting the shown call again hides it)."""
        self.list_view.selected = None if call_id == self.selected else call_id

    def _picked(self, change: dict[str, Any]) -> None:
        """The list's selection changed (a click in the browser, or ``select``)."""
        with self._lock:
            self.selected = change["new"]
            self._render(self.rows, self.total)

    def keep_selected(self) -> None:
        """Keep the shown call as a test (what the "Keep as test" button does)."""
        if self.selected is None:
            return
        try:
            self.server.history.keep(self.selected)
        except ValueError as exc:
            self.keep_note.value = span(str(exc), "jmcp-muted")
            return
        with self._lock:
            self._render_detail()

    def _refresh_tool_options(self, seen: list[str]) -> None:
        kinds = [kind for kind in KINDS if self.kind_filter in (ALL, kind)]
        registered = {key for kind in kinds for key in self.server.registry_of(kind).all()}
        names = sorted(registered | set(seen) | ({self.tool_filter} - {ALL}))
        options = [("all names", ALL), *((name, name) for name in names)]
        if list(self.tool_choice.options) != options:
            self.tool_choice.options = options
            self.tool_choice.value = self.tool_filter

    # ---- view ------------------------------------------------------------------------------------

    def _render(self, rows: list[CallRow], total: int) -> None:
        # The traits change last, so whoever sees new ``rows`` sees them on screen too.
        self.list_view.rows = rows
        self._render_summary(len(rows), total)
        self._render_detail()
        self.total = total
        self.rows = rows

    def _render_summary(self, shown: int, total: int) -> None:
        text = f"showing {shown} of {format_count(total, 'call')}" if total else "no calls yet"
        self.summary.value = span(text, "jmcp-muted")
        self.more.layout.display = None if shown == self.limit and self.limit < MAX_ROWS else "none"

    def _render_detail(self) -> None:
        record = self.server.history.get(self.selected) if self.selected else None
        if record is None:
            self.selected = self.list_view.selected = None
        self.detail.value = record_detail_html(record) if record is not None else ""
        self._render_keep(record)

    def _render_keep(self, record: CallRecord | None) -> None:
        keepable = record is not None and (record.kept or unkeepable(record) is None)
        self.keep_button.layout.display = None if keepable else "none"
        self.keep_button.description = "Kept as test" if record is not None and record.kept else "Keep as test"
        self.keep_button.disabled = record is not None and record.kept
        if not keepable or self.keep_button.disabled:
            self.keep_note.value = ""

    def fallback_text(self) -> str:
        return "\n".join(
            f"{r['time']}  {r['status']:<9} {_kind_prefix(r)}{r['tool']}({r['arguments']})  {r['duration']}"
            for r in self.rows
        )

    def fallback_html(self) -> str:
        return frame(call_list_html(self.rows))


def _kind_prefix(row: CallRow) -> str:
    return "" if row["kind"] == "tool" else f"{row['kind']} "


def _kind_options() -> list[tuple[str, str]]:
    return [("all kinds", ALL), *((f"{kind}s", kind) for kind in KINDS)]


def _status_options() -> list[tuple[str, str]]:
    return [("any status", ALL), *((status, status) for status in STATUSES)]
