"""``ToolStats``: running call counts per tool (not bounded by the history's length)."""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

from jupyter_mcp.tools.events import BaseCallObserver, CallFinished, CallStarted


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
    """A ``CallObserver`` keeping per-tool counters; thread-safe."""

    def __init__(self) -> None:
        self._counts: dict[str, ToolCounts] = {}
        self._tools_by_call: dict[str, str] = {}
        self._lock = threading.Lock()
        self.total_calls = 0

    def call_started(self, event: CallStarted) -> None:
        with self._lock:
            counts = self._counts.setdefault(event.tool, ToolCounts())
            counts.calls += 1
            counts.running += 1
            self.total_calls += 1
            self._tools_by_call[event.call_id] = event.tool

    def call_finished(self, call_id: str, event: CallFinished) -> None:
        with self._lock:
            tool = self._tools_by_call.pop(call_id, None)
            if tool is None:
                return
            counts = self._counts[tool]
            counts.running -= 1
            counts.finished += 1
            counts.total_duration += event.duration
            if event.status != "ok":
                counts.errors += 1

    def for_tool(self, name: str) -> ToolCounts:
        with self._lock:
            return dataclasses.replace(self._counts.get(name, ToolCounts()))

    def snapshot(self) -> dict[str, ToolCounts]:
        with self._lock:
            return {name: dataclasses.replace(counts) for name, counts in self._counts.items()}
