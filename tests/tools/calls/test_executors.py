"""The worker pool: bounded, concurrent up to its size, daemon threads, errors delivered."""

import asyncio
import threading
import time
from collections.abc import Callable

import anyio
import pytest

from jupyter_mcp.tools.calls import executors
from jupyter_mcp.tools.calls.executors import DaemonPool, WorkerExecutor


def test_runs_jobs_concurrently_up_to_the_bound() -> None:
    pool = DaemonPool(3)
    running, peak, lock = [0], [0], threading.Lock()

    def job() -> None:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.1)
        with lock:
            running[0] -= 1

    futures = [pool.submit(job) for _ in range(9)]
    for future in futures:
        future.result(5)
    assert peak[0] == 3
    assert len(pool._threads) == 3
    assert all(t.daemon for t in pool._threads)


def test_back_to_back_submits_do_not_share_one_thread() -> None:
    pool = DaemonPool(4)
    pool.submit(lambda: None).result(5)  # one thread, now idle
    barrier = threading.Barrier(2, timeout=5)
    first, second = pool.submit(barrier.wait), pool.submit(barrier.wait)
    first.result(5)
    second.result(5)  # would deadlock if both jobs were queued on the single idle thread


def test_exceptions_reach_the_caller() -> None:
    def boom() -> None:
        raise KeyError("x")

    with pytest.raises(KeyError):
        DaemonPool(1).submit(boom).result(5)


async def test_cancelling_abandons_a_running_job() -> None:
    executor = WorkerExecutor(1)
    finished = threading.Event()

    def slow() -> str:
        time.sleep(0.3)
        finished.set()
        return "late"

    with anyio.move_on_after(0.05):
        await executor.run_sync(slow)
    assert not finished.is_set()
    assert await executor.run_sync(lambda: "next") == "next"  # queued behind the abandoned job
    assert finished.is_set()


async def test_a_quick_job_is_settled_before_the_loop_turns() -> None:
    pool = DaemonPool(1)
    await pool.schedule(lambda: None)  # the thread exists and waits
    future = pool.schedule(lambda: 42, wait=5.0)
    assert future.done()  # taken by the loop's thread itself: no call_soon_threadsafe
    assert await future == 42


async def test_a_quick_job_that_raises_is_settled_with_its_error() -> None:
    def boom() -> None:
        raise KeyError("x")

    future = DaemonPool(1).schedule(boom, wait=5.0)
    assert future.done()
    with pytest.raises(KeyError):
        await future


async def test_a_slow_job_comes_back_through_the_loop_after_the_wait() -> None:
    pool = DaemonPool(1)
    release = threading.Event()
    started = time.perf_counter()
    future = pool.schedule(lambda: release.wait(5) and "late", wait=0.01)
    assert time.perf_counter() - started < 1.0  # the loop's thread waited 10 ms, not for the job
    assert not future.done()
    release.set()
    assert await future == "late"


async def test_the_loop_does_not_wait_for_a_job_that_must_queue() -> None:
    pool = DaemonPool(1)
    release = threading.Event()
    first = pool.schedule(lambda: release.wait(5), wait=0.0)
    started = time.perf_counter()
    second = pool.schedule(lambda: "queued", wait=5.0)  # every thread busy: no waiting at all
    assert time.perf_counter() - started < 1.0
    assert not second.done()
    release.set()
    assert await first is True
    assert await second == "queued"


async def loop_held(executor: WorkerExecutor, thunk: Callable[[], object]) -> float:
    """Seconds the loop's thread spent in the step that hands ``thunk`` to a worker."""
    task = asyncio.ensure_future(executor.run_sync(thunk))
    started = time.perf_counter()
    await asyncio.sleep(0)  # the task's first step runs here: the hand-off and any wait for the result
    held = time.perf_counter() - started
    await task
    return held


async def test_after_a_slow_tool_the_loop_does_not_wait_for_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "QUICK_WAIT", 0.2)
    executor = WorkerExecutor(2)
    await executor.run_sync(lambda: None)  # quick: the loop waits for the next one
    assert await loop_held(executor, lambda: time.sleep(0.5)) >= 0.15  # it waited, and the tool was slow
    assert await loop_held(executor, lambda: time.sleep(0.5)) < 0.1  # so this time it went back to its work
    await executor.run_sync(lambda: None)
    assert await loop_held(executor, lambda: None) < 0.1  # quick again: waited, and had it at once
