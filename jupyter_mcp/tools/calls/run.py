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
from jupyter_mcp.tools.calls.inputs import InputRequest
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
        asked = await self._first_news(slow_after)
        if self.task.done():
            return "done"
        if not asked:
            return "slow"
        for _ in range(_SETTLE_TICKS):
            await asyncio.sleep(0)
        return "done" if self.task.done() else "input"

    async def _first_news(self, slow_after: float | None) -> bool:
        """Wait for the run to finish, a question to be pending or ``slow_after`` to pass; whether a question was.

        One future woken by callbacks: no task waiting on the gate and no ``asyncio.wait`` per call.
        """
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[bool] = loop.create_future()

        def wake(asked: bool) -> None:
            if not woken.done():
                woken.set_result(asked)

        def finished(_: object) -> None:
            wake(False)

        def question(pending: dict[str, InputRequest]) -> None:
            if pending:
                wake(True)

        self.task.add_done_callback(finished)
        stop = self.gate.listen(question) if self.gate is not None else None
        if self.gate is not None and self.gate.pending():
            wake(True)
        timer = loop.call_later(slow_after, wake, False) if slow_after is not None else None
        try:
            return await woken
        finally:
            self.task.remove_done_callback(finished)
            if stop is not None:
                stop()
            if timer is not None:
                timer.cancel()

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
