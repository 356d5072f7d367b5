"""A small HTTP/1.1 client for the bridge: keep-alive connections, streamed bodies, abortable.

The bridge forwards each JSON-RPC line as one POST and streams the answer back. A general
client (httpx) costs ~0.5 ms per request in Python; this one writes the request in one
``send`` and reads chunked or sized bodies straight off an ``asyncio.StreamReader``.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

_CONNECT_TIMEOUT = 5.0
_MAX_IDLE = 2.0
"""Seconds an idle connection stays reusable: well under servers' keep-alive timeouts (uvicorn: 5 s),
so a reused connection that breaks means trouble, not an idle close racing our request."""
_HEAD_LIMIT = 64 * 1024
_READ_LIMIT = 64 * 1024 * 1024


class HttpError(Exception):
    """A request could not be completed; ``sent`` says whether the server may have seen it."""

    def __init__(self, message: str, *, sent: bool) -> None:
        super().__init__(message)
        self.sent = sent


@dataclass(frozen=True)
class Origin:
    """Where requests go: scheme, host, port and the request target (path + query)."""

    scheme: str
    host: str
    port: int
    target: str

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"


def parse_origin(url: str) -> Origin:
    """Split an ``http(s)://`` URL; anything else is a ``ValueError`` that says why."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {url!r}")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ValueError(f"bad port in URL {url!r}") from None
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Origin(parts.scheme, parts.hostname, port, target)


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.reused = False
        self.idle_since = 0.0

    @property
    def usable(self) -> bool:
        fresh = time.monotonic() - self.idle_since < _MAX_IDLE
        return fresh and not self.writer.is_closing() and not self.reader.at_eof()

    def close(self) -> None:
        self.writer.close()


class Response:
    """Status, headers and a body read on demand; ``close()`` aborts, finishing the body releases."""

    def __init__(self, pool: HttpClient, connection: _Connection, status: int, headers: dict[str, str]) -> None:
        self._pool = pool
        self._connection: _Connection | None = connection
        self.status = status
        self.headers = headers
        length = headers.get("content-length")
        self._remaining = int(length) if length is not None else None
        self._chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        self._keep_alive = headers.get("connection", "").lower() != "close"
        if not self._chunked and self._remaining is None:
            self._keep_alive = False  # the body runs until the server closes

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").partition(";")[0].strip().lower()

    async def read(self) -> bytes:
        return b"".join([chunk async for chunk in self.chunks()])

    async def chunks(self) -> AsyncIterator[bytes]:
        """The body as it arrives; the connection goes back to the pool once it is all read."""
        connection = self._connection
        if connection is None:
            return
        try:
            async for chunk in self._body(connection.reader):
                yield chunk
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            self.close()
            raise HttpError(f"the connection broke mid-response: {_describe(exc)}", sent=True) from exc
        self._finish()

    async def _body(self, reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
        if self._chunked:
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
                if size == 0:
                    while await reader.readuntil(b"\r\n") != b"\r\n":
                        pass  # trailer fields, unused
                    return
                chunk = await reader.readexactly(size + 2)
                yield chunk[:-2]
        elif self._remaining is not None:
            if self._remaining:
                yield await reader.readexactly(self._remaining)
        else:
            while chunk := await reader.read(65536):
                yield chunk

    def _finish(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            self._pool.release(connection, reusable=self._keep_alive)

    def close(self) -> None:
        """Abort: drop the connection (the server sees a disconnect)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()


class HttpClient:
    """Requests to one origin over a small pool of keep-alive connections."""

    def __init__(self, url: str, headers: Mapping[str, str] | None = None) -> None:
        self.url = url
        self.origin = parse_origin(url)
        self._base = _header_block({"host": self.origin.host_header, **(headers or {})})
        self._idle: list[_Connection] = []
        self._ssl = ssl.create_default_context() if self.origin.scheme == "https" else None
        self._closed = False

    async def request(
        self, method: str, headers: Mapping[str, str], body: bytes = b"", *, repeatable: bool = True
    ) -> Response:
        """Send a request and read the response head.

        A kept-alive connection that breaks before answering may have been closed by the server
        while idle; a ``repeatable`` request then goes once more on a fresh connection, while any
        other counts as sent (the server may have run it).
        """
        head = self._head(method, headers, body)
        connection = await self._acquire()
        try:
            return await self._exchange(connection, head, body)
        except HttpError as exc:
            if exc.sent or not connection.reused:
                raise
            if not repeatable:
                raise HttpError(str(exc), sent=True) from exc
        return await self._exchange(await self._open(), head, body)

    def _head(self, method: str, headers: Mapping[str, str], body: bytes) -> bytes:
        extra = _header_block({**headers, "content-length": str(len(body))} if body or method == "POST" else headers)
        return f"{method} {self.origin.target} HTTP/1.1\r\n".encode() + self._base + extra + b"\r\n"

    async def _exchange(self, connection: _Connection, head: bytes, body: bytes) -> Response:
        try:
            connection.writer.write(head + body)
            raw = await connection.reader.readuntil(b"\r\n\r\n")
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
            connection.close()
            # A reused connection that broke before any answer: the server had closed it while idle.
            raise HttpError(f"no response: {_describe(exc)}", sent=not connection.reused) from exc
        except BaseException:
            connection.close()  # cancelled mid-request: the server must see the disconnect
            raise
        status, headers = _parse_head(raw)
        return Response(self, connection, status, headers)

    async def _acquire(self) -> _Connection:
        while self._idle:
            connection = self._idle.pop()
            if connection.usable:
                connection.reused = True
                return connection
            connection.close()
        return await self._open()

    async def _open(self) -> _Connection:
        if self._closed:
            raise HttpError(f"the client for {self.url} is closed", sent=False)
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.origin.host, self.origin.port, ssl=self._ssl, limit=_READ_LIMIT),
                _CONNECT_TIMEOUT,
            )
        except (OSError, TimeoutError) as exc:
            raise HttpError(_describe(exc), sent=False) from exc
        return _Connection(reader, writer)

    def release(self, connection: _Connection, *, reusable: bool) -> None:
        if reusable and not self._closed and not connection.writer.is_closing():
            connection.reused = False
            connection.idle_since = time.monotonic()
            self._idle.append(connection)
        else:
            connection.close()

    def close(self) -> None:
        self._closed = True
        for connection in self._idle:
            connection.close()
        self._idle.clear()


def _header_block(headers: Mapping[str, str]) -> bytes:
    lines = []
    for name, value in headers.items():
        if "\r" in value or "\n" in value or "\r" in name or "\n" in name:
            raise ValueError(f"header {name!r} contains a line break")
        lines.append(f"{name}: {value}\r\n")
    return "".join(lines).encode("latin-1")


def _parse_head(raw: bytes) -> tuple[int, dict[str, str]]:
    if len(raw) > _HEAD_LIMIT:
        raise HttpError("the response head is too large", sent=True)
    lines = raw.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ", 2)[1])
    except (IndexError, ValueError):
        raise HttpError(f"not an HTTP response: {lines[0][:80]!r}", sent=True) from None
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return status, headers


def _describe(exc: BaseException) -> str:
    if isinstance(exc, asyncio.IncompleteReadError):
        return "the server closed the connection"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return str(exc) or type(exc).__name__
