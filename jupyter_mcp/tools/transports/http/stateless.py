"""2026-07-28 requests answered in the request's own task: the SDK's protocol core without its per-request machinery.

A 2026-era request stands alone: one POST, one JSON-RPC request, one answer. The SDK's entry for it
re-reads the body, validates the envelope into models, runs every request as two tasks talking
through a memory stream, and dumps the answer through models again. Here the body arrives parsed
and checked (``WireCheck``); the SDK's own checks run on it, in its order and with its functions
(routing headers, the ``_meta`` envelope, ``Mcp-Param-*`` headers); the SDK's ``serve_one`` serves
it (middleware, handlers, result shaping) in this task, a ``CallToolResult`` shaped in one dump
(``direct.py``); the answer is encoded once (``codec``).

With the fast paths off (``FastPaths``), results are shaped by the SDK's own ``ServerRunner``, every
request's connection is built by ``Connection.from_envelope`` and its exit stack unwound as the SDK
unwinds it.

The response is the SDK's too: a JSON body unless the handler sends a notification first (then
``text/event-stream``); a request still running after ``PING_INTERVAL`` commits to SSE and gets
keep-alive pings; in SSE mode the client closing its stream cancels the request. Watching for that
starts only once a request has run ``WATCH_AFTER``, so a quick request costs no extra task.
A read or a prompt get holds its notifications until its answer is known, as ``bodies.py`` says.
Requests of an unusual shape (notifications, ``subscriptions/listen``, extra members) are the SDK's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
from mcp.server import Server
from mcp.server.runner import ServerRunner, aclose_shielded, modern_error_data
from mcp.shared.dispatcher import CallOptions
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.inbound import (
    ERROR_CODE_HTTP_STATUS,
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    InboundLadderRejection,
    InboundModernRoute,
    classify_inbound_request,
    validate_mcp_param_headers,
    x_mcp_header_map,
)
from mcp.shared.jsonrpc_dispatcher import progress_token_from_params
from mcp.shared.message import ServerMessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import HEADER_MISMATCH, ProgressToken, RequestId
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from jupyter_mcp._wire.sse import line_safe
from jupyter_mcp.adapters.stdlib import nothing_to_unwind
from jupyter_mcp.tools import codec
from jupyter_mcp.tools.identity import ByIdentity
from jupyter_mcp.tools.transports.http.bodies import EVENT_ROOM
from jupyter_mcp.tools.transports.http.direct import direct_runner
from jupyter_mcp.tools.transports.http.envelopes import Envelopes
from jupyter_mcp.tools.transports.http.lists import ListReplies, send_json

logger = logging.getLogger(__name__)

PING_INTERVAL = 15.0
"""Seconds of silence after which a running request's SSE stream gets a keep-alive comment (the SDK's)."""
WATCH_AFTER = 0.25
"""A request running this long starts watching for its client to go (and for the ping): a client that
closes its stream sooner cancels the request this much later. Under load (50 clients at once) most
requests run tens of milliseconds, and a watching task for each cost more than they saved."""
_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"connection", b"keep-alive"),
    (b"x-accel-buffering", b"no"),
]
PING = b": ping\r\n\r\n"
_ANSWERED_WHOLE = frozenset({"resources/read", "prompts/get"})


def is_modern(scope: Scope) -> bool:
    """Whether a request names a protocol version past the handshake era (the SDK's routing rule)."""
    for key, value in scope["headers"]:
        if key == b"mcp-protocol-version":
            return value.decode("latin-1") not in HANDSHAKE_PROTOCOL_VERSIONS
    return False


def takes(message: Any) -> bool:
    """Whether a (checked) message is a request this entry answers; anything else goes to the SDK."""
    return (
        isinstance(message, dict)
        and "id" in message
        and message.keys() <= _REQUEST_KEYS
        and message["method"] != "subscriptions/listen"
    )


class StatelessEntry:
    """Answers 2026-era POSTs (see the module docstring); ``lifespan_state()`` is the running app's."""

    def __init__(
        self,
        lowlevel: Server[Any],
        lifespan_state: Callable[[], Any],
        *,
        json_response: bool,
        lists: ListReplies | None = None,
        fast: bool = True,
    ) -> None:
        self.lowlevel = lowlevel
        self.lifespan_state = lifespan_state
        self.json_response = json_response
        self.lists = lists
        self.fast = fast
        """Whether the SDK adapter's fast paths are taken (see the module docstring)."""
        self._param_headers = ByIdentity[bool]()
        self._envelopes = Envelopes(copies=fast)
        self._server_stamp = lowlevel.server_info_stamp  # fixed at the server's construction

    async def __call__(self, scope: Scope, receive: Receive, send: Send, message: dict[str, Any]) -> None:
        request_id = message["id"]  # Content-Type and Accept passed WireCheck
        verdict = _classify(message, scope)
        if isinstance(verdict, InboundLadderRejection):
            await _reply(send, _error(request_id, _rejection_error(verdict)))
            return
        rejection = self._param_rejection(message, scope)
        if rejection is not None:
            await _reply(send, _error(request_id, _rejection_error(rejection)))
            return
        lists = self.lists
        if lists is not None and await lists.modern(send, message, verdict.protocol_version, verdict.client_info):
            return
        await self._serve(scope, receive, send, message, verdict)

    def _param_rejection(self, message: dict[str, Any], scope: Scope) -> InboundLadderRejection | None:
        """``Mcp-Param-*`` headers of a ``tools/call`` checked against its arguments (the SDK's check)."""
        params = message.get("params") or {}
        name, arguments = params.get("name"), params.get("arguments")
        if message["method"] != "tools/call" or not isinstance(name, str):
            return None
        if arguments is not None and not isinstance(arguments, Mapping):
            return None
        lookup = self.lowlevel.get_tool_input_schema
        schema = lookup(name) if lookup is not None else None
        if schema is None or not self._annotated(schema):
            return None  # no property declares a header: nothing can disagree
        return validate_mcp_param_headers(schema, arguments or {}, Headers(scope=scope))

    def _annotated(self, schema: Mapping[str, Any]) -> bool:
        """Whether any property of ``schema`` declares an ``Mcp-Param-*`` header (kept per schema object)."""
        found = self._param_headers.get(schema)
        if found is None:
            found = bool(x_mcp_header_map(schema))
            self._param_headers.put(schema, found)
        return found

    async def _serve(
        self, scope: Scope, receive: Receive, send: Send, message: dict[str, Any], verdict: InboundModernRoute
    ) -> None:
        params = message.get("params")
        exchange = _Exchange(
            send,
            message["id"],
            TransportContext(kind="streamable-http", can_send_request=False, headers=Headers(scope=scope)),
            ServerMessageMetadata(request_context=Request(scope, receive)),
            progress_token_from_params(params),
            streaming=not self.json_response,
            held=[] if message["method"] in _ANSWERED_WHOLE else None,
        )
        connection = self._envelopes.connection(
            verdict.protocol_version, verdict.client_info, verdict.client_capabilities
        )
        method, state = message["method"], self.lifespan_state()
        runner = direct_runner(self.lowlevel, connection, state, self._server_stamp if self.fast else None)
        served = _serve_one(runner, exchange, method, params, fast=self.fast)
        if self.json_response:
            await exchange.finish(await _answer(message["id"], served))
            return
        reply = await exchange.watched(receive, _answer(message["id"], served))
        if reply is not None:
            await exchange.finish(reply)


async def _serve_one(
    runner: ServerRunner[Any], exchange: _Exchange, method: str, params: Mapping[str, Any] | None, *, fast: bool
) -> dict[str, Any]:
    """The SDK's ``serve_one``; on the fast path without unwinding the connection's exit stack when nothing was
    put on it (a shielded scope with a deadline per request otherwise)."""
    connection = runner.connection
    try:
        return await runner.on_request(exchange, method, params)
    finally:
        if not (fast and nothing_to_unwind(connection.exit_stack)):
            await aclose_shielded(connection)


async def _answer(request_id: RequestId, served: Any) -> dict[str, Any]:
    """The JSON-RPC reply to what ``served`` returns or raises (the SDK's exception-to-wire ladder)."""
    try:
        result = await served
    except Exception as exc:
        return _error(request_id, modern_error_data(exc).model_dump(mode="json", by_alias=True, exclude_none=True))
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


@dataclass
class _Exchange:
    """The ``DispatchContext`` of one request: notifications go onto its response (then an SSE stream)."""

    send: Send
    request_id: RequestId
    transport: TransportContext
    message_metadata: ServerMessageMetadata
    progress_token: ProgressToken | None
    streaming: bool
    held: list[bytes] | None
    """Events held back until the answer is known (reads and prompt gets: see ``bodies.py``), else ``None``."""
    can_send_request: bool = field(default=False, init=False)
    committed: bool = field(default=False, init=False)
    """Whether the response went out as ``text/event-stream``."""
    closed: bool = field(default=False, init=False)
    last_sent: float = field(default_factory=time.monotonic, init=False)
    _cancel_requested: anyio.Event | None = field(default=None, init=False)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)

    @property
    def cancel_requested(self) -> anyio.Event:
        if self._cancel_requested is None:
            self._cancel_requested = anyio.Event()
        return self._cancel_requested

    async def send_raw_request(
        self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None
    ) -> dict[str, Any]:
        raise NoBackChannelError(method)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None) -> None:
        if not self.streaming:
            return  # a JSON response has no room for notifications
        notification = {"jsonrpc": "2.0", "method": method} | ({"params": params} if params is not None else {})
        if self.held is not None:
            self.held.append(_sse(notification))
            return
        await self._event(_sse(notification), final=False)

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        if self.progress_token is None:
            return
        params: dict[str, Any] = {"progressToken": self.progress_token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        await self.notify("notifications/progress", params)

    async def finish(self, reply: dict[str, Any]) -> None:
        """Send the reply: a JSON body (status from the SDK's table), or the SSE stream's last event.

        Held events go out before a reply that fits one event; a larger reply goes alone, as a JSON
        body (the SDK clients refuse an event over 1 MiB; the events are in the call history).
        """
        if self.held:
            encoded = codec.dumps(reply)
            if len(encoded) <= EVENT_ROOM:
                for event in self.held:
                    await self._event(event, final=False)
            self.held = None
        async with self._lock:
            if not self.committed:
                self.closed = True
                error = reply.get("error")
                status = ERROR_CODE_HTTP_STATUS.get(error["code"], 200) if error is not None else 200
                await send_json(self.send, status, codec.dumps(reply))
                return
        await self._event(_sse(reply), final=True)

    async def _event(self, data: bytes, *, final: bool) -> None:
        async with self._lock:
            if self.closed:
                logger.debug("dropped an event: the response stream is closed")
                return
            self.closed = final
            if not self.committed:
                self.committed = True
                await self.send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
            await self.send({"type": "http.response.body", "body": data, "more_body": not final})
            self.last_sent = time.monotonic()

    async def watched(self, receive: Receive, answer: Awaitable[dict[str, Any]]) -> dict[str, Any] | None:
        """``answer``'s reply, or ``None`` when the client closed its stream first (the 2026 era's way to
        cancel): after ``WATCH_AFTER`` a task pings the stream and watches for that. The scope is asyncio's
        own (a ``Timeout`` with no deadline until the client goes), cheaper than an anyio scope."""
        loop = asyncio.get_running_loop()
        started: list[asyncio.Task[None]] = []
        try:
            async with asyncio.timeout(None) as scope:
                timer = loop.call_later(
                    WATCH_AFTER, lambda: started.append(loop.create_task(self._watch(receive, scope)))
                )
                try:
                    return await answer
                finally:
                    timer.cancel()
                    for task in started:
                        task.cancel()
        except TimeoutError:
            if scope.expired():
                return None
            raise

    async def _watch(self, receive: Receive, scope: asyncio.Timeout) -> None:
        if await client_gone(receive, self):
            scope.reschedule(asyncio.get_running_loop().time())  # now: this request's task is cancelled

    async def ping(self) -> None:
        if self.held is None and time.monotonic() - self.last_sent >= PING_INTERVAL:
            await self._event(PING, final=False)


class Pinged(Protocol):
    """A response stream ``client_gone`` keeps alive."""

    closed: bool
    last_sent: float
    """``time.monotonic()`` of its last write."""

    async def ping(self) -> None:
        """A keep-alive comment, if the stream is still open and has been silent ``PING_INTERVAL``."""
        ...


async def client_gone(receive: Receive, stream: Pinged) -> bool:
    """Ping ``stream`` through its silences until it closes; ``True`` as soon as its client goes."""
    gone = asyncio.ensure_future(_disconnected(receive))
    try:
        while not stream.closed:
            wait = stream.last_sent + PING_INTERVAL - time.monotonic()
            done, _ = await asyncio.wait({gone}, timeout=max(0.0, wait))
            if done:
                return True
            await stream.ping()
        return False
    finally:
        gone.cancel()


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _classify(message: dict[str, Any], scope: Scope) -> InboundModernRoute | InboundLadderRejection:
    """The SDK's routing checks of a request (``find_duplicated_routing_header``, then
    ``classify_inbound_request``), given only the routing headers it reads, found in one pass."""
    routing: dict[str, str] = {}
    for key, value in scope["headers"]:
        name = _ROUTING_HEADERS.get(key.lower())
        if name is None:
            continue
        if name in routing:
            return InboundLadderRejection(code=HEADER_MISMATCH, message=f"{name} header appears more than once")
        routing[name] = value.decode("latin-1")
    return classify_inbound_request(message, headers=routing)


_ROUTING_HEADERS = {name.encode(): name for name in (MCP_PROTOCOL_VERSION_HEADER, MCP_METHOD_HEADER, MCP_NAME_HEADER)}


def _rejection_error(rejection: InboundLadderRejection) -> dict[str, Any]:
    error: dict[str, Any] = {"code": rejection.code, "message": rejection.message}
    if rejection.data is not None:
        error["data"] = rejection.data
    return error


def _error(request_id: RequestId | None, error: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def _sse(message: dict[str, Any]) -> bytes:
    return sse_event(codec.dumps(message))


def sse_event(data: bytes, event_id: str | None = None, retry: int | None = None) -> bytes:
    """One ``message`` event carrying ``data`` (a JSON text, made ``line_safe``), with its id and a reconnection
    delay if given."""
    head = (b"id: " + event_id.encode() + b"\r\n" if event_id else b"") + (b"retry: %d\r\n" % retry if retry else b"")
    return head + b"event: message\r\ndata: " + line_safe(data) + b"\r\n\r\n"


async def _reply(send: Send, reply: dict[str, Any]) -> None:
    status = ERROR_CODE_HTTP_STATUS.get(reply["error"]["code"], 200) if "error" in reply else 200
    await send_json(send, status, codec.dumps(reply))
