"""``ConnectionPool``: reuse per origin, most recent first; limits, expiry, servers that went away."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp._wire.origin import Origin


@pytest.fixture
async def origins() -> AsyncIterator[list[Origin]]:
    """Two servers that keep every connection open until the client closes it."""
    accepted: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)
        await reader.read()
        writer.close()

    servers = [await asyncio.start_server(hold, "127.0.0.1", 0) for _ in range(2)]
    yield [Origin("http", "127.0.0.1", server.sockets[0].getsockname()[1]) for server in servers]
    for server in servers:
        server.close()


async def test_reuse_per_origin_most_recent_first(origins: list[Origin]) -> None:
    pool = ConnectionPool(max_idle=4, idle_timeout=30)
    first, second = await pool.acquire(origins[0]), await pool.acquire(origins[0])
    other = await pool.acquire(origins[1])
    assert [first.reused, second.reused, other.reused] == [False, False, False]
    for connection in (first, second, other):
        pool.release(connection, reusable=True)
    again = await pool.acquire(origins[0])
    assert (again, again.reused) == (second, True)
    assert await pool.acquire(origins[1]) is other
    pool.close()


async def test_at_most_max_idle_are_kept(origins: list[Origin]) -> None:
    pool = ConnectionPool(max_idle=2, idle_timeout=30)
    connections = [await pool.acquire(origins[0]) for _ in range(3)]
    for connection in connections:
        pool.release(connection, reusable=True)
    assert pool._idle[origins[0]] == connections[:2]
    await asyncio.sleep(0)
    assert connections[2].writer.is_closing()
    pool.close()


async def test_unreusable_or_expired_connections_are_closed(origins: list[Origin]) -> None:
    pool = ConnectionPool(max_idle=4, idle_timeout=0.05)
    kept, dropped = await pool.acquire(origins[0]), await pool.acquire(origins[1])
    pool.release(dropped, reusable=False)  # e.g. "Connection: close"
    assert dropped.writer.is_closing()
    pool.release(kept, reusable=True)
    await asyncio.sleep(0.1)
    fresh = await pool.acquire(origins[1])  # any acquire prunes every origin's expired connections
    assert kept.writer.is_closing()
    assert origins[0] not in pool._idle
    pool.release(fresh, reusable=True)
    pool.close()
    assert fresh.writer.is_closing()


async def test_a_connection_the_server_closed_while_idle_is_not_reused() -> None:
    async def close_at_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    server = await asyncio.start_server(close_at_once, "127.0.0.1", 0)
    origin = Origin("http", "127.0.0.1", server.sockets[0].getsockname()[1])
    pool = ConnectionPool(max_idle=4, idle_timeout=30)
    connection = await pool.acquire(origin)
    pool.release(connection, reusable=True)
    await asyncio.sleep(0.1)  # the FIN arrives
    assert await pool.acquire(origin) is not connection
    pool.close()
    server.close()


async def test_a_closed_pool_opens_nothing(origins: list[Origin]) -> None:
    pool = ConnectionPool()
    pool.close()
    with pytest.raises(HttpError, match="closed") as caught:
        await pool.acquire(origins[0])
    assert caught.value.sent is False
