"""``ToolsTable``: every tool with its calls, errors, mean duration and an enabled toggle."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as widgets
import traitlets

from jupyter_mcp.widgets._base import PanelBox
from jupyter_mcp.widgets._html import esc, frame, span, table
from jupyter_mcp.widgets.model import ToolRow, tool_rows

if TYPE_CHECKING:
    from jupyter_mcp.widgets.host import ServerHost

HEADERS = ("tool", "calls", "errors", "running", "mean")
TOGGLE_WIDTH = "100px"


def tool_cells_html(row: ToolRow) -> str:
    errors = span(row["errors"], "jmcp-num jmcp-error" if row["errors"] else "jmcp-num")
    cells = [
        span(row["name"], "jmcp-mono"),
        span(row["calls"], "jmcp-num"),
        errors,
        span(row["running"] or "", "jmcp-num"),
        span(row["mean_duration"], "jmcp-num"),
    ]
    return f'<div class="jmcp-toolrow">{"".join(cells)}</div>'


def _header() -> widgets.HBox:
    """Column titles laid out like a ``ToolLine``, so the columns line up."""
    cells = "".join(span(h, "" if h == "tool" else "jmcp-num") for h in HEADERS)
    titles = widgets.HTML(f'<div class="jmcp-toolrow">{cells}</div>', layout=widgets.Layout(flex="1 1 auto"))
    toggle = widgets.HTML(span("served"), layout=widgets.Layout(width=TOGGLE_WIDTH))
    header = widgets.HBox([titles, toggle])
    header.add_class("jmcp-tools-header")
    return header


class ToolLine(widgets.HBox):  # type: ignore[misc]  # ipywidgets is untyped
    """One tool's counters and its enabled checkbox."""

    def __init__(self, name: str, on_toggle: Callable[[str, bool], None]) -> None:
        self.name = name
        self.cells = widgets.HTML(layout=widgets.Layout(flex="1 1 auto", min_width="0"))
        self.enabled = widgets.Checkbox(description="enabled", indent=False, tooltip=f"Serve {name} to clients")
        self.enabled.layout.width = TOGGLE_WIDTH
        self.enabled.observe(lambda change: on_toggle(self.name, change["new"]), "value")
        super().__init__([self.cells, self.enabled])
        self.add_class("jmcp-tool-line")

    def show(self, row: ToolRow) -> None:
        self.cells.value = tool_cells_html(row)
        self.enabled.value = row["enabled"]


class ToolsTable(PanelBox):
    """The server's tools; ``rows`` holds ``ToolRow`` dicts in registration order."""

    rows: traitlets.List[ToolRow] = traitlets.List()

    def __init__(self, server: ServerHost) -> None:
        self.server = server
        self._lock = threading.RLock()
        self._lines: dict[str, ToolLine] = {}
        self.header = _header()
        self.lines_box = widgets.VBox()
        self.empty = widgets.HTML(span("No tools yet: mark a function with %%mcp_tool.", "jmcp-muted"))
        super().__init__([self.header, self.lines_box, self.empty])
        self.add_class("jmcp-tools")

    def refresh(self) -> None:
        """Re-read tools and counters (called by the owning panel's throttle)."""
        with self._lock:
            self.rows = tool_rows(self.server)
            self._render()

    def _render(self) -> None:
        names = [row["name"] for row in self.rows]
        if names != list(self._lines):
            self._lines = {name: self._lines.get(name) or ToolLine(name, self._toggle) for name in names}
            self.lines_box.children = tuple(self._lines.values())
        for row in self.rows:
            self._lines[row["name"]].show(row)
        self.empty.layout.display = "none" if self.rows else None
        self.header.layout.display = None if self.rows else "none"

    def _toggle(self, name: str, enabled: bool) -> None:
        with self._lock:
            tool = self.server.tools.get(name)
            if tool is None or self.server.registry.is_visible(tool) == enabled:
                return  # a refresh set the box
            if enabled:
                self.server.enable(names={name})
            else:
                self.server.disable(names={name})

    def fallback_text(self) -> str:
        return "\n".join(f"{r['name']}: {r['calls']} calls, {r['errors']} errors" for r in self.rows)

    def fallback_html(self) -> str:
        return frame(table([*HEADERS, "enabled"], [_fallback_cells(row) for row in self.rows]))


def _fallback_cells(row: ToolRow) -> list[str]:
    counts = (row["calls"], row["errors"], row["running"], row["mean_duration"])
    return [f"<code>{esc(row['name'])}</code>", *(esc(value) for value in counts), "yes" if row["enabled"] else "no"]
