"""Where a tool's function runs: ``Executor`` and the default ``WorkerExecutor``.

The kernel adds a main-thread executor (``run_on="main"``); the call path picks one per tool.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")


class Executor(Protocol):
    async def run_sync(self, thunk: Callable[[], T]) -> T:
        """Run a blocking thunk; on cancellation the caller may abandon it (it cannot be killed)."""
        ...

    async def run_async(self, thunk: Callable[[], Awaitable[T]]) -> T:
        """Run a coroutine thunk; cancellation must cancel it."""
        ...


class WorkerExecutor:
    """Sync tools in a bounded thread pool; async tools on the serving loop itself."""

    def __init__(self, max_workers: int = 16) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.max_workers = max_workers
        self._limiters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
            weakref.WeakKeyDictionary()
        )

    def _get_limiter(self) -> anyio.CapacityLimiter:
        # One per event loop: a limiter binds to the loop that created it, and a restarted
        # server runs on a new loop.
        loop = asyncio.get_running_loop()
        limiter = self._limiters.get(loop)
        if limiter is None:
            limiter = self._limiters[loop] = anyio.CapacityLimiter(self.max_workers)
        return limiter

    async def run_sync(self, thunk: Callable[[], T]) -> T:
        return await anyio.to_thread.run_sync(thunk, abandon_on_cancel=True, limiter=self._get_limiter())

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
