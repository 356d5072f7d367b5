"""Run an ASGI app with uvicorn in a daemon thread with its own event loop.

Measured facts this encodes (see DESIGN.md section 5): the kernel's own loop would make every
request wait for the running cell; a socket without TCP_NODELAY makes every reply wait for a
delayed ACK (44 ms instead of 2 ms); uvicorn must not install signal handlers or logging config.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import importlib.util
import ipaddress
import logging
import socket
import threading
from collections.abc import Coroutine, Generator
from typing import Any, Literal, TypeVar, cast

import uvicorn
from starlette.types import ASGIApp

logger = logging.getLogger(__name__)
T = TypeVar("T")

Lifecycle = Literal["started", "stopped"]
"""What a server's lifecycle observers hear."""

HTTP_PARSER: Literal["httptools", "h11"] = "httptools" if importlib.util.find_spec("httptools") else "h11"
"""uvicorn's HTTP parser: httptools (llhttp, in C) when installed, as it is with this package; it cost
~0.15 ms of CPU less per request than h11 (pure Python), about a fifth of a small tool call. It keeps a
header value's trailing white space, which h11 strips: ``auth.protect`` strips it for the app."""
_HEAD_HELD_UP_TO = 64 * 1024
"""A response body up to this size goes out in one write with its head (larger ones: two writes, no copy)."""
_START_TIMEOUT = 15.0
_STOP_TIMEOUT = 5.0


class _HeadWithBody:
    """A connection's transport whose response head waits for the body's first bytes: one write, one segment.

    uvicorn writes a response's status line and headers, then its body: two ``send`` calls and, on a
    TCP_NODELAY socket, two segments the client reads apart. The head is held until the next write
    (the body, sent in the same step) or, at the latest, the end of this loop turn.
    """

    def __init__(self, transport: asyncio.BaseTransport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = cast("asyncio.Transport", transport)  # uvloop's is one in all but its class
        self._loop = loop
        self._head: bytes | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        head, self._head = self._head, None
        if head is not None and len(data) <= _HEAD_HELD_UP_TO:
            self._transport.write(head + bytes(data))
            return
        if head is not None:
            self._transport.write(head)
        elif _is_head(data):
            self._head = bytes(data)
            self._loop.call_soon(self._flush)
            return
        self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def _flush(self) -> None:
        head, self._head = self._head, None
        if head is not None and not self._transport.is_closing():
            self._transport.write(head)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def _is_head(data: bytes | bytearray | memoryview) -> bool:
    return bytes(data[:9]) == b"HTTP/1.1 " and bytes(data[-4:]) == b"\r\n\r\n" and bytes(data[9:12]) != b"100"


def http_protocol() -> type[asyncio.Protocol] | Literal["h11"]:
    """uvicorn's ``http`` option: httptools (see ``HTTP_PARSER``) writing each response head with its body."""
    if HTTP_PARSER == "h11":
        return "h11"
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class Protocol(HttpToolsProtocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(_HeadWithBody(transport, self.loop))  # type: ignore[arg-type]

    return Protocol


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket with TCP_NODELAY (inherited by accepted connections on Linux)."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(False)
    return sock


class _QuietServer(uvicorn.Server):
    """No signal handlers (the kernel owns SIGINT), and a thread-safe "started" event."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.ready.set()


class BackgroundServer:
    """``start()`` binds and serves in a daemon thread; ``stop()`` shuts it down and joins.

    Example::

        runner = BackgroundServer(app, "127.0.0.1", 0)
        runner.start()
        print(runner.port)
        runner.stop()
    """

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> None:
        """``app`` sees header values as they came (see ``HTTP_PARSER``): ``auth.protect`` strips them."""
        self.app = app
        self.host = host
        self.requested_port = port
        self.port: int | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._server: _QuietServer | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self._error: BaseException | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._socket = bind_socket(self.host, self.requested_port)
        self.port = int(self._socket.getsockname()[1])
        config = uvicorn.Config(
            self.app,
            log_config=None,
            access_log=False,
            lifespan="on",
            loop="asyncio",
            http=http_protocol(),
            ws="none",
            proxy_headers=False,  # nothing reads the client's address; X-Forwarded-* parsing cost every request
            timeout_graceful_shutdown=1,
            server_header=False,
        )
        self._server = _QuietServer(config)
        self._thread = threading.Thread(target=self._run, name=f"jupyter-mcp-http-{self.port}", daemon=True)
        self._thread.start()
        if not self._server.ready.wait(_START_TIMEOUT) or self._error is not None:
            self.stop()
            raise RuntimeError(f"the MCP HTTP server did not start: {self._error or 'timed out'}")

    def _run(self) -> None:
        assert self._server is not None
        assert self._socket is not None
        loop = asyncio.new_event_loop()
        self.loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._server.serve(sockets=[self._socket]))
        except BaseException as exc:  # reported to start(); a dying thread must not print into a cell
            self._error = exc
            logger.exception("MCP HTTP server thread stopped with an error")
        finally:
            self._server.ready.set()
            close_loop(loop)

    def stop(self) -> None:
        server, thread = self._server, self._thread
        if server is not None:
            server.should_exit = True
        if thread is not None and thread is not threading.current_thread():
            thread.join(_STOP_TIMEOUT)
            if thread.is_alive() and server is not None:
                server.force_exit = True
                thread.join(_STOP_TIMEOUT)
        if self._socket is not None:
            self._socket.close()
        self._server = self._thread = self._socket = None
        self.loop = None

    def run_coroutine(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule ``coro`` on the server loop; returns a ``concurrent.futures.Future``."""
        if self.loop is None:
            raise RuntimeError("the server is not running")
        return asyncio.run_coroutine_threadsafe(coro, self.loop)


def close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what still runs on ``loop`` (a stopped server's), let it finish, and close the loop."""
    try:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
    finally:
        loop.close()
