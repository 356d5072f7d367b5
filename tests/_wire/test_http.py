"""``Exchange`` and ``Response`` (the proxy's use): streamed request bodies, framing, interim and
bodiless responses, large bodies in pieces, and what a broken server looks like."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response as StarletteResponse
from starlette.responses import StreamingResponse
from starlette.routing import Route

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp._wire.http import Exchange, parse_head
from jupyter_mcp._wire.origin import Origin, split_url
from jupyter_mcp.tools.transports.http.serving import BackgroundServer

BIG = bytes(range(256)) * 4096  # 1 MiB


async def echo(request: Request) -> StarletteResponse:
    body = b"".join([chunk async for chunk in request.stream()])
    framing = "chunked" if request.headers.get("transfer-encoding") == "chunked" else "sized"
    return StarletteResponse(body, headers={"x-framing": framing, "x-twice": "a"}, media_type="text/plain")


async def big(request: Request) -> StreamingResponse:
    async def parts() -> AsyncIterator[bytes]:
        yield BIG  # one HTTP chunk of 1 MiB

    return StreamingResponse(parts(), media_type="application/octet-stream")


async def empty(request: Request) -> StarletteResponse:
    return StarletteResponse(status_code=204)


APP = Starlette(
    routes=[Route("/echo", echo, methods=["POST"]), Route("/big", big), Route("/empty", empty, methods=["DELETE"])]
)


@pytest.fixture(scope="module")
def origin() -> Iterator[Origin]:
    runner = BackgroundServer(APP, "127.0.0.1", 0)
    runner.start()
    try:
        yield split_url(f"http://127.0.0.1:{runner.port}/")[0]
    finally:
        runner.stop()


@pytest.fixture
async def pool() -> AsyncIterator[ConnectionPool]:
    pool = ConnectionPool(connect_timeout=5.0, max_idle=4, idle_timeout=3.0)
    yield pool
    pool.close()


def host(origin: Origin) -> list[tuple[str, str]]:
    return [("Host", origin.host_header)]


async def test_a_body_without_length_goes_chunked_piece_by_piece(origin: Origin, pool: ConnectionPool) -> None:
    exchange = await Exchange.open(pool, origin, "POST", "/echo", host(origin))
    for piece in (b"one,", b"", b"two,", b"three"):
        waiting = exchange.send(piece)
        if waiting is not None:
            await waiting
    exchange.end_request()
    response = await exchange.response()
    assert (response.status, response.reason, await response.read()) == (200, "OK", b"one,two,three")
    assert response.headers["x-framing"] == "chunked"
    assert ("x-twice", "a") in response.fields


async def test_a_sized_body_and_connection_reuse(origin: Origin, pool: ConnectionPool) -> None:
    for attempt in range(3):
        exchange = await Exchange.open(pool, origin, "POST", "/echo", [*host(origin), ("Content-Length", "5")])
        assert exchange.reused is (attempt > 0)
        exchange.send(b"hello")
        exchange.end_request()
        response = await exchange.response()
        assert (await response.read(), response.headers["x-framing"]) == (b"hello", "sized")
        exchange.close()  # a no-op: the connection is back in the pool


async def test_a_body_that_breaks_its_content_length_is_refused(origin: Origin, pool: ConnectionPool) -> None:
    exchange = await Exchange.open(pool, origin, "POST", "/echo", [*host(origin), ("Content-Length", "5")])
    exchange.send(b"hi")
    with pytest.raises(HttpError, match="had 2 bytes, not its Content-Length 5"):
        exchange.end_request()


async def test_a_large_body_comes_in_pieces_of_at_most_64_kib(origin: Origin, pool: ConnectionPool) -> None:
    exchange = await Exchange.open(pool, origin, "GET", "/big", host(origin))
    exchange.end_request()
    response = await exchange.response()
    pieces = [piece async for piece in response.chunks()]
    assert b"".join(pieces) == BIG
    assert len(pieces) >= 16
    assert max(map(len, pieces)) <= 64 * 1024


async def test_no_content_has_no_body(origin: Origin, pool: ConnectionPool) -> None:
    exchange = await Exchange.open(pool, origin, "DELETE", "/empty", host(origin))
    exchange.end_request()
    response = await exchange.response()
    assert (response.status, await response.read()) == (204, b"")
    assert len(pool._idle[origin]) == 1  # reusable: nothing left to read


async def test_a_header_with_a_line_break_is_refused_before_connecting() -> None:
    pool = ConnectionPool()
    with pytest.raises(ValueError, match="line break"):
        await Exchange.open(pool, Origin("http", "127.0.0.1", 9), "GET", "/", [("X-Bad", "a\r\nInjected: 1")])


# ---- hand-made servers: interim answers, early closes, nonsense --------------------------------------

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def serve(handler: Handler) -> tuple[asyncio.Server, Origin]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, Origin("http", "127.0.0.1", server.sockets[0].getsockname()[1])


async def get(origin: Origin, pool: ConnectionPool) -> bytes:
    exchange = await Exchange.open(pool, origin, "GET", "/", host(origin))
    exchange.end_request()
    return await (await exchange.response()).read()


async def test_interim_responses_are_skipped(pool: ConnectionPool) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()

    server, origin = await serve(answer)
    assert await get(origin, pool) == b"ok"
    server.close()


async def test_a_body_until_close_is_read_and_the_connection_not_kept(pool: ConnectionPool) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\n\r\nall of it")
        await writer.drain()
        writer.close()

    server, origin = await serve(answer)
    assert await get(origin, pool) == b"all of it"
    assert not pool._idle.get(origin)
    server.close()


@pytest.mark.parametrize(
    ("reply", "message", "sent"),
    [
        (b"", "no response: the server closed the connection", True),  # a fresh connection: it may have run
        (b"SSH-2.0-OpenSSH\r\n\r\n", "not an HTTP response: 'SSH-2.0-OpenSSH'", True),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "broke mid-response: the server closed", True),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "broke mid-response", True),
    ],
    ids=["closed", "not-http", "short-body", "bad-chunk"],
)
async def test_broken_servers_are_an_http_error(pool: ConnectionPool, reply: bytes, message: str, sent: bool) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(reply)
        await writer.drain()
        writer.close()

    server, origin = await serve(answer)
    with pytest.raises(HttpError, match=message) as caught:
        await get(origin, pool)
    assert caught.value.sent is sent
    assert not pool._idle.get(origin)
    server.close()


async def test_nothing_listening_is_an_error_before_sending(pool: ConnectionPool) -> None:
    with pytest.raises(HttpError, match="connection refused") as caught:
        await Exchange.open(pool, Origin("http", "127.0.0.1", 9), "GET", "/", [])
    assert caught.value.sent is False


async def test_closing_an_exchange_mid_response_disconnects(pool: ConnectionPool) -> None:
    gone = asyncio.Event()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n")
        await writer.drain()
        await reader.read()  # EOF: the client went away
        gone.set()

    server, origin = await serve(answer)
    exchange = await Exchange.open(pool, origin, "GET", "/", host(origin))
    exchange.end_request()
    chunks = (await exchange.response()).chunks()
    assert await anext(chunks) == b"first"
    exchange.close()
    await asyncio.wait_for(gone.wait(), 10)
    with pytest.raises(HttpError):
        await anext(chunks)
    server.close()


def test_parse_head() -> None:
    raw = b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nX-A: 1\r\nX-A: 2\r\n\r\n"
    assert parse_head(raw) == (404, "Not Found", [("content-type", "text/plain"), ("x-a", "1"), ("x-a", "2")])
    assert parse_head(b"HTTP/1.1 200\r\n\r\n") == (200, "", [])
    with pytest.raises(ValueError, match="not an HTTP response"):
        parse_head(b"HTTP/1.1 OK\r\n\r\n")
