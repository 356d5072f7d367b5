"""MemoryEventStore: bounded by count, bytes and age; finished streams kept only briefly; idle expiry."""

import asyncio

from mcp.server.streamable_http import EventMessage
from mcp_types import JSONRPCNotification, JSONRPCResponse

from jupyter_mcp.tools.transports.http.eventstore import MemoryEventStore, approximate_size

NOTE = JSONRPCNotification(jsonrpc="2.0", method="notifications/progress")


def response(request_id: int, text: str) -> JSONRPCResponse:
    return JSONRPCResponse(jsonrpc="2.0", id=request_id, result={"content": [{"type": "text", "text": text}]})


async def replayed_ids(store: MemoryEventStore, after: str) -> list[str] | None:
    seen: list[EventMessage] = []

    async def collect(message: EventMessage) -> None:
        seen.append(message)

    stream = await store.replay_events_after(after, collect)
    return None if stream is None else [m.event_id for m in seen if m.event_id is not None]


async def test_bounded_by_bytes_oldest_first() -> None:
    store = MemoryEventStore(max_bytes=3_000_000)
    ids = [await store.store_event(f"s{i}", response(i, "x" * 1_000_000)) for i in range(5)]
    assert store.count == 2
    assert store.bytes <= 3_000_000
    assert [store.knows(i) for i in ids] == [False, False, False, True, True]


async def test_a_finished_stream_is_kept_only_for_the_grace_period() -> None:
    store = MemoryEventStore(max_age=60, delivered_grace=0.2)
    prime = await store.store_event("call", None)
    progress = await store.store_event("call", NOTE)
    done = await store.store_event("call", response(1, "result"))
    listen = await store.store_event("_GET_stream", NOTE)
    assert await replayed_ids(store, prime) == [progress, done]
    await asyncio.sleep(0.5)
    # Expired by the store's own timer: no request came in between.
    assert store.count == 1
    assert store.bytes == approximate_size(NOTE)
    assert await replayed_ids(store, prime) is None
    assert store.knows(listen)


async def test_expires_by_age_while_idle() -> None:
    store = MemoryEventStore(max_age=0.2)
    await store.store_event("_GET_stream", NOTE)
    await store.store_event("call", response(2, "y" * 10_000))
    await asyncio.sleep(0.5)
    assert store.count == 0
    assert store.bytes == 0


async def test_unknown_and_junk_ids_are_not_known() -> None:
    store = MemoryEventStore()
    await store.store_event("a", NOTE)
    assert not store.knows("junk")
    assert not store.knows("999")
    assert await replayed_ids(store, "junk") is None


def test_size_estimate_counts_strings() -> None:
    assert 1_000_000 <= approximate_size(response(1, "x" * 1_000_000)) < 1_000_200


async def test_the_sessions_stores_share_one_budget_kept_as_it_changes() -> None:
    """``EventStores.bytes`` is every session's events (a running total, no sum per event); a session over the
    shared budget gives up its oldest events, and a session's events go with it."""
    from jupyter_mcp.tools.peers import Peer
    from jupyter_mcp.tools.transports.http.eventstore import EventStores

    stores = EventStores(max_bytes=3_000)
    first, second = Peer("a"), Peer("b")
    for peer in (first, second):
        stores.name(peer)
        await stores.of(peer).store_event("1", response(1, "x" * 1_000))
    assert stores.bytes == stores.of(first).bytes + stores.of(second).bytes > 2_000
    await stores.of(second).store_event("2", response(2, "y" * 1_000))  # over 3,000 in all: its oldest goes
    assert stores.bytes <= 3_000
    assert stores.get("b") is not None
    second.end()
    assert stores.get("b") is None
    assert stores.bytes == stores.of(first).bytes
