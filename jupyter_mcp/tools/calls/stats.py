"""``ToolStats``: running call counts per tool, resource and prompt (not bounded by the history's length)."""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

from jupyter_mcp.shapes.status import Counts
from jupyter_mcp.tools.calls.events import BaseCallObserver, CallFinished, CallStarted, Decision
from jupyter_mcp.tools.components.base import Kind


@dataclass
class ToolCounts:
    calls: int = 0
    errors: int = 0
    """Calls that failed: not those the notebook user refused (``refused``) nor cancelled ones."""
    refused: int = 0
    """Calls denied by the notebook user, refused while paused or for a read-only client."""
    running: int = 0
    total_duration: float = 0.0
    finished: int = 0

    @property
    def mean_duration(self) -> float | None:
        return self.total_duration / self.finished if self.finished else None

    def to_json(self) -> Counts:
        return {
            "calls": self.calls,
            "errors": self.errors,
            "refused": self.refused,
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
        self._refused: set[str] = set()
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

    def call_decided(self, call_id: str, decision: Decision) -> None:
        """The notebook user's decision on a call (``Approvals.decisions``): a denied call is refused, not failed."""
        if decision.verdict == "denied":
            with self._lock:
                if call_id in self._keys_by_call:
                    self._refused.add(call_id)

    def call_finished(self, call_id: str, event: CallFinished) -> None:
        with self._lock:
            key = self._keys_by_call.pop(call_id, None)
            if key is None:
                return
            counts = self._counts[key]
            counts.running -= 1
            counts.finished += 1
            counts.total_duration += event.duration
            if call_id in self._refused:
                self._refused.discard(call_id)
                counts.refused += 1
            elif event.status not in ("ok", "cancelled"):
                counts.errors += 1

    def for_tool(self, name: str, kind: Kind = "tool") -> ToolCounts:
        """The counters of one tool (or, with ``kind``, of one resource or prompt by key)."""
        with self._lock:
            return dataclasses.replace(self._counts.get((kind, name), ToolCounts()))

    def snapshot(self, kind: Kind = "tool") -> dict[str, ToolCounts]:
        """Copies of every counter of one kind, by key."""
        with self._lock:
            return {key: dataclasses.replace(c) for (k, key), c in self._counts.items() if k == kind}
