"""Reference for bench_wire.py: the proxy's former upstream client, on tornado's ``HTTP1Connection``.

Kept here verbatim (from ``jupyter_mcp/serverext/upstream.py`` before issue 10) so the figures that
chose ``jupyter_mcp/_wire`` over it can be measured again. Its own docstring follows.

A keep-alive HTTP/1.1 client for kernels' tool servers that streams both ways.

Why not tornado's ``AsyncHTTPClient``: it opens a new TCP connection per request and buffers
or callback-streams bodies without back-pressure. Here one pooled connection per concurrent
request is reused (saving a connect + accept per call), request chunks go upstream as the
client sends them, response chunks are handed to a ``ResponseSink`` whose ``body`` awaits the
client's flush (back-pressure), and TCP_NODELAY is set on every request so a small write never
waits for a delayed ACK.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from asyncio import Future
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol

from tornado import httputil
from tornado.http1connection import HTTP1Connection, HTTP1ConnectionParameters
from tornado.iostream import IOStream, StreamClosedError

# Client-side connection parameters: SSE streams may run for hours, so no body size or time limit.
_PARAMS = HTTP1ConnectionParameters(
    no_keep_alive=False, max_header_size=65536, max_body_size=sys.maxsize, decompress=False
)


class UpstreamError(Exception):
    """The kernel's tool server could not be reached, or stopped answering."""


@dataclass(frozen=True)
class Origin:
    host: str
    port: int


class ResponseSink(Protocol):
    """Where an upstream response goes, as it arrives."""

    def start(self, code: int, reason: str, headers: httputil.HTTPHeaders) -> None: ...

    def body(self, chunk: bytes) -> Awaitable[None] | None: ...


@dataclass
class _Idle:
    stream: IOStream
    since: float


class ConnectionPool:
    """Idle keep-alive connections per origin, reused most-recent first."""

    def __init__(self, *, connect_timeout: float, max_idle: int, idle_timeout: float) -> None:
        self.connect_timeout = connect_timeout
        self.max_idle = max_idle
        self.idle_timeout = idle_timeout
        self._idle: dict[Origin, list[_Idle]] = {}

    async def acquire(self, origin: Origin) -> IOStream:
        self._prune()
        idle = self._idle.get(origin, [])
        while idle:
            stream = idle.pop().stream
            if _still_open(stream):
                return stream
            stream.close()
        return await self._connect(origin)

    def release(self, origin: Origin, stream: IOStream) -> None:
        idle = self._idle.setdefault(origin, [])
        if stream.closed() or len(idle) >= self.max_idle:
            stream.close()
            return
        idle.append(_Idle(stream, time.monotonic()))

    def forget(self, origin: Origin) -> None:
        """Close every idle connection to ``origin`` (its server went away)."""
        for entry in self._idle.pop(origin, []):
            entry.stream.close()

    def close(self) -> None:
        for origin in list(self._idle):
            self.forget(origin)

    async def _connect(self, origin: Origin) -> IOStream:
        family = socket.AF_INET6 if ":" in origin.host else socket.AF_INET
        stream = IOStream(socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP))
        try:
            await asyncio.wait_for(stream.connect((origin.host.strip("[]"), origin.port)), self.connect_timeout)
        except (OSError, StreamClosedError, TimeoutError) as error:
            stream.close()
            raise UpstreamError(f"cannot connect to the kernel's tool server at {_name(origin)}: {error}") from None
        return stream

    def _prune(self) -> None:
        deadline = time.monotonic() - self.idle_timeout
        for idle in self._idle.values():
            while idle and idle[0].since < deadline:
                idle.pop(0).stream.close()


def _still_open(stream: IOStream) -> bool:
    """Whether an idle connection can be reused (the server may have closed it meanwhile)."""
    if stream.closed():
        return False
    try:
        stream.socket.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return True  # nothing to read: open and quiet
    except OSError:
        return False
    return False  # EOF (b""), or bytes nobody asked for: either way unusable


def _name(origin: Origin) -> str:
    return f"{origin.host}:{origin.port}"


class _Reader(httputil.HTTPMessageDelegate):
    """Hands a response to a sink as it arrives, and notes whether the connection stays usable."""

    def __init__(self, sink: ResponseSink) -> None:
        self.sink = sink
        self.complete = False
        self.keep_alive = False

    def headers_received(
        self, start_line: httputil.RequestStartLine | httputil.ResponseStartLine, headers: httputil.HTTPHeaders
    ) -> None:
        assert isinstance(start_line, httputil.ResponseStartLine)
        self.keep_alive = headers.get("Connection", "").lower() != "close"
        self.sink.start(start_line.code, start_line.reason, headers)

    def data_received(self, chunk: bytes) -> Awaitable[None] | None:
        return self.sink.body(chunk)

    def finish(self) -> None:
        self.complete = True


class Exchange:
    """One request and its streamed response on a pooled connection.

    Example::

        exchange = await Exchange.open(pool, origin, "POST", "/mcp", headers)
        await exchange.send(body_chunk)
        await exchange.end_request()
        await exchange.receive(sink)
    """

    def __init__(
        self, pool: ConnectionPool, origin: Origin, stream: IOStream, start_line: httputil.RequestStartLine
    ) -> None:
        self._pool = pool
        self._origin = origin
        self._stream = stream
        self._connection = HTTP1Connection(stream, True, _PARAMS)
        self._start_line = start_line
        self._headers: httputil.HTTPHeaders | None = None
        self.aborted = False

    @classmethod
    async def open(
        cls, pool: ConnectionPool, origin: Origin, method: str, path: str, headers: httputil.HTTPHeaders
    ) -> Exchange:
        stream = await pool.acquire(origin)
        stream.set_nodelay(True)
        exchange = cls(pool, origin, stream, httputil.RequestStartLine(method, path, "HTTP/1.1"))
        exchange._headers = headers
        return exchange

    def send(self, chunk: bytes) -> Future[None]:
        """Forward a piece of the request body (the headers go in the same write as the first piece)."""
        if self._headers is not None:
            headers, self._headers = self._headers, None
            return self._connection.write_headers(self._start_line, headers, chunk)
        return self._connection.write(chunk)

    async def end_request(self) -> None:
        """The request is complete (its headers go now if there was no body)."""
        try:
            if self._headers is not None:
                headers, self._headers = self._headers, None
                await self._connection.write_headers(self._start_line, headers)
            self._connection.finish()
        except (StreamClosedError, httputil.HTTPOutputError):
            raise UpstreamError("the kernel's tool server closed the connection") from None

    async def receive(self, sink: ResponseSink) -> None:
        """Stream the response into ``sink``; the connection then goes back to the pool if it can.

        Raises ``UpstreamError`` when the response was cut short (unless ``abort`` was called).
        """
        reader = _Reader(sink)
        try:
            open_after = await self._connection.read_response(reader)
        except StreamClosedError:
            open_after = False
        if self.aborted:
            return
        if not reader.complete:
            self._connection.close()
            raise UpstreamError("the kernel's tool server stopped answering")
        if open_after and reader.keep_alive and not self._stream.closed():
            self._pool.release(self._origin, self._connection.detach())
        else:
            self._connection.close()

    def abort(self) -> None:
        """Drop the upstream connection (the client went away; the kernel then ends its stream)."""
        self.aborted = True
        self._connection.close()
