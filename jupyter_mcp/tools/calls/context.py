"""``Context``: what a running tool can know about its call and send back to the client."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar, cast, get_args

import mcp_types as mt
from mcp.server.connection import allowed_log_levels
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.message import ServerMessageMetadata
from pydantic import BaseModel

from jupyter_mcp.shapes.status import ApprovalDetail
from jupyter_mcp.tools.calls import inputs
from jupyter_mcp.tools.calls.events import ClientInfo, LogEvent, LogLevel, ProgressEvent
from jupyter_mcp.tools.calls.gate import InputGate, KeyRing
from jupyter_mcp.tools.calls.inputs import ElicitAnswer, InputRequest, RootsAnswer, SampleAnswer
from jupyter_mcp.tools.components.base import Injected, Kind
from jupyter_mcp.tools.errors import ToolError
from jupyter_mcp.tools.peers import LOG_LEVEL_STATE_KEY, peer_of

logger = logging.getLogger(__name__)

_LEVELS: tuple[LogLevel, ...] = get_args(LogLevel)
_SEND_TIMEOUT = 10.0
_AnswerT = TypeVar("_AnswerT", bound=BaseModel)


class CancelFlag:
    """Set once a call is cancelled or timed out; read from any thread (a flag under the GIL).

    Not ``threading.Event``: nothing waits on it, and an event's lock and condition cost every call.
    """

    __slots__ = ("_set",)

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set


@dataclass
class CallScope:
    """Per-call state shared by the server's call path and the tool's ``Context``."""

    call_id: str
    tool_name: str
    """The name of the tool or prompt called, or the URI read."""
    client: ClientInfo | None
    request: ServerRequestContext[Any, Any] | None
    loop: asyncio.AbstractEventLoop
    on_progress: Callable[[ProgressEvent], None]
    on_log: Callable[[LogEvent], None]
    on_input: Callable[[dict[str, str]], None]
    """Told what the call waits for (key -> method) whenever that changes; ``{}`` once answered."""
    cancel_event: CancelFlag = field(default_factory=CancelFlag)
    is_async: bool = True
    """Whether the tool is a coroutine function (its Context calls are awaited)."""
    gate: InputGate | None = None
    """Where the tool's questions wait for answers (2026 era, tasks); ``None``: ask the session directly."""
    keys: KeyRing = field(default_factory=KeyRing)
    asking: dict[str, str] = field(default_factory=dict)
    """Requests sent straight to the client and not yet answered (2025 era), key -> method."""
    stop_status: Literal["cancelled", "expired"] = "cancelled"
    """How the call ends if its task is cancelled: by a client or the server, or for want of input."""
    notebook_user: NotebookUser | None = None
    """Who ``ctx.ask_notebook_user`` asks (the server's approvals); ``None`` outside a server."""
    waiting_note: str | None = None
    """What the call waits for besides the client (the notebook user's approval): a task's statusMessage."""
    kind: Kind = "tool"
    started: float = 0.0
    """``time.perf_counter()`` when the call started (its duration's origin)."""


class NotebookUser(Protocol):
    """Asks the person at the notebook (``Approvals.ask``, ``Approvals.approve``)."""

    async def ask(self, scope: CallScope, message: str, schema: dict[str, Any]) -> mt.ElicitResult: ...

    async def approve(self, scope: CallScope, arguments: dict[str, Any], detail: ApprovalDetail | None) -> None: ...


class _Done:
    """An awaitable that is already complete: what ``Context`` returns to sync code."""

    def __await__(self) -> Generator[Any, None, None]:
        return None
        yield


class _Pending(Generic[_AnswerT]):
    """An answer still to come: what an async tool awaits (on the serving loop or its own)."""

    def __init__(self, coro: Coroutine[Any, Any, _AnswerT], home: asyncio.AbstractEventLoop) -> None:
        self._coro = coro
        self._home = home

    def __await__(self) -> Generator[Any, None, _AnswerT]:
        if asyncio.get_running_loop() is self._home:
            return self._coro.__await__()
        future = asyncio.run_coroutine_threadsafe(self._coro, self._home)
        return asyncio.wrap_future(future).__await__()

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"{name!r}: an async tool must await the answer first (answer = await ctx.elicit(...))")


class Context(Injected):
    """Handed to a tool that declares a parameter typed ``Context``; never part of its schema.

    Its methods work from async tools (``await ctx.info("...")``) and from sync tools running in
    a worker or on the kernel's main thread (``ctx.info("...")``, no ``await`` needed). Asking the
    client (``elicit``, ``sample``, ``list_roots``) works in both protocol eras: a request to the
    client during the call (2025) or an ``input_required`` round the call waits through (2026).

    Example::

        @server.tool
        async def crunch(n: int, ctx: Context) -> int:
            for i in range(n):
                await ctx.report_progress(i, n, f"step {i}")
            return n
    """

    def __init__(self, scope: CallScope) -> None:
        self._scope = scope

    @property
    def call_id(self) -> str:
        return self._scope.call_id

    @property
    def tool_name(self) -> str:
        return self._scope.tool_name

    @property
    def request_id(self) -> str | None:
        """The JSON-RPC id of the ``tools/call`` request (``None`` for calls made from a cell)."""
        request = self._scope.request
        return None if request is None or request.request_id is None else str(request.request_id)

    @property
    def request_context(self) -> ServerRequestContext[Any, Any] | None:
        """The mcp SDK's request context (session, transport details); ``None`` for notebook calls."""
        return self._scope.request

    @property
    def client_info(self) -> ClientInfo | None:
        """Client name, version and protocol version, when the client said who it is."""
        return self._scope.client

    @property
    def cancelled(self) -> bool:
        """True once the client cancelled this call or it timed out; sync tools can poll it."""
        return self._scope.cancel_event.is_set()

    def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> Awaitable[None]:
        """Report progress; reaches the client if it asked for progress, and always the history."""
        self._scope.on_progress(ProgressEvent(progress, total, message, time.time()))
        request = self._scope.request
        if request is None:
            return _Done()
        return self._send(request.session.report_progress(progress, total, message))

    def log(self, level: LogLevel, message: str, logger_name: str | None = None) -> Awaitable[None]:
        """Send a log message to the client (``notifications/message``) and record it."""
        if level not in _LEVELS:
            raise ValueError(f"log level must be one of {', '.join(_LEVELS)}; got {level!r}")
        self._scope.on_log(LogEvent(level, str(message), logger_name, time.time()))
        request = self._scope.request
        if request is None or not _client_wants(request, level):
            return _Done()
        params = mt.LoggingMessageNotificationParams(level=level, data=str(message), logger=logger_name)
        notification = mt.LoggingMessageNotification(params=params)
        return self._send(request.session.send_notification(notification, related_request_id=request.request_id))

    def debug(self, message: str, logger_name: str | None = None) -> Awaitable[None]:
        return self.log("debug", message, logger_name)

    def info(self, message: str, logger_name: str | None = None) -> Awaitable[None]:
        return self.log("info", message, logger_name)

    def warning(self, message: str, logger_name: str | None = None) -> Awaitable[None]:
        return self.log("warning", message, logger_name)

    def error(self, message: str, logger_name: str | None = None) -> Awaitable[None]:
        return self.log("error", message, logger_name)

    @property
    def client_capabilities(self) -> mt.ClientCapabilities | None:
        """What the client declared it supports (per request in the 2026 era); ``None`` for notebook calls."""
        request = self._scope.request
        return None if request is None else request.session.client_capabilities

    def elicit(self, message: str, schema: dict[str, Any] | type[BaseModel], *, key: str | None = None) -> ElicitAnswer:
        """Ask the user for structured input through the client (form elicitation).

        ``schema`` is a flat JSON object schema or a pydantic model; the answer has ``action``
        (``accept``/``decline``/``cancel``) and ``content``. ``key`` names the request in the
        2026 era's ``inputRequests`` (default ``elicitation-1``, ``elicitation-2``...). Async tools
        ``await`` it (requests awaited together with ``asyncio.gather`` go out together); sync
        tools call it plainly and their thread waits for the answer.

        Example::

            answer = await ctx.elicit("Overwrite the file?", {"type": "object", "properties": {}})
            if answer.action != "accept":
                return "kept"
        """
        request = inputs.elicitation(self._key(key, "elicitation"), message, schema)
        return self._ask(request, ElicitAnswer)

    def sample(
        self,
        messages: str | Sequence[str | mt.SamplingMessage],
        *,
        max_tokens: int = 512,
        system_prompt: str | None = None,
        temperature: float | None = None,
        model_preferences: mt.ModelPreferences | None = None,
        key: str | None = None,
    ) -> SampleAnswer:
        """Ask the client's LLM for a completion (the client must support sampling).

        Example::

            reply = await ctx.sample("Summarize: " + text, max_tokens=100)
            summary = reply.content.text
        """
        request = inputs.sampling(
            self._key(key, "sampling"),
            messages,
            max_tokens=max_tokens,
            system_prompt=system_prompt,
            temperature=temperature,
            model_preferences=model_preferences,
        )
        return self._ask(request, SampleAnswer)

    def list_roots(self, *, key: str | None = None) -> RootsAnswer:
        """The client's roots (directories or files it exposes); the client must support roots."""
        return self._ask(inputs.roots(self._key(key, "roots")), RootsAnswer)

    def _key(self, key: str | None, capability: inputs.Capability) -> str:
        return self._scope.keys.claim(key, capability)

    def ask_notebook_user(self, message: str, schema: dict[str, Any] | type[BaseModel]) -> Any:
        """Ask the notebook's user (not the client) for a small form; the call waits for the answer.

        The form shows in the server panel, built from ``schema`` as the try-it form is. Returns an
        ``ElicitResult`` like ``elicit``: ``action`` is ``accept`` (with ``content``), ``decline``,
        or ``cancel`` when nobody answered within the server's ``approval_timeout``. Async tools
        ``await`` it; sync tools get the result directly.

        Example::

            answer = await ctx.ask_notebook_user("Which table?", {"type": "object",
                                                 "properties": {"table": {"type": "string"}}})
        """
        user = self._scope.notebook_user
        if user is None:
            raise ToolError("ask_notebook_user needs a server with a notebook user; this call has none")
        requested = schema.model_json_schema() if isinstance(schema, type) else dict(schema)
        asking = user.ask(self._scope, message, requested)
        if self._scope.is_async:
            return cast(mt.ElicitResult, _Pending(asking, self._scope.loop))
        # A sync tool: this thread waits for the answer; the server keeps serving.
        return asyncio.run_coroutine_threadsafe(asking, self._scope.loop).result()

    def ask_approval(self, arguments: Mapping[str, Any], detail: ApprovalDetail | None = None) -> Any:
        """Wait until the notebook user allows what this call is about to do (Allow, Allow for N min, Deny).

        It waits with the server's other calls for approval (JupyterLab's notification, the sidebar, a
        chat card), shown as this tool called with ``arguments`` and with ``detail`` (a diff, or code to
        run). Returns once allowed; a denial, the pause or nobody answering within ``approval_timeout``
        raises ``ToolError`` (the client sees why). A call from the notebook itself is its user's own and
        passes at once. Async tools ``await`` it.

        Example::

            await ctx.ask_approval({"table": name}, {"kind": "code", "title": "Drop a table", "text": sql})
        """
        user = self._scope.notebook_user
        if user is None:
            raise ToolError("ask_approval needs a server with a notebook user; this call has none")
        waiting = user.approve(self._scope, dict(arguments), detail)
        if self._scope.is_async:
            return _Pending(waiting, self._scope.loop)
        return asyncio.run_coroutine_threadsafe(waiting, self._scope.loop).result()

    def _ask(self, request: InputRequest, answer_type: type[_AnswerT]) -> _AnswerT:
        coro = self._answer(request, answer_type)
        if self._scope.is_async:
            return cast(_AnswerT, _Pending(coro, self._scope.loop))
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._scope.loop:
            coro.close()
            raise RuntimeError("a sync tool's Context cannot wait for input on the serving loop")
        # A sync tool: this thread waits for the answer; the server keeps serving.
        return asyncio.run_coroutine_threadsafe(coro, self._scope.loop).result()

    async def _answer(self, request: InputRequest, answer_type: type[_AnswerT]) -> _AnswerT:
        scope_request = self._scope.request
        if scope_request is None:
            raise inputs.no_client(request.capability)
        if not inputs.has_capability(scope_request.session.client_capabilities, request.capability):
            raise inputs.missing_capability(request.capability)
        gate = self._scope.gate
        if gate is not None:
            answer: BaseModel = await gate.ask(request)
        else:
            answer = await self._request_directly(scope_request, request)
        return answer_type.model_validate(answer.model_dump(by_alias=True, mode="json"), by_name=False)

    async def _request_directly(
        self, scope_request: ServerRequestContext[Any, Any], request: InputRequest
    ) -> BaseModel:
        """2025 era: a server-to-client request during the call (the history shows the call waiting)."""
        asking = self._scope.asking
        asking[request.key] = request.method
        self._scope.on_input(dict(asking))
        metadata = ServerMessageMetadata(related_request_id=scope_request.request_id)
        try:
            return await scope_request.session.send_request(request.request, request.answer_type, metadata=metadata)
        except NoBackChannelError:
            raise ToolError(
                f"{request.capability} is not available: this client's protocol "
                f"({scope_request.protocol_version}) cannot take server requests on this transport"
            ) from None
        finally:
            del asking[request.key]
            self._scope.on_input(dict(asking))

    def _send(self, coro: Coroutine[Any, Any, None]) -> Awaitable[None]:
        loop = self._scope.loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            return _guarded(coro)
        # Called from a worker or the kernel's main thread: send on the serving loop and wait, so
        # notifications keep their order relative to the result.
        future = asyncio.run_coroutine_threadsafe(_guarded(coro), loop)
        if running is None:
            try:
                future.result(timeout=_SEND_TIMEOUT)
            except TimeoutError:
                logger.warning("a notification from tool %r took over %ss to send", self.tool_name, _SEND_TIMEOUT)
            return _Done()
        return asyncio.wrap_future(future)


async def _guarded(coro: Coroutine[Any, Any, None]) -> None:
    # A client that went away must not turn a notification into a failed tool call.
    try:
        await coro
    except Exception:
        logger.debug("notification not delivered", exc_info=True)


def _client_wants(request: ServerRequestContext[Any, Any], level: LogLevel) -> bool:
    if level not in allowed_log_levels(request.protocol_version, request.meta):
        return False
    peer = peer_of(request)
    threshold = peer.state.get(LOG_LEVEL_STATE_KEY) if peer is not None else None
    if threshold is None:
        return True
    return _LEVELS.index(level) >= _LEVELS.index(threshold)
