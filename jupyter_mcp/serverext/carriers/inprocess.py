"""``AppCarrier``: requests to an MCP app that runs in the Jupyter server's own process, on its loop.

The notebook tools (``serverext/notebooks``) are a ``ToolServer`` hosted by the extension itself: its
ASGI app answers the same HTTP-shaped requests a kernel's app answers, handed over in memory (no
socket, no thread), with its response streamed back piece by piece as the app sends it. Its
lifespan (the MCP session manager's task group) runs as a task on the server's loop from
``start()`` to the end of ``stop()``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.serverext.carriers.exchange import ChannelResponse
from jupyter_mcp.shapes.rest import CarrierName
from jupyter_mcp.tools.transports.messages.exchanges import http_scope

_START_TIMEOUT = 15.0
_STOP_TIMEOUT = 5.0


class AppCarrier:
    """Requests to ``app`` on the running loop (``start()`` it first)."""

    name: CarrierName = "server"
    mcp_path = "/mcp"

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._lifespan: asyncio.Task[None] | None = None
        self._inbox: asyncio.Queue[Message] = asyncio.Queue()
        self._started: asyncio.Future[None] | None = None

    async def start(self) -> None:
        """Run the app's lifespan startup (once); ``RuntimeError`` if it fails."""
        if self._started is None:
            self._started = asyncio.get_running_loop().create_future()
            self._inbox.put_nowait({"type": "lifespan.startup"})
            scope = {"type": "lifespan", "asgi": {"version": "3.0"}}
            self._lifespan = asyncio.ensure_future(self.app(scope, self._inbox.get, self._lifespan_said))
        await asyncio.wait_for(asyncio.shield(self._started), _START_TIMEOUT)

    async def _lifespan_said(self, message: Message) -> None:
        started = self._started
        if started is None or started.done():
            return
        if message["type"] == "lifespan.startup.complete":
            started.set_result(None)
        elif message["type"] == "lifespan.startup.failed":
            started.set_exception(RuntimeError(str(message.get("message") or "the app's startup failed")))

    async def stop(self) -> None:
        """Shut the app down and wait for its lifespan to end (cancelled after ``_STOP_TIMEOUT`` seconds).

        Waited for, not only asked: the Jupyter server stops its loop right after the extensions stop, and a
        task left pending then (with the worker threads it holds) would keep the process from exiting."""
        lifespan = self._lifespan
        if lifespan is None or lifespan.done():
            return
        self._inbox.put_nowait({"type": "lifespan.shutdown"})
        _, pending = await asyncio.wait({lifespan}, timeout=_STOP_TIMEOUT)
        if pending:
            lifespan.cancel()
            await asyncio.wait({lifespan})

    async def open(self, method: str, target: str, headers: Iterable[tuple[str, str]]) -> AppExchange:
        await self.start()
        return AppExchange(self.app, method, target, list(headers))


class AppExchange:
    """One request to the app: its body, then its response (``Upstream``)."""

    def __init__(self, app: ASGIApp, method: str, target: str, headers: list[tuple[str, str]]) -> None:
        self._app = app
        self._scope = http_scope(method, target, headers, "jupyter-server")
        self._body: list[bytes] = []
        self._body_read = False
        self._head: asyncio.Future[tuple[int, list[tuple[str, str]]]] = asyncio.get_running_loop().create_future()
        self._pieces: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._gone = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._ended = False
        self.jsonrpc_id: Any = None
        """No request id to answer with an error event: a broken response here is an ``HttpError``."""

    def send(self, chunk: bytes) -> None:
        self._body.append(chunk)

    def end_request(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def response(self) -> ChannelResponse:
        status, fields = await self._head
        return ChannelResponse(self, status, fields)

    def close(self) -> None:
        """The caller is done: a response not read to its end is a client gone (the app sees a disconnect)."""
        self._gone.set()

    async def _run(self) -> None:
        try:
            await self._app(self._scope, self._receive, self._send)
        except Exception as error:  # the app failed: the caller hears it as an unreachable server
            self._fail(f"the notebook tools failed while answering: {error}")
        finally:
            self._fail("the notebook tools ended the request without an answer")

    async def _receive(self) -> Message:
        if not self._body_read and not self._gone.is_set():
            self._body_read = True
            return {"type": "http.request", "body": b"".join(self._body), "more_body": False}
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            fields = [(_text(name).lower(), _text(value)) for name, value in message.get("headers", [])]
            if not self._head.done():
                self._head.set_result((int(message["status"]), fields))
        elif message["type"] == "http.response.body" and not self._ended:
            body = bytes(message.get("body", b""))
            if body:
                self._pieces.put_nowait(body)
            if not message.get("more_body", False):
                self._ended = True
                self._pieces.put_nowait(None)

    def _fail(self, why: str) -> None:
        if not self._head.done():
            self._head.set_exception(HttpError(why, sent=True))
        elif not self._ended:
            self._ended = True
            self._pieces.put_nowait(None)

    async def next_piece(self) -> bytes | HttpError | None:
        return await self._pieces.get()


def _text(value: bytes | str) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else value
