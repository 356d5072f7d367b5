"""2025-era requests in an open session answered in the request's own task, without the SDK's per-request machinery.

The SDK's session transport routes every POSTed request through memory streams to the session's
dispatcher task, answers it with an SSE response that runs its own task group, and stores every
event (a priming event first) for resumability: ~0.6 ms per call more than the 2026 path. Here the
session's own ``ServerRunner`` kernel serves the request in this task, with a dispatch context of the
session's dispatcher (so ``notifications/cancelled``, server-to-client requests and their answers,
progress and logs work as before), and:

- a request that sends nothing before its answer is answered with one JSON body (the spec lets a
  server answer any POST with JSON or an SSE stream), encoded once, nothing stored;
- once anything goes out for the request (a notification, a request to the client), it goes the
  SDK's way: through the session's message router, which stores each event, to this response
  (written here as SSE, without a task group), and the answer follows the same road;
- a request still running after ``WATCH_AFTER`` gets a priming event (an id to resume from), then
  pings; its client dropping the stream lets a resumed stream (GET with ``Last-Event-ID``) take over;
- ``close_sse_stream`` (SEP-1699 polling) ends this response after a priming event; the answer is
  stored for the client's resumed stream.

Everything else (``initialize``, reads and prompt gets, notifications, responses, GET, DELETE, a
session this entry cannot see) is the SDK's. This is a fast path: it works the session's transport
and dispatcher through the SDK adapter (``jupyter_mcp.adapters.sdk``), and is not built when that
adapter's fast paths are off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from mcp.server import Server
from mcp.server.runner import ServerRunner
from mcp.server.streamable_http import REQUEST_CANCELLED, EventMessage, EventStore, StreamableHTTPServerTransport
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher, handler_exception_to_error_data, progress_token_from_params
from mcp.shared.message import ServerMessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import DEFAULT_NEGOTIATED_VERSION, INTERNAL_ERROR, ErrorData, JSONRPCError, JSONRPCResponse, RequestId
from mcp_types.version import is_version_at_least
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from jupyter_mcp.adapters import sdk
from jupyter_mcp.tools import codec
from jupyter_mcp.tools.peers import CURRENT
from jupyter_mcp.tools.transports.http.inbound import header
from jupyter_mcp.tools.transports.http.lists import send_json
from jupyter_mcp.tools.transports.http.stateless import (
    PING,
    PING_INTERVAL,
    SSE_HEADERS,
    WATCH_AFTER,
    client_gone,
    sse_event,
)

logger = logging.getLogger(__name__)

_SDK_ANSWERS = frozenset({"initialize", "resources/read", "prompts/get"})
"""Left to the SDK: the handshake, and the requests ``JsonReads`` answers whole."""


class OpenSessions(Protocol):
    """The SDK's sessions, as far as this entry needs them (``adapters.sdk.SessionManager``)."""

    def transport_for(self, scope: Scope, session_id: str) -> StreamableHTTPServerTransport | None:
        """The session's transport if it is open to this request's credential."""
        ...

    def holding(self, transport: StreamableHTTPServerTransport) -> contextlib.AbstractContextManager[None]:
        """Keep the session from expiring while a request runs."""
        ...


class SessionEntry:
    """Answers POSTed 2025-era requests in open sessions (see the module docstring)."""

    def __init__(
        self,
        lowlevel: Server[Any],
        lifespan_state: Callable[[], Any],
        sessions: OpenSessions,
        events: EventStore,
        *,
        json_response: bool,
        retry_interval: int | None,
    ) -> None:
        self.lowlevel = lowlevel
        self.lifespan_state = lifespan_state
        self.sessions = sessions
        self.events = events
        """The store the session manager was given (priming events go there too)."""
        self.json_response = json_response
        self.retry_interval = retry_interval

    async def __call__(self, scope: Scope, receive: Receive, send: Send, message: dict[str, Any]) -> bool:
        """Serve ``message``; ``False`` to leave it to the SDK."""
        if message["method"] in _SDK_ANSWERS:
            return False
        session_id = header(scope, b"mcp-session-id")
        if session_id is None:
            return False
        transport = self.sessions.transport_for(scope, session_id)
        peer = CURRENT.get()
        session = peer.session if peer is not None and peer.session_id == session_id else None
        connection = sdk.session_connection(session) if transport is not None and session is not None else None
        if transport is None or connection is None:
            return False
        dispatcher = connection.outbound
        if not isinstance(dispatcher, JSONRPCDispatcher) or not sdk.writable(transport, dispatcher):
            return False
        call = _Call(send, receive, transport, dispatcher, message["id"], session_id, self.events)
        call.prime_with = self._priming(scope)
        runner = ServerRunner(self.lowlevel, connection, self.lifespan_state())
        with self.sessions.holding(transport):
            await call.run(scope, runner, message, direct=self.json_response)
        return True

    def _priming(self, scope: Scope) -> int | None:
        """The retry delay of this request's priming event, or ``None``: a client too old for one."""
        version = header(scope, b"mcp-protocol-version") or DEFAULT_NEGOTIATED_VERSION
        if not is_version_at_least(version, "2025-11-25"):
            return None
        return self.retry_interval or 0


@dataclass
class _Call:
    """One request: its response (JSON, or SSE once anything went out), its sink for the session's router."""

    send: Send
    receive: Receive
    transport: StreamableHTTPServerTransport
    dispatcher: JSONRPCDispatcher[TransportContext]
    request_id: RequestId
    session_id: str
    events: EventStore
    prime_with: int | None = None
    routed: bool = False
    """Something for this request went to the session's router: the answer must follow it."""
    started: bool = False
    committed: bool = False
    closed: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)
    last_sent: float = field(default_factory=time.monotonic)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _watcher: asyncio.Task[None] | None = None
    _sink: _Sink | None = None

    @property
    def stream_id(self) -> str:
        return str(self.request_id)

    @property
    def session_header(self) -> tuple[bytes, bytes]:
        """The ``Mcp-Session-Id`` header every response of the session carries."""
        return (b"mcp-session-id", self.session_id.encode("latin-1"))

    async def run(self, scope: Scope, runner: ServerRunner[Any], message: dict[str, Any], *, direct: bool) -> None:
        self._sink = _Sink(self)
        sdk.route_stream(self.transport, self.stream_id, self._sink)
        timer = None if direct else asyncio.get_running_loop().call_later(WATCH_AFTER, self._start_watching)
        try:
            outcome = await self._serve(scope, runner, message, direct=direct)
            await self._answer(outcome, direct=direct)
        finally:
            if timer is not None:
                timer.cancel()
            if self._watcher is not None:
                self._watcher.cancel()
            self.detach()
            await self._end()

    async def _serve(
        self, scope: Scope, runner: ServerRunner[Any], message: dict[str, Any], *, direct: bool
    ) -> dict[str, Any]:
        """The reply's ``result`` or ``error`` member, as the session's dispatcher would have written it."""
        params = message.get("params")
        metadata = ServerMessageMetadata(
            request_context=Request(scope, self.receive),
            close_sse_stream=self.close_stream if self.prime_with is not None else None,
            close_standalone_sse_stream=self._close_standalone if self.prime_with is not None else None,
            can_send_request=not direct,
        )
        dctx = sdk.dispatch_context(
            self.dispatcher, metadata, self.request_id, progress_token_from_params(params), self._routing
        )
        outcome: dict[str, Any] | None = None
        with sdk.in_flight(self.dispatcher, self.request_id, dctx) as scope_, scope_:
            try:
                outcome = {"result": await runner.on_request(dctx, message["method"], params)}
            except Exception as exc:
                outcome = {"error": _dumped(_error_of(exc, message["method"]))}
        if outcome is None or dctx.cancel_requested.is_set():
            # The 2025-era wire ends a request's stream only with a response (the SDK's REQUEST_CANCELLED)
            return {"error": {"code": REQUEST_CANCELLED, "message": "Request cancelled"}}
        return outcome

    async def _answer(self, outcome: dict[str, Any], *, direct: bool) -> None:
        if direct or not (self.routed or self.committed or self.closed):
            self.detach()
            body = codec.dumps({"jsonrpc": "2.0", "id": self.request_id, **outcome})
            await send_json(self.send, 200, body, [self.session_header])
            self.started = self.closed = True
            return
        reply: JSONRPCResponse | JSONRPCError
        if "result" in outcome:
            reply = JSONRPCResponse(jsonrpc="2.0", id=self.request_id, result=outcome["result"])
        else:
            reply = JSONRPCError(jsonrpc="2.0", id=self.request_id, error=ErrorData.model_validate(outcome["error"]))
        try:
            await sdk.write(self.dispatcher, reply)  # stored, then to this response or a resumed stream
        except Exception:  # the session ended under the request (DELETE, expiry)
            logger.debug("the answer to %r had no session left to go to", self.request_id)
            return
        await self.done.wait()

    async def routed_event(self, event: EventMessage) -> None:
        """An event the session's router stored for this request: onto the response."""
        final = isinstance(event.message, JSONRPCResponse | JSONRPCError)
        data = event.message.model_dump_json(by_alias=True, exclude_unset=True).encode()
        async with self._lock:
            if self.closed:
                return
            retry = self.prime_with if not self.committed else None
            await self._write(sse_event(data, event.event_id, retry or None), final=final)
        if final:
            self.detach()

    async def close_stream(self) -> None:
        """SEP-1699 polling: end this response (after a priming event); the client resumes with GET."""
        async with self._lock:
            if self.closed:
                return
            if not self.committed:
                await self._prime()
            await self._write(b"", final=True)
        self.detach()

    async def _close_standalone(self) -> None:
        self.transport.close_standalone_sse_stream()

    async def _prime(self) -> None:
        """Commit to SSE with a priming event (an id to resume from); under the lock."""
        if self.prime_with is None:
            await self._write(b"", final=False)
            return
        event_id = await self.events.store_event(self.stream_id, None)
        retry = b"retry: %d\r\n" % self.prime_with if self.prime_with else b""
        await self._write(b"id: " + event_id.encode() + b"\r\n" + retry + b"data: \r\n\r\n", final=False)

    async def _write(self, body: bytes, *, final: bool) -> None:
        if not self.committed:
            self.committed = self.started = True
            if not final:
                self._start_watching()  # a stream whose client goes must let a resumed one take over at once
            headers = [*SSE_HEADERS, self.session_header]
            await self.send({"type": "http.response.start", "status": 200, "headers": headers})
        self.closed = final
        await self.send({"type": "http.response.body", "body": body, "more_body": not final})
        self.last_sent = time.monotonic()

    def _start_watching(self) -> None:
        if self._watcher is None and not self.closed:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        """A request running past ``WATCH_AFTER``: primed (unless an event is on its way), pinged, watched."""
        async with self._lock:
            if not self.committed and not self.routed and not self.closed:
                await self._prime()
        if await client_gone(self.receive, self):
            self.detach()  # a resumed stream (GET with Last-Event-ID) may take over

    async def ping(self) -> None:
        async with self._lock:
            if not self.closed and time.monotonic() - self.last_sent >= PING_INTERVAL:
                await self.send({"type": "http.response.body", "body": PING, "more_body": True})
                self.last_sent = time.monotonic()

    def _routing(self) -> None:
        """Something for this request goes to the session's router: the answer must follow it."""
        self.routed = True

    def detach(self) -> None:
        """Stop taking the router's events (they stay stored for a resumed stream)."""
        if self._sink is not None:
            sdk.unroute_stream(self.transport, self.stream_id, self._sink)
        self.done.set()

    async def _end(self) -> None:
        """However the request went, its response ends."""
        async with self._lock:
            if self.committed and not self.closed:
                await self._write(b"", final=True)
            elif not self.started:
                self.started = self.closed = True
                error = {"code": INTERNAL_ERROR, "message": "Session terminated before the request completed"}
                body = codec.dumps({"jsonrpc": "2.0", "id": None, "error": error})
                await send_json(self.send, 500, body, [self.session_header])


@dataclass
class _Sink:
    """Stands where the SDK's transport keeps a request's stream: its router hands this the request's events."""

    call: _Call

    async def send(self, event: EventMessage) -> None:
        await self.call.routed_event(event)

    def close(self) -> None:
        self.call.detach()

    async def aclose(self) -> None:
        self.call.detach()


def _error_of(exc: Exception, method: str) -> ErrorData:
    """The dispatcher's exception-to-wire ladder (``code=0`` for anything unknown, as the SDK answers it)."""
    error = handler_exception_to_error_data(exc)
    if error is None:
        logger.error("handler for %r raised", method, exc_info=exc)
        error = ErrorData(code=0, message=str(exc))
    return error


def _dumped(error: ErrorData) -> dict[str, Any]:
    return error.model_dump(mode="json", by_alias=True, exclude_unset=True)
