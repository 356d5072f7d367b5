"""``AppLoop``: an ASGI app's lifespan on an event loop of its own, in a daemon thread, with no port.

What ``BackgroundServer`` does for the HTTP transport minus the socket: the app starts (its
lifespan: the MCP session manager's task group) and then answers whatever calls it on ``loop``,
here the kernel channel's frames. A kernel with ``transport = "kernel"`` serves this way and
listens on no TCP port at all.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from starlette.types import ASGIApp, Message

from jupyter_mcp.tools.transports.http.serving import close_loop

logger = logging.getLogger(__name__)
T = TypeVar("T")

_START_TIMEOUT = 15.0
_STOP_TIMEOUT = 5.0


class AppLoop:
    """``start()`` runs the app's lifespan startup in a daemon thread; ``stop()`` its shutdown, then joins.

    Example::

        runner = AppLoop(app)
        runner.start()
        runner.run_coroutine(work()).result()
        runner.stop()
    """

    host = "kernel"
    port: int | None = None

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopping: asyncio.Event | None = None
        self._error: str | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._ready.clear()
        self._thread = threading.Thread(target=self._run, name="jupyter-mcp-kernel-channel", daemon=True)
        self._thread.start()
        if not self._ready.wait(_START_TIMEOUT) or self._error is not None:
            self.stop()
            raise RuntimeError(f"the MCP app did not start: {self._error or 'timed out'}")

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._lifespan())
        except BaseException as exc:  # reported to start(); a dying thread must not print into a cell
            self._error = str(exc) or type(exc).__name__
            logger.exception("the MCP app's loop stopped with an error")
        finally:
            self._ready.set()
            close_loop(loop)

    async def _lifespan(self) -> None:
        self._stopping = stopping = asyncio.Event()
        inbox: asyncio.Queue[Message] = asyncio.Queue()
        inbox.put_nowait({"type": "lifespan.startup"})
        started = asyncio.Event()

        async def send(message: Message) -> None:
            if message["type"] == "lifespan.startup.failed":
                self._error = str(message.get("message") or "the app's startup failed")
            if message["type"].startswith("lifespan.startup"):
                started.set()

        task = asyncio.ensure_future(self.app({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, send))
        await asyncio.wait([task, asyncio.create_task(started.wait())], return_when=asyncio.FIRST_COMPLETED)
        self._ready.set()
        if self._error is None and not task.done():
            await stopping.wait()
            inbox.put_nowait({"type": "lifespan.shutdown"})
            await asyncio.wait([task], timeout=_STOP_TIMEOUT)

    def stop(self) -> None:
        thread, loop, stopping = self._thread, self.loop, self._stopping
        if loop is not None and stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nothing left to stop
                loop.call_soon_threadsafe(stopping.set)
        if thread is not None and thread is not threading.current_thread():
            thread.join(_STOP_TIMEOUT * 2)
        self._thread = None
        self.loop = None

    def run_coroutine(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule ``coro`` on the app's loop; returns a ``concurrent.futures.Future``."""
        if self.loop is None:
            raise RuntimeError("the server is not running")
        return asyncio.run_coroutine_threadsafe(coro, self.loop)
