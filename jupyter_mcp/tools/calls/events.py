"""The observer interface on tool calls: typed events and the ``CallObserver`` protocol.

The kernel's call history and the widgets subscribe here; the tool layer never knows them.
Observers are called synchronously from the thread that produced the event (the serving loop,
or a worker thread for progress and logs), so they must be quick and thread-safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

import mcp_types as mt

from jupyter_mcp.tools.components.base import Kind

CallStatus = Literal["ok", "error", "timeout", "cancelled", "expired"]
"""``expired``: the call waited for the client's input longer than the server's ``input_timeout``."""
LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]

Verdict = Literal["allowed", "denied"]
Via = Literal["cell", "panel", "lab", "timeout", "permission", "pause", "limit", "unattended"]

Era = Literal["2025", "2026"]
CallOutcome = mt.CallToolResult | mt.ReadResourceResult | mt.GetPromptResult


def era_of(protocol_version: str) -> Era:
    """``"2025"`` for handshake-era protocol versions (2024-11-05 … 2025-11-25), ``"2026"`` from 2026-07-28."""
    return "2026" if protocol_version >= "2026" else "2025"


@dataclass(frozen=True)
class ClientInfo:
    """Who made a call: the client's name and version and the protocol era it speaks."""

    name: str
    version: str
    protocol_version: str

    @property
    def era(self) -> Era:
        return era_of(self.protocol_version)


@dataclass(frozen=True)
class CallStarted:
    call_id: str
    tool: str
    arguments: dict[str, Any]
    client: ClientInfo | None
    started_at: float
    """Wall-clock start (``time.time()``)."""
    source: Literal["client", "notebook"]
    """``"notebook"`` for ``server.call(...)`` from a cell or a widget's try-it form."""
    kind: Kind = "tool"
    """A tool call, a resource read (``tool`` is then the URI read) or a prompt get."""
    component: str | None = None
    """The registry key of what answers (a resource template for a templated read); ``None`` if nothing does."""


@dataclass(frozen=True)
class ProgressEvent:
    progress: float
    total: float | None
    message: str | None
    at: float


@dataclass(frozen=True)
class LogEvent:
    level: LogLevel
    message: str
    logger: str | None
    at: float


@dataclass(frozen=True)
class InputWait:
    """The call waits for the client to answer ``requests`` (key -> method); empty once answered."""

    requests: dict[str, str]
    at: float


@dataclass(frozen=True)
class TaskCreated:
    """The call became a task (the tasks extension): the client polls ``task_id`` for its outcome."""

    task_id: str
    at: float


@dataclass(frozen=True)
class CallFinished:
    status: CallStatus
    duration: float
    """Seconds from start to the result the client got."""
    result: CallOutcome | None
    """What the client got; ``None`` when a read or prompt get failed (the client got a JSON-RPC error)."""
    error: str | None
    """The full error message (before masking) when the call failed."""
    traceback: str | None


@dataclass(frozen=True)
class LateResult:
    """A sync tool that timed out finally returned (or raised); its outcome was discarded."""

    duration: float
    error: str | None


@dataclass(frozen=True)
class PreviewSent:
    """The result was over the budget: the client got a preview and a link to ``uri``; ``full`` is all of it."""

    full: mt.CallToolResult
    uri: str
    size: int
    """Bytes of the full result as JSON."""
    budget: int


class CallObserver(Protocol):
    def call_started(self, event: CallStarted) -> None: ...
    def call_progress(self, call_id: str, event: ProgressEvent) -> None: ...
    def call_log(self, call_id: str, event: LogEvent) -> None: ...
    def call_input(self, call_id: str, event: InputWait) -> None: ...
    def call_task(self, call_id: str, event: TaskCreated) -> None: ...
    def call_finished(self, call_id: str, event: CallFinished) -> None: ...
    def call_late_result(self, call_id: str, event: LateResult) -> None: ...
    def call_previewed(self, call_id: str, event: PreviewSent) -> None: ...


class BaseCallObserver:
    """No-op ``CallObserver`` to subclass when only some events matter."""

    def call_started(self, event: CallStarted) -> None:
        return None

    def call_progress(self, call_id: str, event: ProgressEvent) -> None:
        return None

    def call_log(self, call_id: str, event: LogEvent) -> None:
        return None

    def call_input(self, call_id: str, event: InputWait) -> None:
        return None

    def call_task(self, call_id: str, event: TaskCreated) -> None:
        return None

    def call_finished(self, call_id: str, event: CallFinished) -> None:
        return None

    def call_late_result(self, call_id: str, event: LateResult) -> None:
        return None

    def call_previewed(self, call_id: str, event: PreviewSent) -> None:
        return None


@dataclass(frozen=True)
class Decision:
    """Who decided a call's fate, how, and when (recorded in the call's history record)."""

    verdict: Verdict
    via: Via
    """``cell``/``panel``/``lab``: the notebook user; ``timeout``: nobody answered; ``permission``: an
    earlier "allow for N minutes"; ``pause``: the kill switch; ``limit``: a read-only client called another
    tool; ``unattended``: a host with no notebook user."""
    at: float
    reason: str | None = None
    waited: float = 0.0
    """Seconds the call waited for it."""

    def summary(self) -> str:
        """One line for people: "allowed in the lab after 3.2 s", "denied (timeout): ..."."""
        how = {
            "cell": "by the notebook user from a cell",
            "panel": "by the notebook user in the panel",
            "lab": "by the notebook user in JupyterLab",
            "timeout": "because nobody answered in time",
            "permission": "by a standing permission for this client",
            "pause": "because the notebook user paused all tools",
            "limit": "because the notebook user limited this client to read-only tools",
            "unattended": "at once: no notebook user can approve calls here (jupyter-mcp serve)",
        }[self.via]
        text = f"{self.verdict} {how}" + (f" after {self.waited:.1f} s" if self.waited >= 0.05 else "")
        return text + (f": {self.reason}" if self.reason else "")
