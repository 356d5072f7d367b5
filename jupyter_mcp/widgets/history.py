"""``HistoryView``: the live call list with filters, and the selected call's full detail."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as widgets
import traitlets

from jupyter_mcp.widgets._base import PanelBox
from jupyter_mcp.widgets._html import frame, span
from jupyter_mcp.widgets.format import format_count
from jupyter_mcp.widgets.model import STATUSES, CallRow, call_row, recent_records
from jupyter_mcp.widgets.render import call_header_html, call_list_html, call_row_html, record_detail_html

if TYPE_CHECKING:
    from jupyter_mcp.kernel.server import NotebookServer

PAGE = 20
MAX_ROWS = 200
ALL = ""


class CallRowView(widgets.HBox):  # type: ignore[misc]  # ipywidgets is untyped
    """A pooled row: the row's HTML under a transparent button, so the whole row is clickable."""

    def __init__(self, on_select: Callable[[str], None]) -> None:
        self.call_id = ""
        self.cells = widgets.HTML(layout=widgets.Layout(flex="1 1 auto", min_width="0"))
        self.hit = widgets.Button(tooltip="Show this call's details")
        self.hit.add_class("jmcp-hit")
        self.hit.on_click(lambda _button: on_select(self.call_id))
        super().__init__([self.cells, self.hit])
        self.add_class("jmcp-row")

    def show(self, row: CallRow | None, *, selected: bool) -> None:
        if row is None:
            self.layout.display = "none"
            return
        self.call_id = row["id"]
        self.cells.value = call_row_html(row, selected=selected)
        self.layout.display = None


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

    def __init__(self, server: NotebookServer) -> None:
        self.server = server
        self._lock = threading.RLock()
        self.tool_choice = widgets.Dropdown(options=[("all tools", ALL)], value=ALL, description="tool")
        self.status_choice = widgets.Dropdown(options=_status_options(), value=ALL, description="status")
        self.summary = widgets.HTML()
        self.more = widgets.Button(description=f"{PAGE} more", icon="angle-down", tooltip="List more calls")
        self.clear_button = widgets.Button(description="Clear", icon="trash", tooltip="Forget finished calls")
        for button in (self.more, self.clear_button):
            button.layout.width = "auto"
        self.list_box = widgets.VBox()
        self.detail = widgets.HTML()
        self._pool: list[CallRowView] = []
        super().__init__([self._toolbar(), widgets.HTML(call_header_html()), self.list_box, self.more, self.detail])
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

    def _refresh_tool_options(self, seen: list[str]) -> None:
        names = sorted(set(self.server.tools) | set(seen) | ({self.tool_filter} - {ALL}))
        options = [("all tools", ALL), *((name, name) for name in names)]
        if list(self.tool_choice.options) != options:
            self.tool_choice.options = options
            self.tool_choice.value = self.tool_filter

    # ---- view ------------------------------------------------------------------------------------

    def _render(self, rows: list[CallRow], total: int) -> None:
        # The traits change last, so whoever sees new ``rows`` sees them on screen too.
        while len(self._pool) < len(rows):
            self._pool.append(CallRowView(self.select))
        for index, view in enumerate(self._pool):
            row = rows[index] if index < len(rows) else None
            view.show(row, selected=row is not None and row["id"] == self.selected)
        if len(self.list_box.children) != len(self._pool):
            self.list_box.children = tuple(self._pool)
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
