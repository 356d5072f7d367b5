"""The HTTP server: a response head goes out with its body, and nothing is lost or reordered."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from starlette.types import Receive, Scope, Send

from jupyter_mcp.tools.transports.http.serving import BackgroundServer, _HeadWithBody


class _Recorded:
    """Stands in for a socket transport: what was written, in order."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> Any:
        return f"info:{name}"


HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


async def test_the_head_and_the_body_are_one_write() -> None:
    recorded = _Recorded()
    transport = _HeadWithBody(recorded, asyncio.get_running_loop())  # type: ignore[arg-type]
    transport.write(HEAD)
    transport.write(b"{}")
    assert recorded.writes == [HEAD + b"{}"]
    assert transport.get_extra_info("peername") == "info:peername"


async def test_a_head_without_a_body_yet_goes_out_at_the_end_of_the_loop_turn() -> None:
    recorded = _Recorded()
    transport = _HeadWithBody(recorded, asyncio.get_running_loop())  # type: ignore[arg-type]
    transport.write(HEAD)
    assert recorded.writes == []
    await asyncio.sleep(0)
    assert recorded.writes == [HEAD]
    transport.write(b"{}")
    assert recorded.writes == [HEAD, b"{}"]


async def test_closing_sends_a_held_head_first_and_a_big_body_is_not_copied() -> None:
    recorded = _Recorded()
    transport = _HeadWithBody(recorded, asyncio.get_running_loop())  # type: ignore[arg-type]
    transport.write(HEAD)
    transport.close()
    assert recorded.writes == [HEAD]
    assert recorded.closed
    recorded = _Recorded()
    transport = _HeadWithBody(recorded, asyncio.get_running_loop())  # type: ignore[arg-type]
    big = b"x" * (1 << 20)
    transport.write(HEAD)
    transport.write(big)
    assert recorded.writes == [HEAD, big]


async def _app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] != "http":
        return
    if scope["path"] == "/stream":  # head, then events a loop turn apart
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        for part in (b"one,", b"two,", b"three"):
            await asyncio.sleep(0.01)
            await send({"type": "http.response.body", "body": part, "more_body": part != b"three"})
        return
    body = scope["path"].encode()
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", str(len(body)).encode())]}
    )
    await send({"type": "http.response.body", "body": body})


def _exchange(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def test_kept_alive_and_streamed_responses_arrive_whole_and_in_order() -> None:
    server = BackgroundServer(_app)
    server.start()
    try:
        assert server.port is not None
        two = b"GET /a HTTP/1.1\r\nhost: x\r\n\r\nGET /bb HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
        got = _exchange(server.port, two)
        assert got.count(b"HTTP/1.1 200 OK") == 2
        assert got.index(b"\r\n\r\n/a") < got.index(b"\r\n\r\n/bb")
        streamed = _exchange(server.port, b"GET /stream HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        head, _, body = streamed.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 OK")
        assert b"transfer-encoding: chunked" in head
        assert body == b"4\r\none,\r\n4\r\ntwo,\r\n5\r\nthree\r\n0\r\n\r\n"
    finally:
        server.stop()
