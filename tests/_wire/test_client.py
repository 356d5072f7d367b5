"""``HttpClient`` (the bridge's) against a real uvicorn server: sized, chunked, streamed, reused, aborted."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from jupyter_mcp._wire.client import HttpClient
from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp._wire.origin import split_url
from jupyter_mcp.tools.transports.http.serving import BackgroundServer

disconnected = threading.Event()
"""Set from the server's own thread (its loop is not the test's)."""


async def echo(request: Request) -> Response:
    body = await request.body()
    return Response(body, headers={"x-auth": request.headers.get("authorization", "")}, media_type="text/plain")


async def chunks(request: Request) -> StreamingResponse:
    async def parts() -> AsyncIterator[bytes]:
        for part in (b"one,", b"two,", b"three"):
            yield part

    return StreamingResponse(parts(), media_type="text/plain")


async def forever(request: Request) -> StreamingResponse:
    async def parts() -> AsyncIterator[bytes]:
        yield b"first"
        try:
            while True:
                await asyncio.sleep(0.05)
                yield b""
        finally:
            disconnected.set()

    return StreamingResponse(parts(), media_type="text/plain")


APP = Starlette(
    routes=[
        Route("/echo", echo, methods=["POST"]),
        Route("/chunks", chunks, methods=["GET"]),
        Route("/forever", forever, methods=["GET"]),
    ]
)


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    runner = BackgroundServer(APP, "127.0.0.1", 0)
    runner.start()
    try:
        yield f"http://127.0.0.1:{runner.port}"
    finally:
        runner.stop()


async def test_sized_bodies_and_connection_reuse(base: str) -> None:
    client = HttpClient(f"{base}/echo", {"authorization": "Bearer t"})
    first = await client.request("POST", {}, b"hello")
    assert (first.status, await first.read(), first.headers["x-auth"]) == (200, b"hello", "Bearer t")
    second = await client.request("POST", {}, b"again")
    assert await second.read() == b"again"
    assert len(client._pool._idle[client.origin]) == 1  # one keep-alive connection served both
    client.close()


async def test_chunked_bodies_stream(base: str) -> None:
    client = HttpClient(f"{base}/chunks")
    response = await client.request("GET", {})
    assert response.headers["transfer-encoding"] == "chunked"
    assert [chunk async for chunk in response.chunks()] == [b"one,", b"two,", b"three"]
    client.close()


async def test_closing_a_response_disconnects(base: str) -> None:
    disconnected.clear()
    client = HttpClient(f"{base}/forever")
    response = await client.request("GET", {})
    async for chunk in response.chunks():
        assert chunk == b"first"
        break
    response.close()
    assert await asyncio.to_thread(disconnected.wait, 10)  # the server saw the client go
    client.close()


async def test_a_stale_idle_connection_is_replaced(base: str) -> None:
    client = HttpClient(f"{base}/echo")
    await (await client.request("POST", {}, b"x")).read()
    (idle,) = client._pool._idle[client.origin]
    idle.writer.transport.abort()  # as if the server had closed it while idle
    assert await (await client.request("POST", {}, b"y")).read() == b"y"
    client.close()


async def test_a_reused_connection_the_server_dropped_is_retried_once() -> None:
    answered: list[int] = []

    async def one_answer_per_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Answers the first request, then drops the connection at the next (an idle-timeout race).
        await reader.readuntil(b"\r\n\r\n")
        await reader.readexactly(2)
        answered.append(1)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        writer.close()

    server = await asyncio.start_server(one_answer_per_connection, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = HttpClient(f"http://127.0.0.1:{port}/")
    assert await (await client.request("POST", {}, b"{}")).read() == b"ok"
    assert await (await client.request("POST", {}, b"{}")).read() == b"ok"
    assert len(answered) == 2  # the second answer came from a fresh connection
    with pytest.raises(HttpError) as caught:
        await client.request("POST", {}, b"{}", repeatable=False)
    assert caught.value.sent is True  # a tool call is not sent twice: its outcome is unknown
    assert len(answered) == 2
    client.close()
    server.close()


async def test_nothing_listening_is_an_error_before_sending() -> None:
    client = HttpClient("http://127.0.0.1:9/mcp")
    with pytest.raises(HttpError) as caught:
        await client.request("POST", {}, b"{}")
    assert caught.value.sent is False
    assert str(caught.value) == "connection refused"


def test_split_url() -> None:
    origin, target = split_url("http://[::1]:8888/mcp/kernels/abc?token=x")
    assert (origin.host, origin.port, target, origin.host_header) == (
        "::1",
        8888,
        "/mcp/kernels/abc?token=x",
        "[::1]:8888",
    )
    assert split_url("https://example.com/mcp")[0].host_header == "example.com"
    assert str(split_url("http://example.com:80")[0]) == "http://example.com"
    with pytest.raises(ValueError, match="not an http"):
        split_url("ws://example.com/mcp")
    with pytest.raises(ValueError, match="bad port"):
        split_url("http://example.com:99999/mcp")
