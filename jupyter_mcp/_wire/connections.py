"""Keep-alive connections on asyncio streams, pooled per origin and reused most-recent first.

Opening a connection costs a connect and an accept on both sides; a pooled one costs nothing.
Idle connections expire before the server's own keep-alive timeout (uvicorn: 5 s), so a reused
connection that breaks means trouble, not an idle close racing the request. asyncio sets
TCP_NODELAY on every TCP connection: a small write never waits for a delayed ACK.
"""

from __future__ import annotations

import asyncio
import ssl
import time

from jupyter_mcp._wire.errors import HttpError, describe
from jupyter_mcp._wire.origin import Origin

READ_LIMIT = 64 * 1024
"""The longest response head, and what is buffered before reading pauses (back-pressure)."""


class Connection:
    """One TCP (or TLS) connection to an origin; ``reused`` once it has served a request before."""

    def __init__(self, origin: Origin, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.origin = origin
        self.reader = reader
        self.writer = writer
        self.reused = False
        self.idle_since = 0.0

    @property
    def open(self) -> bool:
        return not self.writer.is_closing() and not self.reader.at_eof()

    def close(self) -> None:
        self.writer.close()


class ConnectionPool:
    """Connections per origin: ``acquire`` an idle one (or open one), ``release`` it after a response.

    Example::

        pool = ConnectionPool(connect_timeout=5.0, max_idle=8, idle_timeout=3.0)
        connection = await pool.acquire(origin)
        ...
        pool.release(connection, reusable=True)
    """

    def __init__(self, *, connect_timeout: float = 5.0, max_idle: int = 8, idle_timeout: float = 3.0) -> None:
        self.connect_timeout = connect_timeout
        self.max_idle = max_idle
        self.idle_timeout = idle_timeout
        self._idle: dict[Origin, list[Connection]] = {}
        self._next_prune = 0.0
        self._ssl: ssl.SSLContext | None = None
        self._closed = False

    async def acquire(self, origin: Origin) -> Connection:
        """The most recently used idle connection to ``origin`` that is still open, else a new one."""
        now = time.monotonic()
        if now >= self._next_prune:
            self._prune(now)
        idle = self._idle.get(origin, [])
        while idle:
            connection = idle.pop()
            if connection.open and now - connection.idle_since < self.idle_timeout:
                connection.reused = True
                return connection
            connection.close()
        return await self.connect(origin)

    async def connect(self, origin: Origin) -> Connection:
        """A new connection; ``HttpError`` (never sent) when the server cannot be reached."""
        if self._closed:
            raise HttpError("the connection pool is closed", sent=False)
        context = self._tls() if origin.scheme == "https" else None
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(origin.host, origin.port, ssl=context, limit=READ_LIMIT),
                self.connect_timeout,
            )
        except (OSError, TimeoutError) as exc:
            raise HttpError(describe(exc), sent=False) from exc
        return Connection(origin, reader, writer)

    def release(self, connection: Connection, *, reusable: bool) -> None:
        """Keep a connection whose response was read to its end for the next request, if it can be."""
        idle = self._idle.setdefault(connection.origin, [])
        if not reusable or self._closed or not connection.open or len(idle) >= self.max_idle:
            connection.close()
            return
        connection.idle_since = time.monotonic()
        idle.append(connection)

    def close(self) -> None:
        self._closed = True
        for idle in self._idle.values():
            for connection in idle:
                connection.close()
        self._idle.clear()

    def _prune(self, now: float) -> None:
        """Close connections idle too long, to every origin (a stopped kernel's are never asked for again)."""
        self._next_prune = now + self.idle_timeout
        deadline = now - self.idle_timeout
        for origin, idle in list(self._idle.items()):
            while idle and idle[0].idle_since < deadline:
                idle.pop(0).close()
            if not idle:
                del self._idle[origin]

    def _tls(self) -> ssl.SSLContext:
        if self._ssl is None:
            self._ssl = ssl.create_default_context()
        return self._ssl
