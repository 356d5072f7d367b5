"""Building blocks every panel shares: text/HTML fallbacks, live binding to the server, sections."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from jupyter_mcp.widgets._throttle import DEFAULT_INTERVAL, Throttle

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord, HistoryEvent
    from jupyter_mcp.tools.components.registry import RegistryChange
    from jupyter_mcp.widgets.host import ServerHost

RecordFilter = Callable[["HistoryEvent", "CallRecord | None"], bool]


class PanelBox(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped
    """A ``VBox`` that also offers ``text/plain`` and ``text/html`` snapshots of itself.

    Front ends with widget support show the live widget; nbconvert, GitHub previews and
    widget-less front ends show the snapshot taken when the output was produced.
    """

    def fallback_text(self) -> str:
        raise NotImplementedError

    def fallback_html(self) -> str:
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = self.fallback_text()
        bundle["text/html"] = self.fallback_html()
        return bundle


class LiveBinding:
    """Marks a ``Throttle`` on history and registry events (every kind's) and optionally on a timer.

    The observers do O(1) work on the server's threads; ``refresh`` runs on the scheduler thread
    at most ``1 / interval`` times per second.
    """

    def __init__(
        self,
        server: ServerHost,
        refresh: Callable[[], None],
        *,
        wants: RecordFilter | None = None,
        every: float | None = None,
        interval: float = DEFAULT_INTERVAL,
    ) -> None:
        self.server = server
        self.throttle = Throttle(refresh, interval)
        self._wants = wants
        self._stop_history: Callable[[], None] | None = None
        self._stop_registries = [registry.subscribe(self._on_registry) for registry in server.registries]
        self._stop_timer = self.throttle.scheduler.every(every, self.throttle.mark) if every else None
        self.follow_history(True)

    def follow_history(self, follow: bool) -> None:
        """Start or stop listening to call events (a replaced tool's card stops)."""
        if follow and self._stop_history is None:
            self._stop_history = self.server.history.subscribe(self._on_history)
        elif not follow and self._stop_history is not None:
            self._stop_history()
            self._stop_history = None

    def _on_history(self, event: HistoryEvent, record: CallRecord | None) -> None:
        if self._wants is None or self._wants(event, record):
            self.throttle.mark()

    def _on_registry(self, change: RegistryChange) -> None:
        self.throttle.mark()

    def close(self) -> None:
        self.follow_history(False)
        for stop in self._stop_registries:
            stop()
        if self._stop_timer is not None:
            self._stop_timer()


class Section(widgets.VBox):  # type: ignore[misc]
    """A titled part of a panel that folds away with one click."""

    expanded = traitlets.Bool(True)
    title = traitlets.Unicode()

    def __init__(self, title: str, body: widgets.Widget, *, expanded: bool = True) -> None:
        self.toggle = widgets.ToggleButton(value=expanded, tooltip="Show or hide")
        self.toggle.add_class("jmcp-section-toggle")
        self.body = body
        super().__init__([self.toggle, body], title=title, expanded=expanded)
        self.add_class("jmcp-section")
        widgets.link((self.toggle, "value"), (self, "expanded"))
        self._show(expanded)

    @traitlets.observe("expanded", "title")
    def _changed(self, change: dict[str, Any]) -> None:
        self._show(self.expanded)

    def _show(self, expanded: bool) -> None:
        self.toggle.description = self.title
        self.toggle.icon = "caret-down" if expanded else "caret-right"
        self.body.layout.display = None if expanded else "none"
