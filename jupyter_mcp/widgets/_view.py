"""What every view shares: the front end (one bundled ES module), actions from the browser, text/HTML
snapshots, and live binding to the server.

A view is an anywidget whose synced traits are data (``shapes.py``); the browser draws them with
the component set (``labextension/src/ui``, bundled into ``static/widgets.js``) and sends the user's
clicks back as messages ``{"action": name, ...}``, which ``View`` hands to the view's ``actions()``.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from jupyter_mcp.widgets._throttle import DEFAULT_INTERVAL, Throttle

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord, HistoryEvent
    from jupyter_mcp.tools.components.registry import RegistryChange
    from jupyter_mcp.widgets.host import ServerHost

logger = logging.getLogger(__name__)

BUNDLE = Path(__file__).with_name("static") / "widgets.js"
"""The front end: built from labextension/ by ``pip install`` (``jlpm build:widgets``), shipped in the wheel."""

Action = Callable[..., None]
RecordFilter = Callable[["HistoryEvent", "CallRecord | None"], bool]


class FrontEndMissingError(RuntimeError):
    """The widgets' front end was never built (a source checkout without ``pip install -e .``)."""


@functools.cache
def bundle() -> str:
    """The ES module every view loads (read once)."""
    try:
        return BUNDLE.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FrontEndMissingError(
            f"{BUNDLE} is missing: the widgets' front end is built with the package "
            "(pip install -e . in a checkout, or: jlpm --cwd labextension build:widgets)"
        ) from None


class View(anywidget.AnyWidget):
    """A card or the server panel: ``view`` says which, the other synced traits are its data."""

    view = traitlets.Unicode().tag(sync=True)

    @property
    def _esm(self) -> str:  # anywidget reads it once, when the widget is made
        return bundle()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
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
