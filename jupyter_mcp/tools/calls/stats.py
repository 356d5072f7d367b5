"""``ToolStats``: running call counts per tool, resource and prompt (not bounded by the history's length)."""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

from jupyter_mcp.tools.calls.events import BaseCallObserver, CallFinished, CallStarted
from jupyter_mcp.tools.components.base import Kind


@dataclass
class ToolCounts:
    calls: int = 0
    errors: int = 0
    running: int = 0
    total_duration: float = 0.0
    finished: int = 0

    @property
    def mean_duration(self) -> float | None:
        return self.total_duration / self.finished if self.finished else None

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "calls": self.calls,
            "errors": self.errors,
            "running": self.running,
            "mean_duration": self.mean_duration,
        }


class ToolStats(BaseCallObserver):
    """A ``CallObserver`` keeping counters per component (kind and registry key); thread-safe.

    A templated read counts for its template, a read of an unknown URI for the URI.
    """

    def __init__(self) -> None:
        self._counts: dict[tuple[Kind, str], ToolCounts] = {}
        self._keys_by_call: dict[str, tuple[Kind, str]] = {}
        self._lock = threading.Lock()
        self.total_calls = 0

    def call_started(self, event: CallStarted) -> None:
        key = (event.kind, event.component or event.tool)
        with self._lock:
            counts = self._counts.setdefault(key, ToolCounts())
            counts.calls += 1
            counts.running += 1
            self.total_calls += 1
            self._keys_by_call[event.call_id] = key

    def call_finished(self, call_id: str, event: CallFinished) -> None:
        with self._lock:
            key = self._keys_by_call.pop(call_id, None)
            if key is None:
                return
            counts = self._counts[key]
            counts.running -= 1
            counts.finished += 1
            counts.total_duration += event.duration
            if event.status != "ok":
                counts.errors += 1

    def for_tool(self, name: str, kind: Kind = "tool") -> ToolCounts:
        """The counters of one tool (or, with ``kind``, of one resource or prompt by key)."""
        with self._lock:
            return dataclasses.replace(self._counts.get((kind, name), ToolCounts()))

    def snapshot(self, kind: Kind = "tool") -> dict[str, ToolCounts]:
        """Copies of every counter of one kind, by key."""
        with self._lock:
            return {key: dataclasses.replace(c) for (k, key), c in self._counts.items() if k == kind}
