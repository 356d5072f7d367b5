"""Where a tool's function runs: ``Executor``, the default ``WorkerExecutor``, and ``QuickRuns``
(the sync functions proven quick, run on the serving loop's thread without a hand-off).

The kernel adds a main-thread executor (``run_on="main"``); the call path picks one per tool.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, Generic, Literal, Protocol, TypeVar

from jupyter_mcp.adapters.stdlib import loop_hidden
from jupyter_mcp.tools.identity import ByIdentity

T = TypeVar("T")
_Finish = Callable[[Any, BaseException | None], None]
_Job = tuple[Callable[[], bool], Callable[[], Any], _Finish]
"""Whether to run it still, the thunk, and where its value or exception goes."""


QUICK_WAIT = 0.001
"""Seconds the loop's thread waits for a sync tool's result before going back to its other work.

A pure-Python tool holds the GIL while it runs, so the loop could not run meanwhile anyway; a
quick one's result is taken at once, without the loop's wake-up and turn (~0.1 ms a call)."""


INLINE_AFTER = 16
"""Consecutive quick runs in a worker after which a sync function runs on the serving loop's thread."""
QUICK_RUN = 0.0005
"""Seconds a worker run may take and still count as quick."""
SLOW_INLINE = 0.002
"""Seconds an inline run may take; a longer one sends its function back to the workers for good."""
_DEMOTED = -1
QuickState = Literal["learning", "proven", "demoted", "off"]


class QuickRuns:
    """Which sync functions skip the worker hand-off: those whose last ``INLINE_AFTER`` runs were quick.

    The hand-off costs a quick function more than the function itself (a queue, a thread wake-up, a
    lock, ~60 µs of CPU), and the loop gains nothing from it: a pure-Python function holds the GIL
    while it runs, on whichever thread. A function proven quick runs on the loop's thread; one inline
    run over ``SLOW_INLINE`` (a cache miss, a network call) sends it back to the workers for good, so
    the loop stalls at most once per function. Kept per function object: a redefined tool starts over.
    """

    def __init__(self, enabled: Callable[[], bool] = lambda: True) -> None:
        self.enabled = enabled
        """Whether inline runs are allowed now: the setting, and the stdlib adapter's fast path (``loop_hidden``)."""
        self._runs = ByIdentity[int]()
        """Per function: its streak of quick worker runs, or ``_DEMOTED``."""

    def proven(self, fn: Callable[..., Any]) -> bool:
        """Whether ``fn`` runs inline now (the server's setting allowing)."""
        return self._count(fn) >= INLINE_AFTER and self.enabled()

    def state(self, fn: Callable[..., Any]) -> QuickState:
        """Where ``fn`` stands: ``learning`` (in a worker, timed), ``proven`` (inline), ``demoted`` (a worker
        for good), or ``off`` (the server's setting keeps every sync function in a worker)."""
        if not self.enabled():
            return "off"
        count = self._count(fn)
        return "demoted" if count == _DEMOTED else "proven" if count >= INLINE_AFTER else "learning"

    def ran(self, fn: Callable[..., Any], seconds: float, *, inline: bool) -> None:
        """Count one run of ``fn`` that took ``seconds``."""
        count = self._count(fn)
        if count == _DEMOTED:
            return
        if inline and seconds > SLOW_INLINE:
            count = _DEMOTED
        elif not inline:
            count = count + 1 if seconds <= QUICK_RUN else 0
        self._runs.put(fn, count)

    def run_inline(self, fn: Callable[..., Any], thunk: Callable[[], T]) -> T:
        """``thunk`` here, with the loop out of sight as in a worker (``asyncio.run`` works, and
        ``asyncio.get_running_loop`` raises): the function cannot tell where it runs but by its thread."""
        started = time.perf_counter()
        try:
            with loop_hidden():
                return thunk()
        finally:
            self.ran(fn, time.perf_counter() - started, inline=True)

    def _count(self, fn: Callable[..., Any]) -> int:
        return self._runs.get(fn) or 0


class Executor(Protocol):
    async def run_sync(self, thunk: Callable[[], T]) -> T:
        """Run a blocking thunk; on cancellation the caller may abandon it (it cannot be killed)."""
        ...

    async def run_async(self, thunk: Callable[[], Awaitable[T]]) -> T:
        """Run a coroutine thunk; cancellation must cancel it."""
        ...


class DaemonPool:
    """A bounded pool of daemon threads.

    Not ``ThreadPoolExecutor``: its workers are joined at interpreter exit, so one runaway tool
    would hang the kernel's shutdown. And not ``anyio.to_thread``: measured +1.6 ms per call here.
    """

    def __init__(self, max_workers: int, name: str = "jupyter-mcp-worker") -> None:
        self.max_workers = max_workers
        self.name = name
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._idle = 0
        self._lock = threading.Lock()

    def submit(self, thunk: Callable[[], T]) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def finish(value: Any, error: BaseException | None) -> None:
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(value)

        self._put((future.set_running_or_notify_cancel, thunk, finish))
        return future

    def schedule(self, thunk: Callable[[], T], wait: float = 0.0) -> asyncio.Future[T]:
        """``thunk``'s result as a future of the running loop (cancel it to abandon the thunk).

        One hop back (``call_soon_threadsafe``) and no ``concurrent.futures.Future`` in between:
        chaining one to the loop with ``asyncio.wrap_future`` cost a lock, a condition and a
        second callback per call. With ``wait``, when a thread is free the loop's thread waits up
        to that long (the GIL released) and takes a quick thunk's result itself, already settled:
        no wake-up of the loop through its self-pipe, no extra loop turn.
        """
        handoff: _Handoff[T] = _Handoff(asyncio.get_running_loop(), waiting=wait > 0)
        started_now = self._put((handoff.start, thunk, handoff.finish))
        if wait > 0:
            handoff.wait(wait if started_now else 0.0)
        return handoff.future

    def _put(self, job: _Job) -> bool:
        """Queue ``job``; whether a thread is free to start it at once."""
        with self._lock:
            free = True
            if self._idle > 0:
                self._idle -= 1  # reserve a waiting thread for this job
            elif len(self._threads) < self.max_workers:
                self._start_thread()
            else:
                free = False  # every thread is busy: the job waits for the first one to finish
            self._jobs.put(job)
            return free

    def _start_thread(self) -> None:
        thread = threading.Thread(target=self._work, name=f"{self.name}-{len(self._threads)}", daemon=True)
        self._threads.append(thread)
        thread.start()

    def _work(self) -> None:
        while True:
            start, thunk, finish = self._jobs.get()
            if not start():
                with self._lock:
                    self._idle += 1
                continue
            try:
                outcome: tuple[Any, BaseException | None] = (thunk(), None)
            except BaseException as exc:  # delivered to the awaiting call, never lost in the thread
                outcome = (None, exc)
            with self._lock:  # idle before the caller hears: its next job (sequential calls) finds this thread free
                self._idle += 1
            finish(*outcome)
            del outcome  # an exception's traceback would keep the call's frames alive until the next job


class _Handoff(Generic[T]):
    """One job's way back to the loop: to its thread waiting briefly (``wait``), else ``call_soon_threadsafe``."""

    __slots__ = ("_lock", "_outcome", "_ready", "_waiting", "future", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop, *, waiting: bool) -> None:
        """``waiting``: the loop's thread will ``wait()`` (said before the job is queued: a quick job may end first)."""
        self.loop = loop
        self.future: asyncio.Future[T] = loop.create_future()
        self._lock = threading.Lock()
        self._ready = threading.Lock()
        self._ready.acquire()  # released by the worker for the waiting loop thread
        self._waiting = waiting
        self._outcome: tuple[Any, BaseException | None] = (None, None)

    def start(self) -> bool:
        return not self.future.cancelled()

    def finish(self, value: Any, error: BaseException | None) -> None:
        with self._lock:
            if self._waiting:
                self._outcome = (value, error)
                self._ready.release()
                return
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits for this value any more
            self.loop.call_soon_threadsafe(_settle, self.future, value, error)

    def wait(self, seconds: float) -> None:
        """In the loop's thread: wait up to ``seconds`` for the result and settle the future with it."""
        got = self._ready.acquire(timeout=seconds) if seconds > 0 else False
        with self._lock:
            got = got or self._ready.acquire(blocking=False)  # it came between the timeout and the lock
            self._waiting = False
        if got:
            _settle(self.future, *self._outcome)


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return  # abandoned (a timeout, a cancelled call)
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


class WorkerExecutor:
    """Sync tools in a bounded pool of daemon threads; async tools on the serving loop itself."""

    def __init__(self, max_workers: int = 16) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.pool = DaemonPool(max_workers)
        self._quick = True
        """Whether the last sync tool to finish ran within ``QUICK_WAIT``: only then does the loop wait for
        the next one. A tool waiting on I/O releases the GIL, and the loop would sit out the wait for nothing."""

    async def run_sync(self, thunk: Callable[[], T]) -> T:
        def timed() -> T:
            started = time.perf_counter()
            try:
                return thunk()
            finally:
                self._quick = time.perf_counter() - started <= QUICK_WAIT

        # Cancelling the future abandons a running thunk: a thread cannot be killed.
        return await self.pool.schedule(timed, QUICK_WAIT if self._quick else 0.0)

    async def run_async(self, thunk: Callable[[], Awaitable[T]]) -> T:
        return await thunk()


class UnavailableExecutor:
    """Stands in for ``run_on="main"`` outside a kernel: every call fails with the reason."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def run_sync(self, thunk: Callable[[], Any]) -> Any:
        from jupyter_mcp.tools.errors import ToolError

        raise ToolError(self.reason)

    async def run_async(self, thunk: Callable[[], Awaitable[Any]]) -> Any:
        return await self.run_sync(lambda: None)
