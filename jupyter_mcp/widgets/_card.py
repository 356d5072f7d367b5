"""``ComponentCard``: what every card shares — state, the enabled toggle, a try-it form, recent calls.

``ToolCard``, ``ResourceCard`` and ``PromptCard`` add their header and body. A card follows its own
component: once a re-run cell replaces it (or it is removed) the card says so and stops listening.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, ClassVar

import ipywidgets as widgets
import traitlets

from jupyter_mcp.widgets._base import LiveBinding, PanelBox, Section
from jupyter_mcp.widgets._html import badge
from jupyter_mcp.widgets._style import style_widget
from jupyter_mcp.widgets.model import CallRow, call_row, component_status, recent_records
from jupyter_mcp.widgets.render import call_list_html

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord, HistoryEvent
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.widgets.host import ServerHost
    from jupyter_mcp.widgets.tryit import TryItForm

RECENT_CALLS = 5
STATUS_TEXT = {
    "live": "live",
    "disabled": "disabled",
    "replaced": "replaced by a newer cell run",
    "removed": "removed",
}


def status_badge(status: str) -> str:
    return badge(STATUS_TEXT[status], status)


def tag_badges(tags: frozenset[str]) -> list[str]:
    return [badge(f"#{tag}", "tag") for tag in sorted(tags)]


class ComponentCard(PanelBox):
    """A card for one component of ``kind``; subclasses give ``header_html`` and the body widgets.

    ``status`` is ``live``, ``disabled``, ``replaced`` or ``removed``; ``recent`` holds its newest
    calls (frozen once it is no longer the registered one).
    """

    kind: ClassVar[Kind]
    status = traitlets.Unicode("live")
    recent: traitlets.List[CallRow] = traitlets.List()

    def __init__(
        self, server: ServerHost, component: Any, body: list[widgets.Widget], try_it: TryItForm | None
    ) -> None:
        self.server, self.component = server, component
        self._lock = threading.RLock()
        self.header = widgets.HTML(layout=widgets.Layout(flex="1 1 auto"))
        self.enabled = widgets.Checkbox(description="enabled", indent=False, tooltip=f"Serve this {self.kind}")
        self.enabled.layout.width = "auto"
        self.try_it = try_it
        self.calls_view = widgets.HTML()
        top = widgets.HBox([self.header, self.enabled], layout=widgets.Layout(align_items="flex-start"))
        parts = [style_widget(), top, *body]
        if try_it is not None:
            parts.append(Section("Try it", try_it, expanded=False))
        parts.append(Section("Recent calls" if self.kind != "resource" else "Recent reads", self.calls_view))
        super().__init__(parts)
        for cls in ("jmcp", "jmcp-frame", "jmcp-card", f"jmcp-{self.kind}-card"):
            self.add_class(cls)
        self.enabled.observe(self._toggled, "value")
        self._live = LiveBinding(server, self.refresh, wants=self._wants)

    @property
    def key(self) -> str:
        return str(self.component.key)

    def header_html(self, status: str) -> str:
        raise NotImplementedError

    def _wants(self, event: HistoryEvent, record: CallRecord | None) -> bool:
        return record is None or (record.kind == self.kind and self.key in (record.component, record.tool))

    def refresh(self) -> None:
        """Re-read the component's state and calls (the throttle calls this; safe from any thread)."""
        with self._lock:
            status = component_status(self.server, self.kind, self.component)
            recent = self.recent
            if status in ("live", "disabled"):
                records = recent_records(self.server.history, kind=self.kind, tool=self.key, limit=RECENT_CALLS)
                recent = [call_row(record) for record in records]
            self._render(status, recent)

    def _render(self, status: str, recent: list[CallRow]) -> None:
        # The traits change last, so whoever sees a new ``status`` sees it on screen too.
        current = status in ("live", "disabled")
        self.header.value = self.header_html(status)
        self.enabled.value = status == "live"
        self.enabled.disabled = not current
        if self.try_it is not None:
            self.try_it.active = status == "live"
        self._live.follow_history(current)
        self.calls_view.value = call_list_html(recent, "Not used yet.")
        self.recent = recent
        self.status = status

    def _toggled(self, change: dict[str, Any]) -> None:
        with self._lock:
            status = component_status(self.server, self.kind, self.component)  # the registry's truth
            if status not in ("live", "disabled") or change["new"] == (status == "live"):
                return  # a refresh set the box, or the component is no longer this card's
            registry = self.server.registry_of(self.kind)
            if change["new"]:
                registry.enable(names={self.key})
            else:
                registry.disable(names={self.key})
        self._live.throttle.flush()

    def close(self) -> None:
        self._live.close()
        super().close()
