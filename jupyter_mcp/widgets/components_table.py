"""``ComponentsTable``: every tool (or resource, or prompt) with its calls, errors, mean duration and a toggle."""

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
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.widgets.host import ServerHost

TOGGLE_WIDTH = "100px"
HEADERS: dict[Kind, tuple[str, ...]] = {
    "tool": ("tool", "", "calls", "errors", "running", "mean"),
    "resource": ("resource", "mime type", "reads", "errors", "running", "mean"),
    "prompt": ("prompt", "arguments", "gets", "errors", "running", "mean"),
}
EMPTY: dict[Kind, str] = {
    "tool": "No tools yet: mark a function with %%mcp_tool.",
    "resource": "No resources yet: %%mcp_resource URI serves a function, a cell or a variable.",
    "prompt": "No prompts yet: mark a function with %%mcp_prompt.",
}


def tool_cells_html(row: ToolRow) -> str:
    errors = span(row["errors"], "jmcp-num jmcp-error" if row["errors"] else "jmcp-num")
    cells = [
        span(row["name"], "jmcp-mono", title=row["name"]),
        span(row["detail"], "jmcp-muted", title=row["detail"]),
        span(row["calls"], "jmcp-num"),
        errors,
        span(row["running"] or "", "jmcp-num"),
        span(row["mean_duration"], "jmcp-num"),
    ]
    return f'<div class="jmcp-toolrow">{"".join(cells)}</div>'


def _header(kind: Kind) -> widgets.HBox:
    """Column titles laid out like a ``ToolLine``, so the columns line up."""
    cells = "".join(span(h, "jmcp-num" if i > 1 else "") for i, h in enumerate(HEADERS[kind]))
    titles = widgets.HTML(f'<div class="jmcp-toolrow">{cells}</div>', layout=widgets.Layout(flex="1 1 auto"))
    toggle = widgets.HTML(span("served"), layout=widgets.Layout(width=TOGGLE_WIDTH))
    header = widgets.HBox([titles, toggle])
    header.add_class("jmcp-tools-header")
    return header


class ToolLine(widgets.HBox):  # type: ignore[misc]  # ipywidgets is untyped
    """One component's counters and its enabled checkbox."""

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


class ComponentsTable(PanelBox):
    """The server's tools, resources or prompts (``kind``); ``rows`` holds ``ToolRow`` dicts in registration order."""

    rows: traitlets.List[ToolRow] = traitlets.List()

    def __init__(self, server: ServerHost, kind: Kind = "tool") -> None:
        self.server, self.kind = server, kind
        self._lock = threading.RLock()
        self._lines: dict[str, ToolLine] = {}
        self.header = _header(kind)
        self.lines_box = widgets.VBox()
        self.empty = widgets.HTML(span(EMPTY[kind], "jmcp-muted"))
        super().__init__([self.header, self.lines_box, self.empty])
        self.add_class("jmcp-tools")

    def refresh(self) -> None:
        """Re-read components and counters (called by the owning panel's throttle)."""
        with self._lock:
            self.rows = tool_rows(self.server, self.kind)
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

    def _toggle(self, key: str, enabled: bool) -> None:
        with self._lock:
            registry = self.server.registry_of(self.kind)
            item = registry.all().get(key)
            if item is None or registry.is_visible(item) == enabled:
                return  # a refresh set the box
            if enabled:
                registry.enable(names={key})
            else:
                registry.disable(names={key})

    def fallback_text(self) -> str:
        return "\n".join(f"{r['name']}: {r['calls']} calls, {r['errors']} errors" for r in self.rows)

    def fallback_html(self) -> str:
        headers = [h or "" for h in HEADERS[self.kind]]
        return frame(table([*headers, "enabled"], [_fallback_cells(row) for row in self.rows]))


def _fallback_cells(row: ToolRow) -> list[str]:
    counts = (row["calls"], row["errors"], row["running"], row["mean_duration"])
    name = f"<code>{esc(row['name'])}</code>"
    return [name, esc(row["detail"]), *(esc(value) for value in counts), "yes" if row["enabled"] else "no"]
