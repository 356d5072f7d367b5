"""``MessageExchanges``: an ASGI app answering HTTP requests that arrive as frames, in frames.

The same app the HTTP transport serves (``ToolServer.protected_http_app``), with the same
semantics: method, path, headers and body go in as an ASGI ``http`` scope; the response's head,
its body pieces as they come (so a server-sent event goes out when the app sends it) and its end
come back as ``ResponseFrame``s through ``send``. The frames' shapes are ``jupyter_mcp._wire.frames``;
what carries them (a kernel's comm) is the caller's business.

A response's head waits for its first body piece (one message instead of two; a small JSON answer
is one message in all), or ``HEAD_GRACE`` seconds, whichever comes first, so a stream that stays
quiet still answers at once. An event stream's opening (the MCP SDK's priming event: an id and no
data) waits with it for the first event that says something. Frames arrive from any thread
(``receive``); the app runs on ``loop``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message

from jupyter_mcp._wire.frames import PIECE, ResponseFrame, as_text, pieces

logger = logging.getLogger(__name__)

_SSE = "text/event-stream"

HEAD_GRACE = 0.05
"""Seconds a response's head waits for its first body piece before it goes out alone."""

Send = Callable[[Mapping[str, Any], list[bytes], object], None]
"""Sends one frame (with its body piece, if any) in answer to ``reply_to``; called on the loop."""

Key = tuple[str, str]
"""An exchange: the sender (its Jupyter session id) and the request id it chose."""


@dataclass
class _Exchange:
    key: Key
    reply_to: object
    body: asyncio.Queue[tuple[bytes, bool]] = field(default_factory=asyncio.Queue)
    body_done: bool = False
    gone: asyncio.Event = field(default_factory=asyncio.Event)
    seq: int = 0
    head: ResponseFrame | None = None
    head_timer: asyncio.TimerHandle | None = None
    sse: bool = False
    """The response is a server-sent event stream."""
    opening: bytes = b""
    """Events without data (a priming event) waiting with the head for the first event with data."""
    text: bool = False
    """Body pieces go as text in the frames (the request asked: a gateway relays the answers)."""
    started: bool = False
    ended: bool = False
    task: asyncio.Task[None] | None = None


class MessageExchanges:
    """Runs ``app`` on ``loop`` for request frames and answers through ``send``.

    Example::

        exchanges = MessageExchanges(app, loop, send, hello=lambda: {"kernel_id": "k"})
        exchanges.receive({"op": "request", "id": "1", "method": "GET", "target": "/status",
                           "headers": [["host", "127.0.0.1"]]}, [], "session-a", parent)
    """

    def __init__(
        self, app: ASGIApp, loop: asyncio.AbstractEventLoop, send: Send, hello: Callable[[], dict[str, Any]]
    ) -> None:
        self.app = app
        self.loop = loop
        self._send = send
        self._hello = hello
        self._live: dict[Key, _Exchange] = {}

    def receive(
        self, frame: Mapping[str, Any], buffers: Sequence[bytes | memoryview], sender: str, reply_to: object
    ) -> None:
        """Take one frame from ``sender`` (thread-safe); ``reply_to`` is what answers are sent in reply to."""
        body = b"".join(bytes(buffer) for buffer in buffers)
        self.loop.call_soon_threadsafe(self._on_frame, dict(frame), body, sender, reply_to)

    def close(self, message: str) -> None:
        """End every exchange under way with an error frame saying ``message`` (on the loop)."""
        for exchange in list(self._live.values()):
            self._fail(exchange, message)

    @property
    def under_way(self) -> int:
        return len(self._live)

    # ---- frames in -----------------------------------------------------------------------------

    def _on_frame(self, frame: dict[str, Any], body: bytes, sender: str, reply_to: object) -> None:
        op, request_id = frame.get("op"), frame.get("id")
        if not isinstance(request_id, str):
            logger.warning("ignored a kernel-channel frame without an id: %r", op)
            return
        key = (sender, request_id)
        if op == "request":
            self._start(key, frame, body, reply_to)
        elif op == "body" and (exchange := self._live.get(key)) is not None:
            exchange.body.put_nowait((body, bool(frame.get("more"))))
        elif op == "cancel" and (exchange := self._live.get(key)) is not None:
            _disconnect(exchange)
        elif op == "hello":
            self._send({"op": "hello", "id": request_id, "protocol": 1, "info": self._hello()}, [], reply_to)

    def _start(self, key: Key, frame: dict[str, Any], body: bytes, reply_to: object) -> None:
        exchange = _Exchange(key, reply_to, text=bool(frame.get("text")))
        try:
            scope = _scope(frame)
        except (TypeError, ValueError) as error:
            self._frame(exchange, {"op": "error", "message": f"a malformed request frame: {error}"})
            return
        exchange.body.put_nowait((body, bool(frame.get("more"))))
        self._live[key] = exchange
        exchange.task = self.loop.create_task(self._run(exchange, scope))

    # ---- the app -------------------------------------------------------------------------------

    async def _run(self, exchange: _Exchange, scope: dict[str, Any]) -> None:
        try:
            await self.app(scope, lambda: self._asgi_receive(exchange), lambda m: self._asgi_send(exchange, m))
        except asyncio.CancelledError:
            self._fail(exchange, "the tool server stopped while answering")
            raise
        except Exception:
            logger.exception("the MCP app failed on a kernel-channel request")
            self._fail(exchange, "the tool server failed while answering (see the kernel's log)")
        else:
            if not exchange.ended:
                self._fail(exchange, "the tool server ended the request without an answer")
        finally:
            self._live.pop(exchange.key, None)

    async def _asgi_receive(self, exchange: _Exchange) -> Message:
        if not exchange.body_done:
            piece, more = await exchange.body.get()
            exchange.body_done = not more
            if not exchange.gone.is_set():
                return {"type": "http.request", "body": piece, "more_body": more}
        await exchange.gone.wait()
        return {"type": "http.disconnect"}

    async def _asgi_send(self, exchange: _Exchange, message: Message) -> None:
        if exchange.ended or exchange.gone.is_set():
            return
        if message["type"] == "http.response.start":
            headers = [[_text(name), _text(value)] for name, value in message.get("headers", [])]
            exchange.head = {"status": int(message["status"]), "headers": headers}
            exchange.sse = any(name.lower() == "content-type" and _SSE in value for name, value in headers)
            exchange.head_timer = self.loop.call_later(HEAD_GRACE, self._flush_head, exchange)
        elif message["type"] == "http.response.body":
            self._body(exchange, bytes(message.get("body", b"")), bool(message.get("more_body", False)))

    def _body(self, exchange: _Exchange, body: bytes, more: bool) -> None:
        if exchange.head is not None and exchange.sse and more and _says_nothing(body):
            exchange.opening += body
            return
        if exchange.opening:
            body, exchange.opening = exchange.opening + body, b""
        cut = pieces(body, PIECE)
        if not cut and more:
            return  # nothing to say yet
        for index, piece in enumerate(cut or [b""]):
            last = index == len(cut) - 1 or not cut
            self._frame(exchange, {"op": "response", "more": more or not last}, piece)
        exchange.ended = not more

    def _flush_head(self, exchange: _Exchange) -> None:
        exchange.head_timer = None
        if exchange.head is not None and not exchange.ended:
            opening, exchange.opening = exchange.opening, b""
            self._frame(exchange, {"op": "response", "more": True}, opening)

    # ---- frames out ----------------------------------------------------------------------------

    def _frame(self, exchange: _Exchange, frame: ResponseFrame, piece: bytes = b"") -> None:
        frame["id"] = exchange.key[1]
        if frame["op"] == "response":
            frame["seq"] = exchange.seq
            exchange.seq += 1
            if exchange.head is not None:
                frame.update(exchange.head)
                exchange.head = None
                exchange.started = True
                if exchange.head_timer is not None:
                    exchange.head_timer.cancel()
                    exchange.head_timer = None
        if piece and exchange.text:
            frame.update(as_text(piece))
            piece = b""
        self._send(frame, [piece] if piece else [], exchange.reply_to)

    def _fail(self, exchange: _Exchange, message: str) -> None:
        if exchange.ended:
            return
        exchange.ended = True
        _disconnect(exchange)
        self._frame(exchange, {"op": "error", "message": message})


def _disconnect(exchange: _Exchange) -> None:
    """The client went away: the app's next ``receive`` says so, even one waiting for the body."""
    exchange.gone.set()
    exchange.body.put_nowait((b"", False))


def _scope(frame: Mapping[str, Any]) -> dict[str, Any]:
    """The ASGI ``http`` scope of a request frame (``ValueError``/``TypeError`` when it is malformed)."""
    method, target, headers = frame["method"], frame["target"], frame.get("headers", [])
    if not isinstance(method, str) or not isinstance(target, str) or not target.startswith("/"):
        raise ValueError("method and target must be text, the target a path")
    return http_scope(method, target, headers, "kernel-channel")


def http_scope(method: str, target: str, headers: Iterable[Sequence[Any]], peer: str) -> dict[str, Any]:
    """The ASGI ``http`` scope of a request handed over without a socket (``peer`` names where it came from)."""
    parts = urlsplit(target)
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method.upper(),
        "scheme": "http",
        "path": parts.path,
        "raw_path": parts.path.encode("latin-1"),
        "query_string": parts.query.encode("latin-1"),
        "root_path": "",
        "headers": [(str(name).lower().encode("latin-1"), str(value).encode("latin-1")) for name, value in headers],
        "client": (peer, 0),
        "server": (peer, 0),
    }


def _says_nothing(piece: bytes) -> bool:
    """Whether a piece of an event stream has no data (comments, ids, retry, empty ``data:`` lines)."""
    return not any(line.startswith(b"data:") and line[5:].strip() for line in piece.splitlines())


def _text(value: bytes | str) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else value
