"""One request over the kernel channel (``ChannelExchange``) and its response (``ChannelResponse``).

The request's body is gathered and goes with its head (MCP requests are small; a large one goes
in ``PIECE``-sized frames); the response comes as ``ResponseFrame``s, each piece a binary buffer,
handed on as it arrives. A response whose kernel went away mid-stream ends, for a server-sent
event stream answering a JSON-RPC request, with one last event: that request's error, saying what
happened (an MCP client shows it), rather than a cut the client cannot explain.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from http import HTTPStatus
from typing import Any, Protocol

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp._wire.frames import PIECE, RequestFrame, from_text, pieces

_SSE = "text/event-stream"
_JSONRPC_SERVER_ERROR = -32000

Send = Callable[[RequestFrame, list[bytes]], None]


class ChannelExchange:
    """A request to a kernel's app over its messaging; ``send`` the frames with ``send_frame``."""

    def __init__(
        self, send_frame: Send, method: str, target: str, headers: Iterable[tuple[str, str]], *, text: bool = False
    ) -> None:
        self.id = uuid.uuid4().hex
        self._send_frame = send_frame
        self._head: RequestFrame = {
            "op": "request",
            "id": self.id,
            "method": method,
            "target": target,
            "headers": [[name, value] for name, value in headers],
        }
        if text:
            self._head["text"] = True
        self._body: list[bytes] = []
        self._sent = False
        self._next_seq = 0
        self._finished = False
        self._answer: asyncio.Future[tuple[int, list[tuple[str, str]]]] = asyncio.get_running_loop().create_future()
        self._pieces: asyncio.Queue[bytes | HttpError | None] = asyncio.Queue()
        self.on_done: Callable[[ChannelExchange], None] = lambda exchange: None
        self.jsonrpc_id: Any = None
        """The id of the JSON-RPC request the body holds (``None``: none, or a notification)."""

    # ---- the request --------------------------------------------------------------------------

    def send(self, chunk: bytes) -> None:
        self._body.append(chunk)

    def end_request(self) -> None:
        body = b"".join(self._body)
        self.jsonrpc_id = _jsonrpc_id(body)
        cut = pieces(body, PIECE) or [b""]
        self._sent = True
        self._send_frame({**self._head, "more": len(cut) > 1}, [cut[0]] if cut[0] else [])
        for index, piece in enumerate(cut[1:], start=2):
            self._send_frame({"op": "body", "id": self.id, "more": index < len(cut)}, [piece])

    async def response(self) -> ChannelResponse:
        status, fields = await self._answer
        return ChannelResponse(self, status, fields)

    def close(self) -> None:
        """The caller is done: a response not read to its end is cancelled in the kernel."""
        if not self._finished:
            self._finished = True
            if self._sent:
                self._send_frame({"op": "cancel", "id": self.id}, [])
            self.on_done(self)

    # ---- frames from the kernel ---------------------------------------------------------------

    def feed(self, frame: Mapping[str, Any], buffers: list[bytes]) -> None:
        if self._finished:
            return
        if frame.get("op") == "error":
            self.fail(str(frame.get("message") or "the kernel's tool server failed"))
            return
        if frame.get("seq") != self._next_seq:
            self.fail("messages of the response were lost on the kernel channel (a reader fell behind)")
            return
        self._next_seq += 1
        if not self._answer.done():
            headers = [(str(name).lower(), str(value)) for name, value in frame.get("headers", [])]
            self._answer.set_result((int(frame.get("status", 502)), headers))
        for piece in [*buffers, from_text(frame)]:  # type: ignore[arg-type]
            if piece:
                self._pieces.put_nowait(piece)
        if not frame.get("more"):
            self._pieces.put_nowait(None)
            self._finish()

    def fail(self, why: str) -> None:
        """The kernel (or the channel) failed this exchange: the caller hears ``why``."""
        if self._finished:
            return
        error = HttpError(why, sent=True)
        if not self._answer.done():
            self._answer.set_exception(error)
        else:
            self._pieces.put_nowait(error)
        self._finish()

    def _finish(self) -> None:
        self._finished = True
        self.on_done(self)

    async def next_piece(self) -> bytes | HttpError | None:
        return await self._pieces.get()


class Pieces(Protocol):
    """Where a response's body comes from, piece by piece (``None``: the end; an ``HttpError``: it broke)."""

    jsonrpc_id: Any

    async def next_piece(self) -> bytes | HttpError | None: ...

    def close(self) -> None: ...


class ChannelResponse:
    """Status, headers (names in lower case, as ``_wire.http.Response`` has them) and the body's pieces, as
    they arrive from the kernel channel (or from an app in this process: ``inprocess``)."""

    def __init__(self, exchange: Pieces, status: int, fields: list[tuple[str, str]]) -> None:
        self._exchange = exchange
        self.status = status
        self.reason = _reason(status)
        self.fields = fields
        self.headers = dict(fields)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").partition(";")[0].strip().lower()

    async def chunks(self) -> AsyncIterator[bytes]:
        while (piece := await self._exchange.next_piece()) is not None:
            if isinstance(piece, HttpError):
                if self.content_type == _SSE and self._exchange.jsonrpc_id is not None:
                    yield _error_event(self._exchange.jsonrpc_id, str(piece))
                    return
                raise piece
            yield piece

    async def read(self) -> bytes:
        return b"".join([chunk async for chunk in self.chunks()])

    def close(self) -> None:
        self._exchange.close()


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def _jsonrpc_id(body: bytes) -> Any:
    if not body or len(body) > PIECE or not body.lstrip().startswith(b"{"):
        return None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    return message.get("id") if isinstance(message, dict) and "method" in message else None


def _error_event(request_id: Any, why: str) -> bytes:
    error = {"code": _JSONRPC_SERVER_ERROR, "message": f"jupyter-mcp: {why}"}
    data = json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error})
    return f"event: message\ndata: {data}\n\n".encode()
