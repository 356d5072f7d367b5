"""Who is connected, and telling them the tool list changed, in both protocol eras.

2025-era clients hold a session (a ``Connection``); list_changed goes on its standalone stream.
2026-era clients open ``subscriptions/listen`` streams; events go through a bus. Registry changes
happen on any thread (usually the kernel's), so everything here hops onto the loop that owns
each connection or stream.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import anyio.lowlevel
from mcp.server.connection import Connection
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.subscriptions import ServerEvent, ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.tools._sdk import client_implementation, connection_of
from jupyter_mcp.tools.events import ClientInfo
from jupyter_mcp.tools.observers import Observers

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ConnectedClient:
    """A client as the panels show it."""

    name: str
    version: str
    protocol_version: str
    since: float
    last_seen: float
    kind: str
    """``"session"`` (2025 era), ``"listener"`` or ``"requests"`` (2026 era)."""


def client_info_of(request: ServerRequestContext[Any, Any]) -> ClientInfo | None:
    info = client_implementation(request)
    if info is None:
        return None
    return ClientInfo(info.name, info.version, request.protocol_version)


class ThreadSafeBus:
    """A ``SubscriptionBus`` whose ``publish_threadsafe`` may be called from any thread.

    Each listener is invoked on the loop it subscribed from (listen handlers are not thread-safe).
    """

    def __init__(self) -> None:
        self._listeners: dict[object, tuple[asyncio.AbstractEventLoop, Callable[[ServerEvent], None]]] = {}
        self._lock = threading.Lock()

    async def publish(self, event: ServerEvent) -> None:
        self.publish_threadsafe(event)
        await anyio.lowlevel.checkpoint()

    def publish_threadsafe(self, event: ServerEvent) -> None:
        with self._lock:
            targets = list(self._listeners.values())
        for loop, listener in targets:
            _call_soon(loop, listener, event)

    def subscribe(self, listener: Callable[[ServerEvent], None]) -> Callable[[], None]:
        token = object()
        with self._lock:
            self._listeners[token] = (asyncio.get_running_loop(), listener)

        def unsubscribe() -> None:
            with self._lock:
                self._listeners.pop(token, None)

        return unsubscribe

    @property
    def listener_count(self) -> int:
        return len(self._listeners)


@dataclass
class _Session:
    connection: Connection
    loop: asyncio.AbstractEventLoop
    since: float
    last_seen: float


class ClientTracker:
    """Server middleware that records connections and sends them list_changed."""

    def __init__(self, bus: ThreadSafeBus) -> None:
        self.bus = bus
        self._sessions: dict[int, _Session] = {}
        self._modern: dict[tuple[str, str], ConnectedClient] = {}
        self._lock = threading.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._changes: Observers[Callable[[], None]] = Observers(__name__)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method != "initialize":
            self._seen(ctx)
        return result

    def _seen(self, ctx: ServerRequestContext[Any, Any]) -> None:
        now = time.time()
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            self._seen_modern(ctx, now)
            return
        connection = connection_of(ctx)
        if connection is None or (connection.session_id is None and not connection.has_standalone_channel):
            return
        key = id(connection)
        with self._lock:
            session = self._sessions.get(key)
            if session is not None:
                session.last_seen = now
                return
            self._sessions[key] = _Session(connection, asyncio.get_running_loop(), now, now)
        connection.exit_stack.callback(self._forget, key)
        self._changed()

    def _seen_modern(self, ctx: ServerRequestContext[Any, Any], now: float) -> None:
        info = client_info_of(ctx)
        if info is None:
            return
        key = (info.name, info.version)
        with self._lock:
            previous = self._modern.get(key)
            since = previous.since if previous is not None else now
            self._modern[key] = ConnectedClient(info.name, info.version, info.protocol_version, since, now, "requests")
        if previous is None:
            self._changed()

    def _forget(self, key: int) -> None:
        with self._lock:
            removed = self._sessions.pop(key, None)
        if removed is not None:
            self._changed()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` when a client connects or leaves; returns the unsubscribe function."""
        return self._changes.add(listener)

    def _changed(self) -> None:
        self._changes.each(lambda listener: listener())

    def clients(self, modern_window: float = 300.0) -> list[ConnectedClient]:
        """2025-era sessions that are open, and 2026-era clients seen within ``modern_window`` s."""
        now = time.time()
        with self._lock:
            sessions = list(self._sessions.values())
            modern = [c for c in self._modern.values() if now - c.last_seen <= modern_window]
        return [_describe(s) for s in sessions] + modern

    def tools_changed(self) -> None:
        """Send list_changed to every session and listen stream; safe from any thread."""
        with self._lock:
            sessions = list(self._sessions.values())
        for session in sessions:
            self._spawn(session.loop, _send_list_changed(session.connection))
        self.bus.publish_threadsafe(ToolsListChanged())

    def _spawn(self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, None]) -> None:
        def start() -> None:
            task = loop.create_task(coro)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        if not _call_soon(loop, start):
            coro.close()


async def _send_list_changed(connection: Connection) -> None:
    await connection.send_tool_list_changed()


def _describe(session: _Session) -> ConnectedClient:
    params = session.connection.client_params
    info = params.client_info if params is not None else None
    return ConnectedClient(
        name=info.name if info is not None else "unknown",
        version=info.version if info is not None else "",
        protocol_version=session.connection.protocol_version,
        since=session.since,
        last_seen=session.last_seen,
        kind="session",
    )


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> bool:
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:
        # The loop has closed: its connections are gone with it.
        return False
    return True
