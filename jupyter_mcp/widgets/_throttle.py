"""Coalesce "something changed" marks into at most one refresh per interval, off the hot path.

History observers run on the server's threads for every call, so they only ``mark()`` a
``Throttle`` (two attribute accesses in the common case). One daemon thread, the
``Scheduler``, runs the refreshes: the first mark after a quiet period refreshes at once, later
marks within ``interval`` are folded into one trailing refresh.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable

logger = logging.getLogger(__name__)

DEFAULT_INTERVAL = 0.1
"""Seconds between refreshes of one panel: at most 10 updates per second."""

Job = Callable[[], None]


class Scheduler:
    """Runs jobs at given monotonic times on one daemon thread (started on first use)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._queue: list[tuple[float, int, Job]] = []
        self._order = itertools.count()
        self._wakeup = threading.Condition()
        self._thread: threading.Thread | None = None

    def call_at(self, when: float, job: Job) -> None:
        """Run ``job`` on the scheduler thread at ``when`` (``clock()`` time) or soon after."""
        with self._wakeup:
            heapq.heappush(self._queue, (when, next(self._order), job))
            self._wakeup.notify()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="jupyter-mcp-widgets", daemon=True)
                self._thread.start()

    def every(self, period: float, job: Job) -> Callable[[], None]:
        """Run ``job`` every ``period`` seconds until the returned function is called."""
        stopped = threading.Event()

        def tick() -> None:
            if stopped.is_set():
                return
            job()
            self.call_at(self.clock() + period, tick)

        self.call_at(self.clock() + period, tick)
        return stopped.set

    def _run(self) -> None:
        while True:
            for job in self._next_due():
                _run_safely(job)

    def _next_due(self) -> list[Job]:
        with self._wakeup:
            while True:
                now = self.clock()
                if self._queue and self._queue[0][0] <= now:
                    return self._pop_due(now)
                timeout = self._queue[0][0] - now if self._queue else None
                self._wakeup.wait(timeout)

    def _pop_due(self, now: float) -> list[Job]:
        due = []
        while self._queue and self._queue[0][0] <= now:
            due.append(heapq.heappop(self._queue)[2])
        return due


def _run_safely(job: Job) -> None:
    try:
        job()
    except Exception:  # a broken view must not stop every other panel's refreshes
        logger.exception("widget refresh failed")


_shared: Scheduler | None = None
_shared_lock = threading.Lock()


def shared_scheduler() -> Scheduler:
    """The process-wide scheduler every panel uses."""
    global _shared  # noqa: PLW0603 - one refresh thread per kernel
    with _shared_lock:
        if _shared is None:
            _shared = Scheduler()
        return _shared


class Throttle:
    """Calls ``refresh`` after ``mark()``, at most once per ``interval`` seconds.

    Example::

        throttle = Throttle(view.refresh)
        history.subscribe(lambda event, record: throttle.mark())
    """

    def __init__(self, refresh: Job, interval: float = DEFAULT_INTERVAL, scheduler: Scheduler | None = None) -> None:
        self.refresh = refresh
        self.interval = interval
        self.scheduler = scheduler or shared_scheduler()
        self.refreshes = 0
        self._pending = False
        self._last = -float("inf")

    def mark(self) -> None:
        """Note that the view is stale; cheap and safe from any thread."""
        if self._pending:
            return
        # Two threads may both get here; the second refresh then finds nothing new, which is harmless.
        self._pending = True
        self.scheduler.call_at(max(self.scheduler.clock(), self._last + self.interval), self._due)

    def flush(self) -> None:
        """Refresh now, on the calling thread (tests, benchmarks, user actions)."""
        self._pending = False
        self._last = self.scheduler.clock()
        self.refreshes += 1
        self.refresh()

    def _due(self) -> None:
        if not self._pending:
            return  # a direct flush() got there first
        ready_at = self._last + self.interval
        if self.scheduler.clock() < ready_at:
            # A direct flush() happened since this was scheduled: keep the rate, try again later.
            self.scheduler.call_at(ready_at, self._due)
            return
        self.flush()
