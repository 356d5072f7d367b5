"""What every view shares: the front end (``frontend.py``), actions from the browser, text/HTML
snapshots, and live binding to the server.

A view is an anywidget whose synced traits are data (``shapes.py``); the browser draws them with the
component set (``labextension/src/ui``: the JupyterLab extension's copy, else the kernel's bundle,
``static/widgets.js``) and sends the user's clicks back as messages ``{"action": name, ...}``, which
``View`` hands to the view's ``actions()``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anywidget
import ipywidgets
import traitlets

from jupyter_mcp.widgets._throttle import DEFAULT_INTERVAL, Throttle
from jupyter_mcp.widgets.frontend import FrontEnd, front_end, loader

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord, HistoryEvent
    from jupyter_mcp.tools.components.registry import RegistryChange
    from jupyter_mcp.widgets.host import ServerHost

logger = logging.getLogger(__name__)

Action = Callable[..., None]
RecordFilter = Callable[["HistoryEvent", "CallRecord | None"], bool]


class View(anywidget.AnyWidget):
    """A card or the server panel: ``view`` says which, the other synced traits are its data.

    It carries the small loader (``frontend.py``), and names the kernel's ``FrontEnd``: the page's own
    front end draws it where there is one, else the bundle the kernel sent once.
    """

    view = traitlets.Unicode().tag(sync=True)
    _front_end = traitlets.Instance(FrontEnd).tag(sync=True, **ipywidgets.widget_serialization)

    @property
    def _esm(self) -> str:  # anywidget reads it once, when the widget is made
        return loader()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(_front_end=front_end(), **kwargs)
        self._lock = threading.RLock()
        self.on_msg(self._on_message)

    def actions(self) -> dict[str, Action]:
        """What the browser may ask for, by action name (keyword arguments from the message)."""
        return {}

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        action = content.get("action") if isinstance(content, dict) else None
        handler = self.actions().get(action) if isinstance(action, str) else None
        if handler is None:
            logger.warning("jupyter-mcp widget: unknown action %r", action)
            return
        arguments = {key: value for key, value in content.items() if key != "action"}
        try:
            handler(**arguments)
        except (TypeError, ValueError, KeyError) as exc:  # a malformed message must not break the kernel's comm
            logger.warning("jupyter-mcp widget: action %r refused: %s", action, exc)

    # ---- text and HTML snapshots ------------------------------------------------------------------

    def fallback_text(self) -> str:
        raise NotImplementedError

    def fallback_html(self) -> str:
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
        """The live widget, plus text/plain and text/html snapshots for nbconvert, GitHub, widget-less front ends."""
        data, metadata = super()._repr_mimebundle_(**kwargs) or ({}, {})
        return {**data, "text/plain": self.fallback_text(), "text/html": self.fallback_html()}, metadata


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
        self._stop_approvals = server.approvals.changes.add(self.throttle.mark)
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
        self._stop_approvals()
        if self._stop_timer is not None:
            self._stop_timer()


def approval_actions(server: ServerHost) -> dict[str, Action]:
    """The answers a view's approval and question controls send: allow, deny, answer, decline (by call id)."""

    def allow(call_id: str, minutes: float | None = None) -> None:
        pending = server.approvals.find(call_id)
        if pending is not None:
            pending.allow(minutes=minutes, via="panel")

    def deny(call_id: str, reason: str = "") -> None:
        pending = server.approvals.find(call_id)
        if pending is not None:
            pending.deny(str(reason), via="panel")

    def answer(call_id: str, values: dict[str, Any]) -> None:
        question = server.approvals.find_question(call_id)
        if question is not None:
            question.answer(dict(values))

    def decline(call_id: str) -> None:
        question = server.approvals.find_question(call_id)
        if question is not None:
            question.decline()

    return {"allow": allow, "deny": deny, "answer": answer, "decline": decline}
