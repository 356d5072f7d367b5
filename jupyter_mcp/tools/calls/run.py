"""``CallRun``: one call's execution, detached from the request that started it.

A 2025-era call simply awaits its run. A 2026-era call (a tool call or a prompt get) may be left
waiting for the client's answers between requests, and any call of a task tool may outlive its
request as a task: the run goes on, and whoever holds it asks ``next()`` what happened.
"""

from __future__ import annotations

import asyncio
from typing import Generic, Literal, TypeVar

from jupyter_mcp.tools.calls.context import CallScope
from jupyter_mcp.tools.calls.gate import InputGate
from jupyter_mcp.tools.errors import ToolError

Outcome = Literal["done", "input", "slow"]
"""``done``: the run finished (or failed); ``input``: it waits for answers; ``slow``: still running."""

_T = TypeVar("_T")

_SETTLE_TICKS = 5
"""Loop turns to let requests awaited together (``asyncio.gather``) register with the first one."""


class CallRun(Generic[_T]):
    """A running call: its scope (id, request, gate) and the task computing its result."""

    def __init__(self, scope: CallScope, task: asyncio.Task[_T]) -> None:
        self.scope = scope
        self.task = task

    @property
    def call_id(self) -> str:
        return self.scope.call_id

    @property
    def gate(self) -> InputGate | None:
        return self.scope.gate

    async def next(self, slow_after: float | None = None) -> Outcome:
        """Wait until the run finishes, waits for input, or has run ``slow_after`` seconds."""
        if self.task.done():
            return "done"
        waiting = asyncio.ensure_future(self.gate.wait_pending()) if self.gate is not None else None
        try:
            watched = {self.task} if waiting is None else {self.task, waiting}
            done, _ = await asyncio.wait(watched, timeout=slow_after, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if waiting is not None:
                waiting.cancel()
        if self.task.done():
            return "done"
        if waiting is None or waiting not in done:
            return "slow"
        for _ in range(_SETTLE_TICKS):
            await asyncio.sleep(0)
        return "done" if self.task.done() else "input"

    def result(self) -> _T:
        """The finished call's result; raises the error (``MCPError``, a prompt's ``ToolError``) it ended with."""
        return self.task.result()

    def cancel(self) -> None:
        """Stop the call (a sync tool's thread cannot be stopped: its result is discarded)."""
        self._stop("cancelled", ToolError("the call was cancelled"))

    def expire(self, seconds: float) -> None:
        """Stop a call whose client never answered its input requests."""
        self._stop("expired", ToolError(f"no answer from the client within {seconds:g}s; the call expired"))

    def _stop(self, status: Literal["cancelled", "expired"], error: ToolError) -> None:
        if self.task.done():
            return
        self.scope.stop_status = status
        self.scope.cancel_event.set()
        if self.gate is not None:
            self.gate.fail(error)
        self.task.cancel()
