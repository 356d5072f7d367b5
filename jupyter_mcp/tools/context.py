"""``Context``: what a running tool can know about its call and send back to the client."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, get_args

import mcp_types as mt
from mcp.server.connection import allowed_log_levels
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.message import ServerMessageMetadata
from pydantic import BaseModel

from jupyter_mcp.tools._sdk import LOG_LEVEL_STATE_KEY, connection_of
from jupyter_mcp.tools.errors import ToolError
from jupyter_mcp.tools.events import ClientInfo, LogEvent, LogLevel, ProgressEvent

logger = logging.getLogger(__name__)

_LEVELS: tuple[LogLevel, ...] = get_args(LogLevel)
_SEND_TIMEOUT = 10.0
_ResultT = TypeVar("_ResultT", bound=BaseModel)


@dataclass
class CallScope:
    """Per-call state shared by the server's call path and the tool's ``Context``."""

    call_id: str
    tool_name: str
    client: ClientInfo | None
    request: ServerRequestContext[Any, Any] | None
    loop: asyncio.AbstractEventLoop
    on_progress: Callable[[ProgressEvent], None]
    on_log: Callable[[LogEvent], None]
    cancel_event: threading.Event = field(default_factory=threading.Event)
    notebook_user: NotebookUser | None = None
    """Who ``ctx.ask_notebook_user`` asks (the server's approvals); ``None`` outside a server."""


class NotebookUser(Protocol):
    """Asks the person at the notebook (``Approvals.ask``)."""

    async def ask(self, scope: CallScope, message: str, schema: dict[str, Any]) -> mt.ElicitResult: ...


class _Done:
    """An awaitable that is already complete: what ``Context`` returns to sync code."""

    def __await__(self) -> Generator[Any, None, None]:
        return None
        yield


class Context:
    """Handed to a tool that declares a parameter typed ``Context``; never part of its schema.

    Its methods work from async tools (``await ctx.info("...")``) and from sync tools running in
    a worker or on the kernel's main thread (``ctx.info("...")``, no ``await`` needed).

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

    async def sample(
        self,
        messages: str | Sequence[str | mt.SamplingMessage],
        *,
        max_tokens: int = 512,
        system_prompt: str | None = None,
        temperature: float | None = None,
        model_preferences: mt.ModelPreferences | None = None,
    ) -> mt.CreateMessageResult:
        """Ask the client's LLM for a completion (2025-era sessions whose client supports sampling).

        Example::

            reply = await ctx.sample("Summarize: " + text, max_tokens=100)
            summary = reply.content.text
        """
        params = mt.CreateMessageRequestParams(
            messages=_sampling_messages(messages),
            max_tokens=max_tokens,
            system_prompt=system_prompt,
            temperature=temperature,
            model_preferences=model_preferences,
        )
        request = mt.CreateMessageRequest(params=params)
        return await self._request(request, mt.CreateMessageResult, "sampling")

    async def elicit(self, message: str, schema: dict[str, Any] | type[BaseModel]) -> mt.ElicitResult:
        """Ask the user for structured input through the client (form elicitation).

        ``schema`` is a flat JSON object schema or a pydantic model. The result has ``action``
        (``accept``/``decline``/``cancel``) and ``content``.
        """
        requested = schema.model_json_schema() if isinstance(schema, type) else dict(schema)
        params = mt.ElicitRequestFormParams(message=message, requested_schema=requested)
        return await self._request(mt.ElicitRequest(params=params), mt.ElicitResult, "elicitation")

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
        loop = self._scope.loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            return asking
        future = asyncio.run_coroutine_threadsafe(asking, loop)
        if running is None:
            return future.result()  # a sync tool in a worker (or on the main thread) waits here
        return asyncio.wrap_future(future)

    async def _request(self, request: Any, result_type: type[_ResultT], feature: str) -> _ResultT:
        scope_request = self._scope.request
        if scope_request is None:
            raise ToolError(f"{feature} needs an MCP client; this call came from the notebook")
        metadata = ServerMessageMetadata(related_request_id=scope_request.request_id)
        try:
            return await scope_request.session.send_request(request, result_type, metadata=metadata)
        except NoBackChannelError:
            raise ToolError(
                f"{feature} is not available: this client's protocol ({scope_request.protocol_version}) "
                "does not let the server send it requests during a call"
            ) from None

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


def _sampling_messages(messages: str | Sequence[str | mt.SamplingMessage]) -> list[mt.SamplingMessage]:
    items = [messages] if isinstance(messages, str) else list(messages)
    return [
        m
        if isinstance(m, mt.SamplingMessage)
        else mt.SamplingMessage(role="user", content=mt.TextContent(type="text", text=m))
        for m in items
    ]


async def _guarded(coro: Coroutine[Any, Any, None]) -> None:
    # A client that went away must not turn a notification into a failed tool call.
    try:
        await coro
    except Exception:
        logger.debug("notification not delivered", exc_info=True)


def _client_wants(request: ServerRequestContext[Any, Any], level: LogLevel) -> bool:
    if level not in allowed_log_levels(request.protocol_version, request.meta):
        return False
    connection = connection_of(request)
    threshold = connection.state.get(LOG_LEVEL_STATE_KEY) if connection is not None else None
    if threshold is None:
        return True
    return _LEVELS.index(level) >= _LEVELS.index(threshold)
