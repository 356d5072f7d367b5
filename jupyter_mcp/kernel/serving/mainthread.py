"""``run_on="main"``: run a tool on the kernel's main thread, between cells.

The kernel's main thread runs an asyncio loop that executes cells; a job scheduled on it with
``call_soon_threadsafe`` runs as soon as the current cell finishes (or awaits). Objects that
must stay on their thread (sqlite3 connections, some GUI and GPU handles) work there.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import signal
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

import anyio

from jupyter_mcp.tools.errors import ToolError

T = TypeVar("T")


class KernelBusyError(ToolError):
    """The main thread stayed busy (a cell kept running) for longer than the configured wait."""


class KernelInterruptedError(ToolError):
    """The notebook user interrupted the kernel while the tool ran on its main thread."""


@contextlib.contextmanager
def _interruptible() -> Iterator[None]:
    """Let a kernel interrupt (SIGINT) stop the tool, as it stops a cell.

    ipykernel ignores SIGINT between cells and turns it on only while a cell executes; a main-thread
    tool runs between cells, so it gets the same treatment while it runs.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    except KeyboardInterrupt:
        raise KernelInterruptedError(
            "interrupted: the notebook user interrupted the kernel while this tool ran on its main thread"
        ) from None
    finally:
        signal.signal(signal.SIGINT, previous)


class MainThreadExecutor:
    """Schedules tool functions on the kernel's main event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, wait: float) -> None:
        self.loop = loop
        self.wait = wait

    async def run_sync(self, thunk: Callable[[], T]) -> T:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        started = asyncio.Event()
        caller = asyncio.get_running_loop()

        def job() -> None:
            if not future.set_running_or_notify_cancel():
                return  # gave up waiting before the kernel got to it
            caller.call_soon_threadsafe(started.set)
            try:
                with _interruptible():
                    future.set_result(thunk())
            except BaseException as exc:  # delivered to the caller; a tool must not break the kernel loop
                future.set_exception(exc)

        self.loop.call_soon_threadsafe(job)
        await self._wait_for_start(started, future)
        return await asyncio.wrap_future(future)

    async def run_async(self, thunk: Callable[[], Awaitable[T]]) -> T:
        caller = asyncio.get_running_loop()
        started = asyncio.Event()

        async def job() -> T:
            caller.call_soon_threadsafe(started.set)
            return await thunk()

        future = asyncio.run_coroutine_threadsafe(job(), self.loop)
        await self._wait_for_start(started, future)
        return await asyncio.wrap_future(future)

    async def _wait_for_start(self, started: asyncio.Event, future: concurrent.futures.Future[T]) -> None:
        with anyio.move_on_after(self.wait):
            await started.wait()
        if not started.is_set() and future.cancel():
            raise KernelBusyError(
                f"kernel busy: a cell has been running for over {self.wait:g}s, and this tool runs on the "
                "kernel's main thread between cells; try again when the cell finishes"
            )
