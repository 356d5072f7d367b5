"""Who is connected, and telling them a list changed or a resource was updated, in both protocol eras.

2025-era clients hold a connection (a ``Peer``: an HTTP session, or a stdio or in-memory run);
list_changed and resources/updated go on its standalone stream (its resource subscriptions live in
its ``Peer.state``).
2026-era clients open ``subscriptions/listen`` streams; events go through a bus. Registry changes
happen on any thread (usually the kernel's), so everything here hops onto the loop that owns
each connection or stream.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import anyio.lowlevel
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.subscriptions import (
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated,
    ServerEvent,
    ToolsListChanged,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.shapes.status import ClientEntry
from jupyter_mcp.tools import signedin
from jupyter_mcp.tools.calls.events import ClientInfo
from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.observers import Observers
from jupyter_mcp.tools.peers import Peer, client_implementation, peer_of

SUBSCRIPTIONS_STATE_KEY = "jupyter_mcp.resource_subscriptions"
"""Where a 2025-era session keeps the URIs it subscribed to (``resources/subscribe``)."""

_LIST_CHANGED: dict[Kind, tuple[str, ServerEvent]] = {
    "tool": ("send_tool_list_changed", ToolsListChanged()),
    "resource": ("send_resource_list_changed", ResourcesListChanged()),
    "prompt": ("send_prompt_list_changed", PromptsListChanged()),
}

logger = logging.getLogger(__name__)


def client_info_of(request: ServerRequestContext[Any, Any]) -> ClientInfo | None:
    """Who sent ``request``: a signed-in client by its grant's name, else by what it said it is."""
    info = client_implementation(request)
    grant = signedin.current.get()
    if grant is not None:
        return ClientInfo(grant["client"], info.version if info is not None else "", request.protocol_version)
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
    peer: Peer
    loop: asyncio.AbstractEventLoop
    since: float
    signed_in: str | None = None
    """The name of the signed-in client the session's first request came from (its grant's)."""


class ClientTracker:
    """Server middleware that records connections and sends them list_changed.

    ``idle_timeout`` is how long an HTTP session lives without requests: a session past it is no longer
    listed, whether or not its end was heard of (the public path hears of a DELETE, not of an expiry).
    """

    def __init__(self, bus: ThreadSafeBus, idle_timeout: float | None = None) -> None:
        self.bus = bus
        self.idle_timeout = idle_timeout
        self._sessions: dict[int, _Session] = {}
        self._modern: dict[tuple[str, str], ClientEntry] = {}
        self._lock = threading.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._changes: Observers[Callable[[], None]] = Observers(__name__)
        self._listened: Counter[str] = Counter()
        """URIs that open 2026-era listen streams subscribed to (a template's reads can only be told this way)."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "subscriptions/listen":
            return await self._listening(ctx, call_next)
        result = await call_next(ctx)
        if ctx.method != "initialize":
            self._seen(ctx)
        return result

    async def _listening(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Count the URIs a listen stream watches while it is open (the handler returns when it ends)."""
        uris = _listen_uris(ctx.params)
        with self._lock:
            self._listened.update(uris)
        try:
            self._seen(ctx)
            return await call_next(ctx)
        finally:
            with self._lock:
                self._listened.subtract(uris)
                self._listened = +self._listened

    def _seen(self, ctx: ServerRequestContext[Any, Any]) -> None:
        now = time.time()
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            self._seen_modern(ctx, now)
            return
        peer = peer_of(ctx)
        if peer is None or peer.ended:
            return
        peer.last_seen = now
        key = id(peer)
        with self._lock:
            if key in self._sessions:
                return
            grant = signedin.current.get()
            signed_in = grant["client"] if grant is not None else None
            self._sessions[key] = _Session(peer, asyncio.get_running_loop(), now, signed_in)
        peer.on_end(lambda: self._forget(key))
        self._changed()

    def _seen_modern(self, ctx: ServerRequestContext[Any, Any], now: float) -> None:
        info = client_info_of(ctx)
        if info is not None:
            self.seen_modern(info.name, info.version, info.protocol_version, now)

    def seen_modern(self, name: str, version: str, protocol_version: str, now: float | None = None) -> None:
        """A 2026-era client made a request (a transport that answered it itself says so here)."""
        now = time.time() if now is None else now
        with self._lock:
            seen = self._modern.get((name, version))
            if seen is None:
                self._modern[(name, version)] = ClientEntry(
                    name=name,
                    version=version,
                    protocol_version=protocol_version,
                    since=now,
                    last_seen=now,
                    kind="requests",
                )
            else:
                seen["protocol_version"], seen["last_seen"] = protocol_version, now
        if seen is None:
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

    def clients(self, modern_window: float = 300.0) -> list[ClientEntry]:
        """2025-era sessions that are open, and 2026-era clients seen within ``modern_window`` s."""
        now = time.time()
        with self._lock:
            sessions = self._live(now)
            modern = [seen.copy() for seen in self._modern.values() if now - seen["last_seen"] <= modern_window]
        return [_describe(s) for s in sessions] + modern

    def _live(self, now: float) -> list[_Session]:
        """The sessions that may still be open (under the lock)."""
        return [session for session in self._sessions.values() if session.peer.alive(now, self.idle_timeout)]

    def list_changed(self, kind: Kind) -> None:
        """Send ``kind``'s list_changed to every session and listen stream; safe from any thread."""
        method, event = _LIST_CHANGED[kind]
        with self._lock:
            sessions = self._live(time.time())
        for session in sessions:
            self._spawn(session.loop, session.peer.send(method))
        self.bus.publish_threadsafe(event)

    def resources_updated(self, matches: Callable[[str], bool]) -> list[str]:
        """Send resources/updated for every subscribed URI ``matches`` accepts; returns those URIs."""
        with self._lock:
            sessions = self._live(time.time())
            listened = [uri for uri in self._listened if matches(uri)]
        told: set[str] = set(listened)
        for session in sessions:
            for uri in subscriptions_of(session.peer):
                if matches(uri):
                    told.add(uri)
                    self._spawn(session.loop, session.peer.send("send_resource_updated", uri))
        for uri in listened:
            self.bus.publish_threadsafe(ResourceUpdated(uri))
        return sorted(told)

    def _spawn(self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, None]) -> None:
        def start() -> None:
            task = loop.create_task(coro)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        if not _call_soon(loop, start):
            coro.close()


def subscriptions_of(peer: Peer) -> set[str]:
    """The URIs a 2025-era connection subscribed to (created empty on first use)."""
    found = peer.state.setdefault(SUBSCRIPTIONS_STATE_KEY, set())
    return found if isinstance(found, set) else set()


def _listen_uris(params: Any) -> list[str]:
    notifications = params.get("notifications") if isinstance(params, dict) else None
    uris = notifications.get("resourceSubscriptions") if isinstance(notifications, dict) else None
    return [uri for uri in uris if isinstance(uri, str)] if isinstance(uris, list) else []


def _describe(session: _Session) -> ClientEntry:
    peer = session.peer
    info = peer.client_info
    return ClientEntry(
        name=session.signed_in or (info.name if info is not None else "unknown"),
        version=info.version if info is not None else "",
        protocol_version=peer.session.protocol_version if peer.session is not None else "",
        since=session.since,
        last_seen=peer.last_seen,
        kind="session",
    )


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> bool:
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:
        # The loop has closed: its connections are gone with it.
        return False
    return True
