"""``MemoryEventStore``: lets a client resume an SSE stream after its connection drops (SEP-1699).

Resuming matters only within seconds of a drop, and events may carry large results, so the store
is bounded three ways: by count, by (approximate) bytes, and by age — and the age limit is
enforced by a timer, so an idle server lets go of memory too. A request's stream ends with its
response; once that is stored, the stream's events are kept only for ``delivered_grace`` seconds,
long enough for a client whose connection dropped to come back (the SSE ``retry`` is 1 s).

Eviction is oldest first (and a finished stream's events go together), so a stream is never
replayed with a gap: if an event survives, every later event survives too.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import JSONRPCError, JSONRPCMessage, JSONRPCResponse

_MB = 1024 * 1024


@dataclass
class _Event:
    stream_id: StreamId
    message: JSONRPCMessage | None
    size: int
    expires_at: float


class MemoryEventStore(EventStore):
    """Keeps at most ``max_events`` events and ``max_bytes`` of payload, each for at most ``max_age`` s."""

    def __init__(
        self,
        max_events: int = 512,
        max_age: float = 120.0,
        *,
        max_bytes: int = 64 * _MB,
        delivered_grace: float = 30.0,
    ) -> None:
        self.max_events = max_events
        self.max_age = max_age
        self.max_bytes = max_bytes
        self.delivered_grace = delivered_grace
        self._events: OrderedDict[int, _Event] = OrderedDict()
        self._ids = itertools.count(1)
        self.bytes = 0
        """Approximate payload size of the events kept now."""
        self._timer: asyncio.TimerHandle | None = None

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        now = time.monotonic()
        event_id = next(self._ids)
        size = approximate_size(message)
        self._events[event_id] = _Event(stream_id, message, size, now + self.max_age)
        self.bytes += size
        if isinstance(message, JSONRPCResponse | JSONRPCError):
            self._finish_stream(stream_id, now + self.delivered_grace)
        self._evict(now)
        self._schedule()
        return str(event_id)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        self._evict(time.monotonic())
        last = _parse_id(last_event_id)
        anchor = self._events.get(last) if last is not None else None
        if last is None or anchor is None:
            return None
        for event_id, event in list(self._events.items()):
            if event_id > last and event.stream_id == anchor.stream_id and event.message is not None:
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

    def _finish_stream(self, stream_id: StreamId, expires_at: float) -> None:
        for event in self._events.values():
            if event.stream_id == stream_id:
                event.expires_at = min(event.expires_at, expires_at)

    def _evict(self, now: float) -> None:
        while self._events and (len(self._events) > self.max_events or self.bytes > self.max_bytes):
            self._drop(next(iter(self._events)))
        for event_id in [i for i, e in self._events.items() if e.expires_at <= now]:
            self._drop(event_id)

    def _drop(self, event_id: int) -> None:
        event = self._events.pop(event_id)
        self.bytes -= event.size

    def _schedule(self) -> None:
        """Wake up at the next expiry even if no request comes (an idle kernel frees its memory)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._events:
            return
        delay = max(0.0, min(e.expires_at for e in self._events.values()) - time.monotonic())
        self._timer = asyncio.get_running_loop().call_later(delay + 0.05, self._expire)

    def _expire(self) -> None:
        self._timer = None
        self._evict(time.monotonic())
        self._schedule()


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
