"""One HTTP/1.1 request and its response on a pooled connection, both bodies streamed.

Why a hand-written client, and why this one serves both the Jupyter server's proxy and the
``connect`` bridge (figures in bench/README.md, "proxy" and "connect"):

- httpx (the bridge's first client) cost ~0.5 ms of Python per request; tornado's
  ``AsyncHTTPClient`` opens a connection per request and has no back-pressure on streamed bodies.
- The proxy first had its own client on tornado's ``HTTP1Connection``/``IOStream``. Tornado runs on
  asyncio, so this asyncio-streams client runs inside the Jupyter server as well; measured on the
  same requests it used about half the CPU per exchange, so the proxy now uses it too. The bridge
  cannot use tornado at all: the core install (``connect``, ``list``) does not depend on it.

What it does: the request head goes in the same ``send`` as the first body chunk; the request body
is streamed (sized, or chunked when the caller gives no Content-Length); the response body comes
as it arrives, in pieces of at most 64 KiB, pulled by the caller (back-pressure); a response read
to its end hands the connection back to the pool; ``close`` drops an unfinished one, so the server
sees the client go.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable

from jupyter_mcp._wire.connections import Connection, ConnectionPool
from jupyter_mcp._wire.errors import HttpError, describe
from jupyter_mcp._wire.origin import Origin

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
_PIECE = 64 * 1024
_HIGH_WATER = 64 * 1024
"""Bytes queued for the server above which ``send`` asks its caller to wait (back-pressure)."""
_BROKEN = (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError)
"""What a connection that breaks (or a server that speaks no HTTP) raises mid-body."""
_Request = tuple[bytes, int | None, bool]
"""A request's head, its body's Content-Length, and whether the body goes chunked."""


class Exchange:
    """One request and its response.

    Example::

        exchange = await Exchange.open(pool, origin, "POST", "/mcp", [("Content-Length", "2")])
        exchange.send(b"{}")
        exchange.end_request()
        response = await exchange.response()
        async for chunk in response.chunks(): ...
    """

    def __init__(self, pool: ConnectionPool, connection: Connection, method: str, request: _Request) -> None:
        self._pool = pool
        self._connection: Connection | None = connection
        self.method = method
        self.reused = connection.reused
        """Whether the connection served a request before (an error may then mean it had gone stale)."""
        self._head, self._length, self._chunked = request
        self._sent = 0

    @classmethod
    async def open(
        cls,
        pool: ConnectionPool,
        origin: Origin,
        method: str,
        target: str,
        headers: Iterable[tuple[str, str]],
        *,
        preset: bytes = b"",
        fresh: bool = False,
    ) -> Exchange:
        """Take a pooled connection (or open one); nothing is sent until ``send`` or ``end_request``.

        The caller gives a Content-Length for a sized body; without one a POST, PUT or PATCH body
        goes chunked. ``preset``: more header lines, encoded once by ``encode_headers`` (no
        Content-Length among them). ``fresh``: on a new connection (to repeat a request that a
        reused one lost). ``HttpError`` (never sent) when the server cannot be reached.
        """
        request = _request_head(method, target, headers, preset)
        return cls(pool, await (pool.connect(origin) if fresh else pool.acquire(origin)), method, request)

    def send(self, chunk: bytes) -> asyncio.Future[None] | None:
        """Send a piece of the request body. Never raises: a failed write shows in ``response``.

        Returns a future to wait on only when the server is slow to take the data.
        """
        if not chunk:
            return None
        self._sent += len(chunk)
        data = b"%x\r\n%b\r\n" % (len(chunk), chunk) if self._chunked else chunk
        return self._write(data)

    def end_request(self) -> None:
        """The request is complete (its head goes now if there was no body)."""
        if self._length is not None and self._sent != self._length:
            self.close()
            message = f"the request body had {self._sent} bytes, not its Content-Length {self._length}"
            raise HttpError(message, sent=True)
        self._write(b"0\r\n\r\n" if self._chunked else b"")

    async def response(self) -> Response:
        """Read the response head (interim 1xx responses skipped); the body is read from ``Response``."""
        connection = self._connection
        if connection is None:
            raise HttpError("the request was abandoned", sent=True)
        try:
            status, reason, fields = parse_head(await connection.reader.readuntil(b"\r\n\r\n"))
            while 100 <= status < 200:  # an interim answer (100 Continue): the real one follows
                status, reason, fields = parse_head(await connection.reader.readuntil(b"\r\n\r\n"))
        except (OSError, asyncio.IncompleteReadError) as exc:
            self.close()
            # A reused connection that broke before any answer: the server had closed it while idle.
            raise HttpError(f"no response: {describe(exc)}", sent=not connection.reused) from exc
        except asyncio.LimitOverrunError as exc:
            self.close()
            raise HttpError("the response head is too large", sent=True) from exc
        except ValueError as exc:
            self.close()
            raise HttpError(str(exc), sent=True) from exc
        except BaseException:
            self.close()  # cancelled mid-request: the server must see the disconnect
            raise
        return Response(self, connection.reader, status, reason, fields)

    def close(self) -> None:
        """Drop the connection unless its response was read to the end (then it is back in the pool)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()

    def finish(self, *, reusable: bool) -> None:
        """The response was read to its end: the connection goes back to the pool."""
        connection, self._connection = self._connection, None
        if connection is not None:
            self._pool.release(connection, reusable=reusable)

    def _write(self, data: bytes) -> asyncio.Future[None] | None:
        head, self._head = self._head, b""
        connection = self._connection
        if not (head or data) or connection is None or connection.writer.is_closing():
            return None
        connection.writer.write(head + data if head else data)
        if connection.writer.transport.get_write_buffer_size() <= _HIGH_WATER:
            return None
        return asyncio.ensure_future(_drained(connection.writer))


class Response:
    """Status, headers and a body read on demand.

    ``fields`` keeps every header line in order (for a proxy to forward), names in lower case;
    ``headers`` maps each name to its value (the last one wins).
    """

    def __init__(
        self,
        exchange: Exchange,
        reader: asyncio.StreamReader,
        status: int,
        reason: str,
        fields: list[tuple[str, str]],
    ) -> None:
        self._exchange = exchange
        self._reader = reader
        self.status = status
        self.reason = reason
        self.fields = fields
        self.headers = dict(fields)
        self._length, self._chunked, self._keep_alive = _body_framing(exchange.method, status, self.headers)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").partition(";")[0].strip().lower()

    async def read(self) -> bytes:
        return b"".join([chunk async for chunk in self.chunks()])

    async def chunks(self) -> AsyncIterator[bytes]:
        """The body as it arrives; the connection goes back to the pool once it is all read.

        Raises ``HttpError`` (sent) when the connection breaks first.
        """
        reader = self._reader
        try:
            if self._chunked:
                while size := int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16):
                    while size > _PIECE:
                        piece = await _piece(reader, size)
                        size -= len(piece)
                        yield piece
                    piece = await reader.readexactly(size + 2)  # the rest of the chunk and its CRLF, in one read
                    if not piece.endswith(b"\r\n"):
                        raise ValueError("a chunk of the response did not end where its size said")
                    yield piece[:-2]
                while await reader.readuntil(b"\r\n") != b"\r\n":
                    pass  # trailer fields, unused
            elif self._length is not None:
                size = self._length
                while size:
                    piece = await _piece(reader, size)
                    size -= len(piece)
                    yield piece
            else:
                while piece := await reader.read(_PIECE):
                    yield piece
        except _BROKEN as exc:
            self.close()
            raise HttpError(f"the connection broke mid-response: {describe(exc)}", sent=True) from exc
        self._exchange.finish(reusable=self._keep_alive)

    def close(self) -> None:
        """Abort: drop the connection (the server sees a disconnect); a no-op once the body was read."""
        self._exchange.close()


def encode_headers(headers: Iterable[tuple[str, str]]) -> bytes:
    """Header lines; a header with a line break is a ``ValueError``."""
    return _header_lines(headers, [])[0].encode("latin-1")


def _header_lines(headers: Iterable[tuple[str, str]], lines: list[str]) -> tuple[str, int | None]:
    """``lines`` plus the header lines, joined; and the Content-Length among the headers, if any."""
    length = None
    for name, value in headers:
        if "\r" in value or "\n" in value or "\r" in name or "\n" in name:
            raise ValueError(f"header {name!r} contains a line break")
        if name.lower() == "content-length":
            length = int(value)
        lines.append(f"{name}: {value}\r\n")
    return "".join(lines), length


def _request_head(method: str, target: str, headers: Iterable[tuple[str, str]], preset: bytes) -> _Request:
    lines, length = _header_lines(headers, [])
    chunked = length is None and method in _BODY_METHODS
    end = b"Transfer-Encoding: chunked\r\n\r\n" if chunked else b"\r\n"
    return f"{method} {target} HTTP/1.1\r\n".encode("latin-1") + preset + lines.encode("latin-1") + end, length, chunked


def _body_framing(method: str, status: int, headers: dict[str, str]) -> tuple[int | None, bool, bool]:
    """How the response body ends: (Content-Length, chunked, connection reusable after it)."""
    keep_alive = headers.get("connection", "").lower() != "close"
    if method == "HEAD" or status in (204, 304):
        return 0, False, keep_alive
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return None, True, keep_alive
    if (length := headers.get("content-length")) is not None:
        return int(length), False, keep_alive
    return None, False, False  # the body runs until the server closes


def parse_head(raw: bytes) -> tuple[int, str, list[tuple[str, str]]]:
    """Status, reason and header fields (names in lower case) of a response head; ``ValueError`` if it is none."""
    lines = raw.decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    code, _, reason = rest.partition(" ")
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise ValueError(f"not an HTTP response: {lines[0][:80]!r}")
    fields = []
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            fields.append((name.strip().lower(), value.strip()))
    return int(code), reason, fields


async def _piece(reader: asyncio.StreamReader, size: int) -> bytes:
    """The next piece of ``size`` bytes still to come: all of them when small, else what has arrived."""
    if size <= _PIECE:
        return await reader.readexactly(size)
    piece = await reader.read(_PIECE)
    if not piece:
        raise asyncio.IncompleteReadError(b"", size)
    return piece


async def _drained(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):  # a broken connection shows in the response, not in the body upload
        await writer.drain()
