"""``MemoryEventStore``: lets a client resume an SSE stream after its connection drops (SEP-1699).

Bounded by count and age: resuming matters only within seconds of a drop, and events may carry
large results that should not stay in memory.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from dataclasses import dataclass

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import JSONRPCMessage


@dataclass(frozen=True)
class _Event:
    stream_id: StreamId
    message: JSONRPCMessage | None
    stored_at: float


class MemoryEventStore(EventStore):
    """Keeps the last ``max_events`` events younger than ``max_age`` seconds."""

    def __init__(self, max_events: int = 512, max_age: float = 120.0) -> None:
        self.max_events = max_events
        self.max_age = max_age
        self._events: OrderedDict[int, _Event] = OrderedDict()
        self._ids = itertools.count(1)

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        event_id = next(self._ids)
        self._events[event_id] = _Event(stream_id, message, time.monotonic())
        self._evict()
        return str(event_id)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        self._evict()
        try:
            last = int(last_event_id)
        except ValueError:
            return None
        anchor = self._events.get(last)
        if anchor is None:
            return None
        for event_id, event in list(self._events.items()):
            if event_id > last and event.stream_id == anchor.stream_id and event.message is not None:
                await send_callback(EventMessage(event.message, str(event_id)))
        return anchor.stream_id

    def _evict(self) -> None:
        oldest_allowed = time.monotonic() - self.max_age
        while self._events:
            first_id, first = next(iter(self._events.items()))
            if len(self._events) <= self.max_events and first.stored_at >= oldest_allowed:
                break
            del self._events[first_id]
