"""The server panel's call history, as behaviour: which calls it lists (filters, a page size), which
one is selected (its detail shown), and keeping a call as a test.

A finished call can be kept: ``history.keep`` marks it, and the kernel saves it for ``export``
(which replays it as a test of the exported server).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from jupyter_mcp.shapes.views import CallDetail, CallRow, History
from jupyter_mcp.widgets.format import format_count
from jupyter_mcp.widgets.model import KINDS, STATUSES, call_detail, call_row, recent_records

if TYPE_CHECKING:
    from jupyter_mcp.widgets.host import ServerHost

PAGE = 20
MAX_ROWS = 200
ALL = ""


class HistoryState:
    """Calls, reads and prompt gets, newest first; one of them selected for its detail.

    Example::

        panel.history.rows[0]["status"]            # the newest call's status
        panel.history.set_filter(status="error")   # what the status picker does
        panel.history.select(panel.history.rows[0]["id"])
    """

    def __init__(self, server: ServerHost, changed: Callable[[], None]) -> None:
        self.server = server
        self.kind_filter = ALL
        self.tool_filter = ALL
        self.status_filter = ALL
        self.limit = PAGE
        self.selected: str | None = None
        self.rows: list[CallRow] = []
        self.total = 0
        self.keep_note = ""
        self._changed = changed
        self._lock = threading.RLock()

    def read(self) -> tuple[History, CallDetail | None]:
        """Re-read the history: what the panel lists, and the selected call's detail."""
        with self._lock:
            history = self.server.history
            kind, tool = self.kind_filter or None, self.tool_filter or None
            records = recent_records(history, kind=kind, tool=tool, status=self.status_filter or None, limit=self.limit)
            self.rows = [call_row(record) for record in records]
            self.total = len(history)
            shown = f"showing {len(self.rows)} of {format_count(self.total, 'call')}" if self.total else "no calls yet"
            listed = History(
                rows=self.rows,
                total=history.total_calls,
                shown=shown,
                more=len(self.rows) == self.limit and self.limit < MAX_ROWS,
                kind=self.kind_filter,
                tool=self.tool_filter,
                status=self.status_filter,
                names=self._names(),
                statuses=list(STATUSES),
                selected=self.selected,
            )
            return listed, self._detail()

    def _names(self) -> list[str]:
        kinds = [kind for kind in KINDS if self.kind_filter in (ALL, kind)]
        registered = {key for kind in kinds for key in self.server.registry_of(kind).all()}
        return sorted(registered | {row["tool"] for row in self.rows} | ({self.tool_filter} - {ALL}))

    def _detail(self) -> CallDetail | None:
        record = self.server.history.get(self.selected) if self.selected else None
        if record is None:
            self.selected = None
            return None
        detail = call_detail(record)
        if self.keep_note and detail["keep"] == "can":
            detail["keep_note"] = self.keep_note
        return detail

    # ---- what the panel's controls do --------------------------------------------------------------

    def set_filter(self, kind: str | None = None, tool: str | None = None, status: str | None = None) -> None:
        """Show only one kind, one name (or URI template) and one status; ``""`` shows all."""
        with self._lock:
            if kind is not None:
                self.kind_filter = kind if kind in KINDS else ALL
            if tool is not None:
                self.tool_filter = str(tool)
            if status is not None:
                self.status_filter = status if status in STATUSES else ALL
        self._changed()

    def more(self) -> None:
        """List another page of calls."""
        with self._lock:
            self.limit = min(MAX_ROWS, self.limit + PAGE)
        self._changed()

    def clear(self) -> None:
        """Forget the finished calls (the running ones stay)."""
        self.server.history.clear()
        self._changed()

    def select(self, call_id: str | None) -> None:
        """Show a call's detail (``None`` hides it)."""
        with self._lock:
            self.selected = call_id or None
            self.keep_note = ""
        self._changed()

    def keep(self, call_id: str | None = None) -> None:
        """Keep the shown call (or ``call_id``) as a test: what the "Keep as test" button does."""
        target = call_id or self.selected
        if target is None:
            return
        try:
            self.server.history.keep(target)
        except ValueError as exc:
            self.keep_note = str(exc)
        self._changed()
