"""``MemoryEventStore``: lets a client resume an SSE stream after its connection drops (SEP-1699).

Resuming matters only within seconds of a drop, and events may carry large results, so the store
is bounded three ways: by count, by (approximate) bytes, and by age — and the age limit is
enforced by a timer, so an idle server lets go of memory too. A request's stream ends with its
response; once that is stored, the stream's events are kept only for ``delivered_grace`` seconds,
long enough for a client whose connection dropped to come back (the SSE ``retry`` is 1 s).

Eviction is oldest first (and a finished stream's events go together), so a stream is never
replayed with a gap: if an event survives, every later event survives too.

Each 2025-era session gets its own store (``EventStores``): the SDK shares the one store it is given
across sessions, and since a stream id is the request's JSON-RPC id, one client's replay would
deliver another client's events (measured: a resumed request received the other session's result).
So the store it is given (``PeerEvents``) hands each event to the store of the session it belongs
to: the current ``Peer``'s (``tools/peers.py``).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import JSONRPCError, JSONRPCMessage, JSONRPCResponse

from jupyter_mcp.tools.peers import CURRENT, Peer

_MB = 1024 * 1024


@dataclass
class _Event:
    stream_id: StreamId
    message: JSONRPCMessage | None
    size: int
    expires_at: float


class MemoryEventStore(EventStore):
    """Keeps at most ``max_events`` events and ``max_bytes`` of payload, each for at most ``max_age`` s.

    Events sit in arrival order, each stream keeps its own ids in order, and finished streams wait
    in a heap by expiry: storing and expiring cost O(log n), never a scan of every event.
    """

    def __init__(
        self,
        max_events: int = 512,
        max_age: float = 120.0,
        *,
        max_bytes: int = 64 * _MB,
        delivered_grace: float = 30.0,
        pool: EventStores | None = None,
    ) -> None:
        self.pool = pool
        """The sessions' stores this one shares a byte budget with, if any."""
        self.max_events = max_events
        self.max_age = max_age
        self.max_bytes = max_bytes
        self.delivered_grace = delivered_grace
        self._events: OrderedDict[int, _Event] = OrderedDict()
        self._streams: dict[StreamId, deque[int]] = {}
        self._finished: list[tuple[float, int, StreamId]] = []
        """A heap of (expiry, event id of the response, stream) for streams whose response is stored."""
        self._ids = itertools.count(1)
        self.tally = [0]
        """Approximate payload size of the events kept now (a list: its pool reads it after this store is gone)."""
        self._timer: asyncio.TimerHandle | None = None

    @property
    def bytes(self) -> int:
        """Approximate payload size of the events kept now."""
        return self.tally[0]

    def _sized(self, delta: int) -> None:
        self.tally[0] += delta
        if self.pool is not None:
            self.pool.total += delta

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        now = time.monotonic()
        event_id = next(self._ids)
        size = approximate_size(message)
        self._events[event_id] = _Event(stream_id, message, size, now + self.max_age)
        self._streams.setdefault(stream_id, deque()).append(event_id)
        self._sized(size)
        if isinstance(message, JSONRPCResponse | JSONRPCError):
            heapq.heappush(self._finished, (now + self.delivered_grace, event_id, stream_id))
        self._evict(now)
        self._schedule()
        return str(event_id)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        self._evict(time.monotonic())
        last = _parse_id(last_event_id)
        anchor = self._events.get(last) if last is not None else None
        if last is None or anchor is None:
            return None
        for event_id in list(self._streams.get(anchor.stream_id, ())):
            event = self._events.get(event_id)
            if event_id > last and event is not None and event.message is not None:
                await send_callback(EventMessage(event.message, str(event_id)))
        return anchor.stream_id

    def knows(self, event_id: str) -> bool:
        """Whether events after ``event_id`` can still be replayed."""
        self._evict(time.monotonic())
        parsed = _parse_id(event_id)
        return parsed is not None and parsed in self._events

    @property
    def count(self) -> int:
        """Events kept now. (No ``__len__``: the SDK tests a store for truth to enable resumability.)"""
        return len(self._events)

    def _evict(self, now: float) -> None:
        while self._finished and self._finished[0][0] <= now:
            self._drop_stream(heapq.heappop(self._finished)[2])
        while self._events:
            first_id, first = next(iter(self._events.items()))
            over = len(self._events) > self.max_events or self.bytes > self.max_bytes or self._pool_over()
            if not over and first.expires_at > now:
                break
            self._drop_oldest(first_id, first)

    def _pool_over(self) -> bool:
        return self.pool is not None and self.pool.total > self.pool.max_bytes

    def _drop_oldest(self, event_id: int, event: _Event) -> None:
        del self._events[event_id]
        self._sized(-event.size)
        ids = self._streams[event.stream_id]
        ids.popleft()  # the oldest event overall is the oldest of its stream
        if not ids:
            del self._streams[event.stream_id]

    def _drop_stream(self, stream_id: StreamId) -> None:
        for event_id in self._streams.pop(stream_id, ()):
            event = self._events.pop(event_id, None)
            if event is not None:
                self._sized(-event.size)

    def clear(self) -> None:
        """Forget every event (the session is over)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._sized(-self.bytes)
        self._events.clear()
        self._streams.clear()
        self._finished.clear()

    def _next_expiry(self) -> float | None:
        candidates = [self._finished[0][0]] if self._finished else []
        if self._events:
            candidates.append(next(iter(self._events.values())).expires_at)
        return min(candidates) if candidates else None

    def _schedule(self) -> None:
        """Wake up at the next expiry even if no request comes (an idle kernel frees its memory)."""
        due = self._next_expiry()
        if due is None:
            return
        loop = asyncio.get_running_loop()
        when = loop.time() + max(0.0, due - time.monotonic()) + 0.05
        if self._timer is not None and self._timer.when() <= when:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_at(when, self._expire)

    def _expire(self) -> None:
        self._timer = None
        self._evict(time.monotonic())
        if self._next_expiry() is not None:
            self._schedule()


class EventStores:
    """One ``MemoryEventStore`` per session (its ``Peer``), all under one byte budget; a store goes with its
    session."""

    def __init__(self, max_bytes: int = 64 * _MB, **store_options: Any) -> None:
        self.max_bytes = max_bytes
        self.total = 0
        """Approximate payload size of every store's events (kept as they change: no sum per event)."""
        self._options = store_options
        self._stores: weakref.WeakKeyDictionary[Peer, MemoryEventStore] = weakref.WeakKeyDictionary()
        self._named: weakref.WeakValueDictionary[str, Peer] = weakref.WeakValueDictionary()

    def of(self, peer: Peer) -> MemoryEventStore:
        """The peer's store (made on first use)."""
        store = self._stores.get(peer)
        if store is None:
            store = self._stores[peer] = MemoryEventStore(max_bytes=self.max_bytes, pool=self, **self._options)
            weakref.finalize(store, self._gone, store.tally)
            peer.on_end(lambda: self.drop(peer))
        return store

    def drop(self, peer: Peer) -> None:
        """The peer's session is over: nobody can resume from its events, which go now."""
        store = self._stores.pop(peer, None)
        if store is not None:
            store.clear()

    def _gone(self, tally: list[int]) -> None:
        self.total -= tally[0]

    def name(self, peer: Peer) -> None:
        """The peer's session got its id: its store can be found by it."""
        if peer.session_id is not None:
            self._named[peer.session_id] = peer

    def get(self, session_id: str) -> MemoryEventStore | None:
        peer = self._named.get(session_id)
        return self._stores.get(peer) if peer is not None else None

    def all(self) -> list[MemoryEventStore]:
        """The stores of the sessions open now."""
        return list(self._stores.values())

    def knows(self, session_id: str | None, event_id: str) -> bool:
        """Whether the session can still resume after ``event_id``."""
        store = self.get(session_id) if session_id is not None else None
        return store is not None and store.knows(event_id)

    @property
    def bytes(self) -> int:
        return self.total

    @property
    def count(self) -> int:
        return sum(store.count for store in self.all())


class PeerEvents(EventStore):
    """The one store the SDK's session manager is given: each event goes to the store of the session it belongs
    to (the current peer's); an event of no session is kept nowhere (nothing can resume from it)."""

    def __init__(self, stores: EventStores) -> None:
        self.stores = stores

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        peer = CURRENT.get()
        if peer is None:
            return "0"
        return await self.stores.of(peer).store_event(stream_id, message)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        peer = CURRENT.get()
        store = self.stores.get(peer.session_id) if peer is not None and peer.session_id is not None else None
        return await store.replay_events_after(last_event_id, send_callback) if store is not None else None


def _parse_id(event_id: str) -> int | None:
    try:
        return int(event_id)
    except ValueError:
        return None


def approximate_size(value: Any, depth: int = 0) -> int:
    """Roughly the bytes ``value`` takes on the wire: string lengths dominate (a 20 MB result is a
    few long strings), so walking the structure is far cheaper than serializing it."""
    if value is None:
        return 0
    if isinstance(value, str | bytes):
        return len(value)
    if depth > 32:
        return 64
    if isinstance(value, Mapping):
        return sum(len(str(k)) + approximate_size(v, depth + 1) + 4 for k, v in value.items())
    if isinstance(value, list | tuple):
        return sum(approximate_size(v, depth + 1) + 1 for v in value)
    if hasattr(value, "__dict__"):
        return approximate_size(vars(value), depth + 1)
    return 8
