"""The MCP SDK (mcp 2.x): the only module that names its private parts. ``ADAPTER.check()`` tests each reach.

Each reach, why, and the public API that would end it:

- ``ServerSession._connection``: the ``Connection`` behind a 2025-era session, to serve a request
  on it in the request's own task (``session_connection``). Public alternative: the request context
  carrying its connection (mcp's ``Context.connection``, which ``ServerRunner`` does not build yet).
- ``StreamableHTTPSessionManager._server_instances`` and ``._session_owners``: an open session's
  transport, if this request's credential opened it (``SessionManager.transport_for``).
  ``._discard_session``, extended: a session's end, told at once (``on_end``). Public alternative: a
  lookup of a session's transport and a session-closed hook.
- ``StreamableHTTPServerTransport._idle_timeout`` and ``._requests_in_flight``: a request answered
  outside the transport holds its session open and restarts its idle clock, as the transport's own
  ``handle_request`` does (``SessionManager.holding``, ``session_open``). Public alternative: a
  hold/touch method.
- ``StreamableHTTPServerTransport._request_streams`` and ``._write_stream``: where the session's
  router sends a request's events, here handed to a response written by the caller
  (``route_stream``, ``unroute_stream``, ``writable``). Public alternative: a per-request event sink.
- ``JSONRPCDispatcher._closed``, ``._transport_builder``, ``._in_flight``, ``._write`` and the
  module's ``_InFlight`` and ``_JSONRPCDispatchContext``: one request served with the session's
  dispatcher (its cancellation, back-channel requests, progress) in the request's own task
  (``dispatch_context``, ``in_flight``, ``write``). Public alternative: "serve this one request on
  this dispatcher".
- ``ServerRunner._serialize``, overridden: a 2026-era ``CallToolResult`` this package built is
  dumped once instead of dumped, revalidated and dumped again (``ShapingRunner``). Public
  alternative: a result-shaping hook.
- ``Connection._client_params`` (a ``copy.copy`` that must know every attribute): a 2026-era
  client's connection built once per envelope and copied for each request (``copy_connection``).
  Public alternative: a cheaper ``Connection.from_envelope``.

When the check fails, or the fast paths are off, the public path serves: every 2025-era request in
a session goes to the SDK's own session manager, 2026-era results are shaped by the SDK, and each
2026-era request builds its connection with ``Connection.from_envelope``.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import importlib
import inspect
import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import AsyncExitStack
from functools import cache
from typing import Any

import anyio
from mcp.server import Server
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, authorization_context
from mcp.server.connection import Connection
from mcp.server.context import HandlerResult
from mcp.server.runner import ServerRunner
from mcp.server.session import ServerSession
from mcp.server.streamable_http import StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.dispatcher import CallOptions, DispatchContext, coerce_request_id
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp.shared.message import MessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import JSONRPCMessage, ProgressToken, RequestId
from starlette.types import Scope

from jupyter_mcp.adapters.fastpaths import Adapter

LIBRARY = "mcp"
_DISPATCHER_MODULE = "mcp.shared.jsonrpc_dispatcher"
_CONNECTION_ATTRIBUTES = frozenset(
    {"outbound", "protocol_version", "session_id", "client_capabilities", "_client_params", "initialized"}
    | {"state", "exit_stack"}
)
"""A ``Connection``'s attributes: the envelope's (shared by copies) and the per-request ones (fresh)."""
_FRESH: dict[str, Callable[[], Any]] = {"state": dict, "exit_stack": AsyncExitStack}


# ---- the session manager -----------------------------------------------------------------------


class SessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager with its open sessions at hand and their ends told to ``on_end(session_id)``."""

    def __init__(self, app: Server[Any], *, on_end: Callable[[str], None], **options: Any) -> None:
        super().__init__(app, **options)
        self.on_end = on_end

    async def _discard_session(self, session_id: str, transport: StreamableHTTPServerTransport) -> None:
        await super()._discard_session(session_id, transport)
        self.on_end(session_id)

    def transport_for(self, scope: Scope, session_id: str) -> StreamableHTTPServerTransport | None:
        """The open session's transport, if this request's credential is the one that opened it."""
        transport = self._server_instances.get(session_id)
        if (
            transport is None
            or transport.is_terminated
            or (transport.idle_scope and transport.idle_scope.cancel_called)
        ):
            return None
        user = scope.get("user")
        requestor = authorization_context(user) if isinstance(user, AuthenticatedUser) else None
        return transport if requestor == self._session_owners.get(session_id) else None

    def session_open(self, scope: Scope, session_id: str) -> bool:
        """Whether ``session_id`` is open to this request; a request answered outside its transport resets the
        session's idle clock, as the transport does after one of its own."""
        transport = self.transport_for(scope, session_id)
        if transport is None:
            return False
        idle = transport.idle_scope
        if idle is not None and transport._idle_timeout is not None and not transport._requests_in_flight:
            idle.deadline = anyio.current_time() + transport._idle_timeout
        return True

    @contextlib.contextmanager
    def holding(self, transport: StreamableHTTPServerTransport) -> Iterator[None]:
        """A request in flight holds its session open, as the transport's own ``handle_request`` does."""
        idle, timeout = transport.idle_scope, transport._idle_timeout
        if idle is None or timeout is None:
            yield
            return
        transport._requests_in_flight += 1
        idle.deadline = math.inf
        try:
            yield
        finally:
            transport._requests_in_flight -= 1
            if not transport._requests_in_flight:
                idle.deadline = asyncio.get_running_loop().time() + timeout  # anyio's clock, without its backend lookup


def session_connection(session: ServerSession) -> Connection | None:
    """The ``Connection`` a request's ``ServerSession`` speaks for."""
    connection = getattr(session, "_connection", None)
    return connection if isinstance(connection, Connection) else None


# ---- one request on a session's dispatcher -----------------------------------------------------


def writable(transport: StreamableHTTPServerTransport, dispatcher: JSONRPCDispatcher[Any]) -> bool:
    """Whether the session's dispatcher runs and its transport's router can take events."""
    return not dispatcher._closed and transport._write_stream is not None


def route_stream(transport: StreamableHTTPServerTransport, stream_id: str, sink: Any) -> None:
    """Have the session's router hand the events of request ``stream_id`` to ``sink`` (``send``, ``aclose``)."""
    transport._request_streams[stream_id] = (sink, sink)


def unroute_stream(transport: StreamableHTTPServerTransport, stream_id: str, sink: Any) -> None:
    """Stop routing to ``sink`` (a stream someone else took over stays)."""
    streams: dict[Any, Any] = transport._request_streams
    entry = streams.get(stream_id)
    if entry is not None and entry[0] is sink:
        del streams[stream_id]


def dispatch_context(
    dispatcher: JSONRPCDispatcher[TransportContext],
    metadata: MessageMetadata,
    request_id: RequestId,
    progress_token: ProgressToken | None,
    on_route: Callable[[], None],
) -> DispatchContext[TransportContext]:
    """The dispatcher's context for one request, calling ``on_route()`` before anything goes out for it."""
    routed = _routed_context_class()
    context: DispatchContext[TransportContext] = routed(
        transport=dispatcher._transport_builder(metadata),
        _dispatcher=dispatcher,
        _request_id=request_id,
        message_metadata=metadata,
        _progress_token=progress_token,
        on_route=on_route,
    )
    return context


@contextlib.contextmanager
def in_flight(
    dispatcher: JSONRPCDispatcher[TransportContext], request_id: RequestId, context: DispatchContext[TransportContext]
) -> Iterator[anyio.CancelScope]:
    """Register the request as the dispatcher's (a ``notifications/cancelled`` for it cancels the scope yielded);
    closed and unregistered on the way out."""
    scope = anyio.CancelScope()
    key = coerce_request_id(request_id)
    dispatcher._in_flight[key] = importlib.import_module(_DISPATCHER_MODULE)._InFlight(scope, context)
    try:
        yield scope
    finally:
        context.close()  # type: ignore[attr-defined]
        entry = dispatcher._in_flight.get(key)
        if entry is not None and entry.dctx is context:
            del dispatcher._in_flight[key]


async def write(dispatcher: JSONRPCDispatcher[Any], message: JSONRPCMessage) -> None:
    """Write through the session's router (stored, then to the request's response or a resumed stream)."""
    await dispatcher._write(message)


@cache
def _routed_context_class() -> type:
    base = importlib.import_module(_DISPATCHER_MODULE)._JSONRPCDispatchContext

    @dataclasses.dataclass
    class RoutedContext(base):  # type: ignore[misc, valid-type]
        on_route: Callable[[], None] | None = None

        async def notify(self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None) -> None:
            self._routing()
            await super().notify(method, params, opts)

        async def send_raw_request(
            self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None
        ) -> dict[str, Any]:
            self._routing()
            result: dict[str, Any] = await super().send_raw_request(method, params, opts)
            return result

        def _routing(self) -> None:
            if self.on_route is not None and not self._closed:
                self.on_route()

    return RoutedContext


# ---- the runner's result shaping ---------------------------------------------------------------


Shape = Callable[[ServerRunner[Any], str, str, HandlerResult], "dict[str, Any] | None"]


@dataclasses.dataclass
class ShapingRunner(ServerRunner[Any]):
    """``ServerRunner`` whose results go to ``shape(runner, method, version, result)`` first: its dict is the wire
    form, ``None`` leaves the result to the SDK's shaping."""

    shape: Shape | None = None

    def _serialize(self, method: str, version: str, result: HandlerResult) -> dict[str, Any]:
        shaped = self.shape(self, method, version, result) if self.shape is not None else None
        return shaped if shaped is not None else super()._serialize(method, version, result)


# ---- copies of a born-ready connection ---------------------------------------------------------


def copy_connection(born: Connection) -> Connection:
    """A copy of ``born`` sharing what its envelope fixed, with fresh per-request ``state`` and ``exit_stack``."""
    fresh = copy.copy(born)
    for name, make in _FRESH.items():
        setattr(fresh, name, make())
    return fresh


# ---- the self-check ----------------------------------------------------------------------------


def check() -> str | None:
    """``None`` when every reach above holds in the installed mcp, else the first that does not."""
    for probe in (_check_session, _check_manager, _check_transport, _check_dispatcher, _check_runner):
        reason = probe()
        if reason is not None:
            return reason
    return None


def _check_session() -> str | None:
    connection = Connection.from_envelope("2025-11-25", None, None)
    if set(vars(connection)) != _CONNECTION_ATTRIBUTES:
        return f"Connection's attributes changed: {sorted(vars(connection))}"
    if session_connection(ServerSession(_Inert(), connection)) is not connection:  # type: ignore[arg-type]
        return "ServerSession keeps its Connection elsewhere than in _connection"
    return None


def _check_manager() -> str | None:
    manager = StreamableHTTPSessionManager(Server("probe"))
    for name in ("_server_instances", "_session_owners"):
        if not isinstance(getattr(manager, name, None), dict):
            return f"StreamableHTTPSessionManager has no {name} dict"
    discard = getattr(StreamableHTTPSessionManager, "_discard_session", None)
    if not inspect.iscoroutinefunction(discard) or list(inspect.signature(discard).parameters) != [
        "self",
        "session_id",
        "transport",
    ]:
        return "StreamableHTTPSessionManager._discard_session(session_id, transport) changed"
    return None


def _check_transport() -> str | None:
    transport = StreamableHTTPServerTransport("probe", idle_timeout=60.0)
    expected = {"_idle_timeout": 60.0, "_requests_in_flight": 0, "_request_streams": {}, "_write_stream": None}
    for name, value in expected.items():
        if getattr(transport, name, _MISSING) != value:
            return f"StreamableHTTPServerTransport.{name} is not what it was ({value!r} on a new transport)"
    return None


def _check_dispatcher() -> str | None:
    dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(_Inert(), _Inert())  # type: ignore[arg-type]
    if getattr(dispatcher, "_closed", None) is not False or getattr(dispatcher, "_in_flight", None) != {}:
        return "JSONRPCDispatcher's _closed flag or _in_flight table changed"
    if not callable(getattr(dispatcher, "_transport_builder", None)):
        return "JSONRPCDispatcher has no _transport_builder"
    if not inspect.iscoroutinefunction(getattr(JSONRPCDispatcher, "_write", None)):
        return "JSONRPCDispatcher._write is gone"
    module = importlib.import_module(_DISPATCHER_MODULE)
    in_flight, context = getattr(module, "_InFlight", None), getattr(module, "_JSONRPCDispatchContext", None)
    if _fields(in_flight) != ["scope", "dctx"]:
        return "jsonrpc_dispatcher._InFlight(scope, dctx) changed"
    wanted = {"transport", "_dispatcher", "_request_id", "message_metadata", "_progress_token", "_closed"}
    if not wanted <= set(_fields(context)):
        return "jsonrpc_dispatcher._JSONRPCDispatchContext's fields changed"
    return None


def _check_runner() -> str | None:
    serialize = ServerRunner.__dict__.get("_serialize")
    if not callable(serialize) or list(inspect.signature(serialize).parameters) != [
        "self",
        "method",
        "version",
        "result",
    ]:
        return "ServerRunner._serialize(method, version, result) changed"
    return None


def _fields(cls: Any) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []


class _Inert:
    """Stands for a channel in the probes: never used."""


_MISSING = object()

ADAPTER = Adapter(LIBRARY, check, "the SDK's own session manager, result shaping and Connection.from_envelope")
