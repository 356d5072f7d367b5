"""Throttle and Scheduler: marks coalesce into at most one refresh per interval."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable

from jupyter_mcp.widgets._throttle import Scheduler, Throttle


class ManualScheduler(Scheduler):
    """A scheduler whose clock and job queue the test drives by hand (no thread)."""

    def __init__(self) -> None:
        super().__init__(clock=lambda: self.now)
        self.now = 0.0
        self.jobs: list[tuple[float, Callable[[], None]]] = []

    def call_at(self, when: float, job: Callable[[], None]) -> None:
        self.jobs.append((when, job))

    def advance(self, to: float) -> None:
        self.now = to
        due = sorted((j for j in self.jobs if j[0] <= to), key=lambda j: j[0])
        self.jobs = [j for j in self.jobs if j[0] > to]
        for _, job in due:
            job()


def test_first_mark_refreshes_at_once_then_marks_fold_into_one() -> None:
    clock = ManualScheduler()
    seen: list[float] = []
    throttle = Throttle(lambda: seen.append(clock.now), interval=0.1, scheduler=clock)
    throttle.mark()
    clock.advance(0.0)
    assert seen == [0.0]
    for t in (0.01, 0.02, 0.05, 0.09):
        clock.now = t
        throttle.mark()
    assert len(clock.jobs) == 1  # every later mark rode on the one pending refresh
    clock.advance(0.099)
    assert seen == [0.0]
    clock.advance(0.1)
    assert seen == [0.0, 0.1]
    clock.advance(5.0)
    assert seen == [0.0, 0.1]  # nothing marked since: nothing to do


def test_a_direct_flush_keeps_the_rate() -> None:
    clock = ManualScheduler()
    seen: list[float] = []
    throttle = Throttle(lambda: seen.append(clock.now), interval=0.1, scheduler=clock)
    throttle.mark()
    clock.now = 0.05
    throttle.flush()  # a user's click refreshes at once
    throttle.mark()
    clock.advance(0.1)  # the job scheduled at 0.0 + 0.1 finds the last refresh too recent
    assert seen == [0.05]
    clock.advance(0.149)
    assert seen == [0.05]
    clock.advance(0.16)  # due at 0.05 + 0.1
    assert seen == [0.05, 0.16]


def test_real_scheduler_bounds_refreshes_by_elapsed_time() -> None:
    interval = 0.05
    refreshed: list[float] = []
    marked: list[float] = []
    throttle = Throttle(lambda: refreshed.append(time.monotonic()), interval=interval)

    def hammer() -> None:
        end = time.monotonic() + 0.5
        while (now := time.monotonic()) < end:
            throttle.mark()
        marked.append(now)

    workers = [threading.Thread(target=hammer) for _ in range(3)]
    start = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    last_mark = max(marked)  # every mark happened before this moment
    deadline = time.monotonic() + 10
    while (not refreshed or refreshed[-1] < last_mark) and time.monotonic() < deadline:
        time.sleep(0.01)
    elapsed = time.monotonic() - start
    # However loaded the machine, refreshes never outrun one per interval (plus the leading one) ...
    assert len(refreshed) <= elapsed / interval + 2
    gaps = [b - a for a, b in itertools.pairwise(refreshed)]
    assert min(gaps) >= interval * 0.95
    # ... and a refresh always follows the last mark, so the view ends up current.
    assert refreshed[-1] >= last_mark


def test_every_repeats_until_stopped_and_survives_failing_jobs() -> None:
    scheduler = Scheduler()
    ticks: list[float] = []
    boom = threading.Event()

    def failing() -> None:
        boom.set()
        raise RuntimeError("a broken view")

    scheduler.call_at(scheduler.clock(), failing)
    stop = scheduler.every(0.02, lambda: ticks.append(time.monotonic()))
    deadline = time.monotonic() + 10
    while len(ticks) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    stop()
    assert boom.is_set()
    assert len(ticks) >= 3
    count = len(ticks)
    time.sleep(0.1)
    assert len(ticks) <= count + 1  # at most the tick already running when stopped
