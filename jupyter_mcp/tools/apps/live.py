"""``LiveCalls``: what an app may know about calls: who made each, and how the unfinished ones go.

An app asks about the call it was opened for while that call runs (its progress, whether it waits
for the notebook user's approval, whether it became a task). The spec lets an app reach only its
own server connection, so a call is told only to its requester: the session that made it (2025
era) or, for sessionless requests (2026 era, stdio), the same client name and version. The
requester is set around each ``tools/call`` (``REQUESTER``) and read when the call starts, in the
same task, so the call path needs to know nothing about apps.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from mcp.server.context import ServerRequestContext

from jupyter_mcp.tools.calls.events import (
    BaseCallObserver,
    CallFinished,
    CallStarted,
    InputWait,
    ProgressEvent,
    TaskCreated,
)
from jupyter_mcp.tools.peers import client_implementation, peer_of

Requester = tuple[str, ...]
"""``("session", id)`` or ``("client", name, version)``: who a call is told to."""

REQUESTER: ContextVar[Requester | None] = ContextVar("jupyter_mcp_app_requester", default=None)
"""Set by the ``tools/call`` handler for the call it starts."""

KEPT = 1000
"""Finished calls whose requester is remembered (for the full values of their ``result://`` links)."""
_RECENT = 200


def requester_of(ctx: ServerRequestContext[Any, Any]) -> Requester:
    """Who made this request, as apps are told apart (see the module docstring)."""
    peer = peer_of(ctx)
    if peer is not None and peer.session_id is not None:
        return ("session", peer.session_id)
    info = client_implementation(ctx)
    return ("client", info.name, info.version) if info is not None else ("client",)


@dataclass
class LiveCall:
    """A client's tool call as an app sees it."""

    call_id: str
    tool: str
    arguments: dict[str, Any]
    requester: Requester
    started_at: float
    status: str = "running"
    progress: ProgressEvent | None = None
    waiting: dict[str, str] = field(default_factory=dict)
    task_id: str | None = None
    finished_at: float | None = None

    def same_call(self, tool: str, arguments: dict[str, Any], requester: Requester) -> bool:
        return self.tool == tool and self.requester == requester and _canonical(self.arguments) == _canonical(arguments)


class LiveCalls(BaseCallObserver):
    """Observes the call path: clients' tool calls made under a ``REQUESTER``, while they run and a while after."""

    def __init__(self) -> None:
        self._calls: OrderedDict[str, LiveCall] = OrderedDict()
        self._owners: OrderedDict[str, Requester] = OrderedDict()
        self._finished: OrderedDict[str, None] = OrderedDict()
        """The finished calls still in ``_calls``, first finished first: dropping the oldest costs no scan."""
        self._lock = threading.Lock()

    def call_started(self, event: CallStarted) -> None:
        requester = REQUESTER.get()
        if requester is None or event.kind != "tool" or event.source != "client":
            return
        call = LiveCall(event.call_id, event.tool, dict(event.arguments), requester, event.started_at)
        with self._lock:
            self._calls[event.call_id] = call
            self._owners[event.call_id] = requester
            while len(self._owners) > KEPT:
                self._owners.popitem(last=False)

    def call_progress(self, call_id: str, event: ProgressEvent) -> None:
        self._update(call_id, progress=event)

    def call_input(self, call_id: str, event: InputWait) -> None:
        self._update(call_id, waiting=dict(event.requests))

    def call_task(self, call_id: str, event: TaskCreated) -> None:
        self._update(call_id, task_id=event.task_id)

    def call_finished(self, call_id: str, event: CallFinished) -> None:
        self._update(call_id, status=event.status, finished_at=time.time(), waiting={})
        with self._lock:
            if call_id not in self._calls:
                return
            self._finished[call_id] = None
            while len(self._finished) > _RECENT:
                self._calls.pop(self._finished.popitem(last=False)[0], None)

    def find(self, tool: str, arguments: dict[str, Any], requester: Requester) -> LiveCall | None:
        """The newest call of ``tool`` with these arguments by ``requester`` (a copy), running ones first."""
        with self._lock:
            found = [call for call in self._calls.values() if call.same_call(tool, arguments, requester)]
        running = [call for call in found if call.finished_at is None]
        chosen = running or found
        return LiveCall(**vars(chosen[-1])) if chosen else None

    def owner(self, call_id: str) -> Requester | None:
        with self._lock:
            return self._owners.get(call_id)

    def _update(self, call_id: str, **changes: Any) -> None:
        with self._lock:
            call = self._calls.get(call_id)
            if call is not None:
                for key, value in changes.items():
                    setattr(call, key, value)


def _canonical(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, sort_keys=True, default=str)
