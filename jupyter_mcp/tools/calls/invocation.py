"""Running a component's function: on its executor (a worker thread, the kernel's main thread, or the
serving loop for async functions and sync ones proven quick), within its timeout, inside the execution
hooks (per-call capture)."""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio

from jupyter_mcp.shapes.status import RunOn
from jupyter_mcp.tools.calls.context import CallScope
from jupyter_mcp.tools.calls.events import LateResult
from jupyter_mcp.tools.calls.executors import Executor, QuickRuns, QuickState, UnavailableExecutor, WorkerExecutor
from jupyter_mcp.tools.components.function import BoundCall, ParsedFunction
from jupyter_mcp.tools.errors import ToolTimeoutError

ExecutionHook = Callable[[CallScope], AbstractContextManager[None]]
"""Entered around the function, in the thread (or task) that runs it: per-call capture uses this."""

LateListener = Callable[[str, LateResult], None]


class Runnable(Protocol):
    """What the call path runs: a tool, a resource or a prompt."""

    name: str

    @property
    def parsed(self) -> ParsedFunction: ...
    @property
    def fn(self) -> Callable[..., Any]: ...
    @property
    def is_async(self) -> bool: ...
    @property
    def timeout(self) -> float | None: ...
    @property
    def run_on(self) -> RunOn: ...


def may_run_inline(runnable: Runnable) -> bool:
    """A sync function in a worker, with no timeout (nothing may abandon it) and no Context (a Context
    waits on the loop): once proven quick it runs on the loop's thread (``QuickRuns``)."""
    sync = not runnable.is_async and runnable.timeout is None
    return sync and runnable.run_on == "worker" and not runnable.parsed.injected


class Execution:
    """The executors (``"worker"``, ``"main"``) and hooks every call's function runs with."""

    def __init__(self, max_workers: int, on_late: LateListener, quick: QuickRuns | None = None) -> None:
        self.quick = quick or QuickRuns()
        """Sync functions run in a worker until proven quick, then on the loop's thread (``QuickRuns``)."""
        self.executors: dict[str, Executor] = {
            "worker": WorkerExecutor(max_workers),
            "main": UnavailableExecutor("run_on='main' needs a Jupyter kernel's main thread; none is serving here"),
        }
        self.hooks: list[ExecutionHook] = []
        self._on_late = on_late

    async def run(self, runnable: Runnable, bound: BoundCall, scope: CallScope) -> Any:
        """The function's value; ``ToolTimeoutError`` once its ``timeout`` passes."""
        executor = self.executors[runnable.run_on]
        scope.is_async = runnable.is_async  # how the Context asks the client: awaited, or blocking a worker
        if runnable.timeout is None:  # nothing can abandon the run: no deadline, no late-result watch
            if runnable.is_async:
                return await executor.run_async(self._async_thunk(runnable, bound, scope))
            thunk = self._sync_thunk(runnable, bound, scope, None)
            if not may_run_inline(runnable):
                return await executor.run_sync(thunk)
            return await self._quick_or_worker(runnable.fn, thunk, executor)
        late = _LateWatch(lambda event: self._on_late(scope.call_id, event))
        with anyio.move_on_after(runnable.timeout):
            if runnable.is_async:
                return await executor.run_async(self._async_thunk(runnable, bound, scope))
            return await executor.run_sync(self._sync_thunk(runnable, bound, scope, late))
        # Only reached when the deadline cancelled the run.
        late.abandon()
        scope.cancel_event.set()
        kind = "it was cancelled" if runnable.is_async else "its late result will be discarded"
        raise ToolTimeoutError(f"Tool {runnable.name!r} timed out after {runnable.timeout:g}s (its timeout); {kind}")

    def quick_state(self, runnable: Runnable) -> QuickState | None:
        """Whether ``runnable``'s calls may leave the worker for the loop's thread, and where that stands
        (``QuickRuns.state``); ``None`` when they never may (async, a Context, a timeout, ``run_on="main"``)."""
        return self.quick.state(runnable.fn) if may_run_inline(runnable) else None

    async def _quick_or_worker(self, fn: Callable[..., Any], thunk: Callable[[], Any], executor: Executor) -> Any:
        """``thunk`` on the loop's thread if ``fn`` is proven quick, else in a worker, timed there."""
        quick = self.quick
        if quick.proven(fn):
            return quick.run_inline(fn, thunk)
        took: list[float] = []

        def timed() -> Any:
            started = time.perf_counter()
            try:
                return thunk()
            finally:
                took.append(time.perf_counter() - started)

        try:
            return await executor.run_sync(timed)
        finally:
            if took:  # not when the call was abandoned before its function ended
                quick.ran(fn, took[0], inline=False)

    def _sync_thunk(
        self, runnable: Runnable, bound: BoundCall, scope: CallScope, late: _LateWatch | None
    ) -> Callable[[], Any]:
        def run() -> Any:
            with self._hooks(scope):
                if late is None:
                    return runnable.fn(*bound.args, **bound.kwargs)
                try:
                    value = runnable.fn(*bound.args, **bound.kwargs)
                except BaseException as exc:
                    late.finished(exc)
                    raise
                late.finished(None)
                return value

        return run

    def _async_thunk(self, runnable: Runnable, bound: BoundCall, scope: CallScope) -> Callable[[], Awaitable[Any]]:
        async def run() -> Any:
            with self._hooks(scope):
                return await runnable.fn(*bound.args, **bound.kwargs)

        return run

    def _hooks(self, scope: CallScope) -> AbstractContextManager[None]:
        if not self.hooks:
            return nullcontext()
        if len(self.hooks) == 1:
            return self.hooks[0](scope)
        return self._all_hooks(scope)

    @contextmanager
    def _all_hooks(self, scope: CallScope) -> Iterator[None]:
        with ExitStack() as stack:
            for hook in self.hooks:
                stack.enter_context(hook(scope))
            yield


@dataclass
class _LateWatch:
    """Tells observers when a sync function abandoned at its timeout finally returns."""

    emit: Callable[[LateResult], None]
    started: float = field(default_factory=time.perf_counter)
    _abandoned: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def abandon(self) -> None:
        with self._lock:
            self._abandoned = True

    def finished(self, error: BaseException | None) -> None:
        with self._lock:
            if not self._abandoned:
                return
        message = None if error is None else f"{type(error).__name__}: {error}"
        self.emit(LateResult(time.perf_counter() - self.started, message))
