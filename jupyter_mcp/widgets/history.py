"""``HistoryView``: the live call list with filters, and the selected call's full detail.

The list is one ``HTML`` widget, so a refresh sends one message however many rows moved. A click
on a row writes its call id into a hidden ``Text`` widget (the "picker", see ``_html.PICK_JS``),
which syncs it to the kernel like any typed text; the kernel then shows that call's detail.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from jupyter_mcp.widgets._base import PanelBox
from jupyter_mcp.widgets._html import frame, span
from jupyter_mcp.widgets.format import format_count
from jupyter_mcp.widgets.model import STATUSES, CallRow, call_row, recent_records
from jupyter_mcp.widgets.render import call_header_html, call_list_html, call_row_html, record_detail_html

if TYPE_CHECKING:
    from jupyter_mcp.widgets.host import ServerHost

PAGE = 20
MAX_ROWS = 200
ALL = ""


class HistoryView(PanelBox):
    """Calls newest first; click one for its arguments, result, error, output and logs.

    State lives in traits: ``rows`` (what is listed), ``selected`` (a call id),
    ``tool_filter`` / ``status_filter`` (``""`` for all), ``limit``.
    """

    rows: traitlets.List[CallRow] = traitlets.List()
    selected = traitlets.Unicode(None, allow_none=True)
    tool_filter = traitlets.Unicode(ALL)
    status_filter = traitlets.Unicode(ALL)
    limit = traitlets.Int(PAGE)
    total = traitlets.Int(0)

    def __init__(self, server: ServerHost) -> None:
        self.server = server
        self._lock = threading.RLock()
        self.tool_choice = widgets.Dropdown(options=[("all tools", ALL)], value=ALL, description="tool")
        self.status_choice = widgets.Dropdown(options=_status_options(), value=ALL, description="status")
        self.summary = widgets.HTML()
        self.more = widgets.Button(description=f"{PAGE} more", icon="angle-down", tooltip="List more calls")
        self.clear_button = widgets.Button(description="Clear", icon="trash", tooltip="Forget finished calls")
        for button in (self.more, self.clear_button):
            button.layout.width = "auto"
        self.list_view = widgets.HTML()
        self.picker = widgets.Text(layout=widgets.Layout(display="none"))
        self.picker.add_class("jmcp-picker")
        self.detail = widgets.HTML()
        parts = [self._toolbar(), widgets.HTML(call_header_html()), self.list_view, self.picker, self.more]
        super().__init__([*parts, self.detail])
        self.add_class("jmcp-history")
        self._wire()

    def _toolbar(self) -> widgets.HBox:
        for choice in (self.tool_choice, self.status_choice):
            choice.style.description_width = "initial"
        bar = widgets.HBox([self.tool_choice, self.status_choice, self.clear_button, self.summary])
        bar.add_class("jmcp-toolbar")
        return bar

    def _wire(self) -> None:
        widgets.link((self.tool_choice, "value"), (self, "tool_filter"))
        widgets.link((self.status_choice, "value"), (self, "status_filter"))
        self.more.on_click(lambda _button: self.set_trait("limit", min(MAX_ROWS, self.limit + PAGE)))
        self.clear_button.on_click(lambda _button: self.server.history.clear())
        self.picker.observe(self._picked, "value")
        self.observe(lambda _change: self.refresh(), ["tool_filter", "status_filter", "limit"])

    # ---- state -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Re-read the history (called by the owning panel's throttle, and on filter changes)."""
        with self._lock:
            history = self.server.history
            tool, status = self.tool_filter or None, self.status_filter or None
            records = recent_records(history, tool=tool, status=status, limit=self.limit)
            rows = [call_row(record) for record in records]
            self._refresh_tool_options([r["tool"] for r in rows])
            self._render(rows, len(history))

    def select(self, call_id: str | None) -> None:
        """Show a call's detail (selecting the shown call again hides it)."""
        with self._lock:
            self.selected = None if call_id == self.selected else call_id
            self._render(self.rows, self.total)

    def _picked(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.select(change["new"])
            self.picker.value = ""  # so a second click on the same row arrives as a change too

    def _refresh_tool_options(self, seen: list[str]) -> None:
        names = sorted(set(self.server.tools) | set(seen) | ({self.tool_filter} - {ALL}))
        options = [("all tools", ALL), *((name, name) for name in names)]
        if list(self.tool_choice.options) != options:
            self.tool_choice.options = options
            self.tool_choice.value = self.tool_filter

    # ---- view ------------------------------------------------------------------------------------

    def _render(self, rows: list[CallRow], total: int) -> None:
        # The traits change last, so whoever sees new ``rows`` sees them on screen too.
        self.list_view.value = "".join(
            call_row_html(row, selected=row["id"] == self.selected, clickable=True) for row in rows
        )
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
            self.selected = None
        self.detail.value = record_detail_html(record) if record is not None else ""

    def fallback_text(self) -> str:
        return "\n".join(
            f"{r['time']}  {r['status']:<9} {r['tool']}({r['arguments']})  {r['duration']}" for r in self.rows
        )

    def fallback_html(self) -> str:
        return frame(call_list_html(self.rows))


def _status_options() -> list[tuple[str, str]]:
    return [("any status", ALL), *((status, status) for status in STATUSES)]
