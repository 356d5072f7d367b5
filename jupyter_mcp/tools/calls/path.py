"""The call path: what every tool call, resource read and prompt get goes through, whoever makes it.

lookup -> validate -> run (executor, timeout, hooks) -> convert -> result, with observers told
at each step. A failed tool call is an ``isError`` result; a failed read or prompt get raises a
``ToolError`` subclass (the protocol handler turns it into a JSON-RPC error) after it is recorded.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import os
import threading
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import (
    AbstractAsyncContextManager,
    AbstractContextManager,
    ExitStack,
    asynccontextmanager,
    contextmanager,
)
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

import anyio
import mcp_types as mt
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools.budget.result_budget import ResultBudget
from jupyter_mcp.tools.calls.context import CallScope, Context
from jupyter_mcp.tools.calls.events import (
    CallFinished,
    CallObserver,
    CallOutcome,
    CallStarted,
    CallStatus,
    ClientInfo,
    InputWait,
    LateResult,
    PreviewSent,
    TaskCreated,
)
from jupyter_mcp.tools.calls.executors import Executor, UnavailableExecutor, WorkerExecutor
from jupyter_mcp.tools.calls.gate import InputGate
from jupyter_mcp.tools.calls.run import CallRun
from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.components.function import BoundCall, ParsedFunction
from jupyter_mcp.tools.components.options import RunOn
from jupyter_mcp.tools.components.prompts import PromptRegistry
from jupyter_mcp.tools.components.registry import Registry, ToolRegistry
from jupyter_mcp.tools.components.resources import Found, ResourceRegistry
from jupyter_mcp.tools.components.results import text
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.errors import (
    PromptError,
    ResourceError,
    ResourceNotFoundError,
    ToolArgumentsError,
    ToolError,
    ToolTimeoutError,
    UnknownPromptError,
    UnknownToolError,
)
from jupyter_mcp.tools.observers import Observers
from jupyter_mcp.tools.settings import ServerSettings

Source = Literal["client", "notebook"]
_R = TypeVar("_R", mt.ReadResourceResult, mt.GetPromptResult)

ExecutionHook = Callable[[CallScope], AbstractContextManager[None]]
"""Entered around the function, in the thread (or task) that runs it: per-call capture uses this."""

_ids = itertools.count(1)
_PREFIX = f"{os.getpid():x}"


def new_call_id() -> str:
    return f"{_PREFIX}-{next(_ids)}"


class Admission(Protocol):
    """Decides, around a tool's function, whether a call runs (``Approvals`` is the server's)."""

    def admit(self, tool: Tool, arguments: dict[str, Any], scope: CallScope) -> AbstractAsyncContextManager[None]: ...


class _AdmitAll:
    @asynccontextmanager
    async def admit(self, tool: Tool, arguments: dict[str, Any], scope: CallScope) -> AsyncIterator[None]:
        yield


class Runnable(Protocol):
    """What the call path runs: a tool, a resource or a prompt."""

    name: str

    @property
    def parsed(self) -> ParsedFunction: ...
    @property
    def fn(self) -> Callable[..., Any]: ...
    @property
    def is_async(self) -> bool: ...
    @property
    def timeout(self) -> float | None: ...
    @property
    def run_on(self) -> RunOn: ...


@dataclass
class _Failure:
    status: CallStatus
    message: str
    """What the client sees."""
    error: str
    """The full message for the record."""
    traceback: str | None = None


@dataclass
class _LateWatch:
    """Tells observers when a sync function abandoned at its timeout finally returns."""

    emit: Callable[[LateResult], None]
    started: float = field(default_factory=time.perf_counter)
    _abandoned: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def abandon(self) -> None:
        with self._lock:
            self._abandoned = True

    def finished(self, error: BaseException | None) -> None:
        with self._lock:
            if not self._abandoned:
                return
        message = None if error is None else f"{type(error).__name__}: {error}"
        self.emit(LateResult(time.perf_counter() - self.started, message))


class CallPath:
    """Runs tool calls, resource reads and prompt gets against the registries; tells observers."""

    def __init__(
        self,
        registry: ToolRegistry,
        settings: ServerSettings | None = None,
        *,
        resources: ResourceRegistry | None = None,
        prompts: PromptRegistry | None = None,
        admission: Admission | None = None,
    ) -> None:
        self.registry = registry
        self.settings = settings or ServerSettings()
        self.resources = resources if resources is not None else ResourceRegistry()
        self.prompts = prompts if prompts is not None else PromptRegistry()
        self.executors: dict[str, Executor] = {
            "worker": WorkerExecutor(self.settings.max_workers),
            "main": UnavailableExecutor("run_on='main' needs a Jupyter kernel's main thread; none is serving here"),
        }
        self.hooks: list[ExecutionHook] = []
        self.budget = ResultBudget(self.settings)
        """The result budget: results over it go to clients as a preview + ``result://`` link."""
        self.admission: Admission = admission or _AdmitAll()
        """What admits a tool call to run (the server's ``Approvals``: confirmation, pause, client limits)."""
        self._observers: Observers[CallObserver] = Observers(__name__)

    # ---- observers -------------------------------------------------------------------------------

    def add_observer(self, observer: CallObserver) -> Callable[[], None]:
        return self._observers.add(observer)

    def task_created(self, call_id: str, event: TaskCreated) -> None:
        """Tell observers that call ``call_id`` became a task."""
        self._notify("call_task", call_id, event)

    def _notify(self, method: str, *args: Any) -> None:
        self._observers.each(lambda observer: getattr(observer, method)(*args))

    # ---- the call --------------------------------------------------------------------------------

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        request: ServerRequestContext[Any, Any] | None = None,
        client: ClientInfo | None = None,
        source: Source = "client",
    ) -> mt.CallToolResult:
        """Run one call end to end; errors come back as ``isError`` results.

        A tool that raises ``MCPError`` for a client call fails that call with the protocol error
        (a JSON-RPC error); cancelling the awaiting task cancels the call.
        """
        return await self.start(name, arguments, request=request, client=client, source=source).task

    def start(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        request: ServerRequestContext[Any, Any] | None = None,
        client: ClientInfo | None = None,
        source: Source = "client",
        gate: InputGate | None = None,
    ) -> CallRun[mt.CallToolResult]:
        """Start a call as its own task on the running loop; the ``CallRun`` says how it goes.

        With a ``gate`` the tool's questions wait there for answers (2026 era, tasks) instead of
        going to the client as requests.
        """
        args = dict(arguments or {})
        scope, started = self._begin(CallStarted("", name, args, client, time.time(), source, "tool", name), request)
        _gated(scope, gate)
        return CallRun(scope, scope.loop.create_task(self._run(name, args, scope, started)))

    async def _run(self, name: str, args: dict[str, Any], scope: CallScope, started: float) -> mt.CallToolResult:
        try:
            result, failure = await self._attempt(name, args, scope), None
        except ToolTimeoutError as exc:
            failure = _Failure("timeout", str(exc), str(exc))
        except ToolError as exc:
            failure = _Failure("error", str(exc), str(exc), _traceback_of(exc))
        except anyio.get_cancelled_exc_class():
            scope.cancel_event.set()
            status = scope.stop_status
            self._finish(scope.call_id, started, _error_result(f"Call {status}"), _Failure(status, "", status))
            raise
        except MCPError as exc:
            failure = _protocol_failure(exc)
            if scope.request is not None:
                self._finish(scope.call_id, started, _error_result(failure.message), failure)
                raise  # the client gets the protocol error itself
        except Exception as exc:
            failure = self._unexpected(name, exc)
        if failure is not None:
            result = self._within_budget(_error_result(failure.message), scope, self.registry.get(name))
        self._finish(scope.call_id, started, result, failure)
        return result

    async def read_resource(
        self,
        uri: str,
        *,
        request: ServerRequestContext[Any, Any] | None = None,
        client: ClientInfo | None = None,
        source: Source = "client",
    ) -> mt.ReadResourceResult:
        """Read ``uri``; raises ``ResourceNotFoundError``, ``ToolArgumentsError`` or ``ResourceError``."""
        try:
            found, refused = self.resources.find(uri) or self.budget.find(uri), None
        except ToolArgumentsError as exc:
            found, refused = None, exc
        values = dict(found.values) if found is not None else {}
        component = found.resource.key if found is not None else None
        started = CallStarted("", uri, values, client, time.time(), source, "resource", component)

        async def attempt(scope: CallScope) -> mt.ReadResourceResult:
            if refused is not None:
                raise refused
            return await self._read(uri, found, scope)

        scope, began = self._begin(started, request)
        return await self._served(scope, began, started, attempt)

    async def _read(self, uri: str, found: Found | None, scope: CallScope) -> mt.ReadResourceResult:
        if found is None:
            listing = ", ".join(r.key for r in self.resources.visible()[:20]) or "none"
            raise ResourceNotFoundError(uri, f"Resource not found: {uri!r}. Available resources: {listing}")
        resource = found.resource
        bound = resource.bind(found.values, dict.fromkeys(resource.parsed.injected, Context(scope)))
        value = await self._execute(resource, bound, scope)
        return mt.ReadResourceResult(contents=resource.contents(value, uri))

    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        request: ServerRequestContext[Any, Any] | None = None,
        client: ClientInfo | None = None,
        source: Source = "client",
    ) -> mt.GetPromptResult:
        """Render prompt ``name``; raises ``UnknownPromptError``, ``ToolArgumentsError`` or ``PromptError``."""
        return await self.start_prompt(name, arguments, request=request, client=client, source=source).task

    def start_prompt(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        request: ServerRequestContext[Any, Any] | None = None,
        client: ClientInfo | None = None,
        source: Source = "client",
        gate: InputGate | None = None,
    ) -> CallRun[mt.GetPromptResult]:
        """Start rendering prompt ``name`` as its own task; with a ``gate`` its questions wait there (2026 era)."""
        args = dict(arguments or {})
        prompt = self.prompts.get(name)
        started = CallStarted("", name, args, client, time.time(), source, "prompt", prompt.key if prompt else None)

        async def attempt(scope: CallScope) -> mt.GetPromptResult:
            if prompt is None:
                raise UnknownPromptError(f"Unknown prompt: {name!r}. Available prompts: {_listing(self.prompts)}")
            bound = prompt.bind(args, dict.fromkeys(prompt.parsed.injected, Context(scope)))
            value = await self._execute(prompt, bound, scope)
            return mt.GetPromptResult(description=prompt.description, messages=prompt.messages(value))

        scope, began = self._begin(started, request)
        _gated(scope, gate)
        return CallRun(scope, scope.loop.create_task(self._served(scope, began, started, attempt)))

    async def _served(
        self,
        scope: CallScope,
        started: float,
        event: CallStarted,
        attempt: Callable[[CallScope], Awaitable[_R]],
    ) -> _R:
        """Run a read or a prompt get as one recorded call; a failure is recorded, then raised as a ToolError."""
        try:
            result = await attempt(scope)
        except anyio.get_cancelled_exc_class():
            scope.cancel_event.set()
            status = scope.stop_status
            self._finish(scope.call_id, started, None, _Failure(status, "", status))
            raise
        except MCPError as exc:
            self._finish(scope.call_id, started, None, _protocol_failure(exc))
            raise  # the client gets the protocol error itself (-32021, ...)
        except ToolError as exc:
            self._finish(scope.call_id, started, None, _Failure("error", str(exc), str(exc), _traceback_of(exc)))
            raise
        except Exception as exc:
            failure = self._unexpected(event.tool, exc, event.kind)
            self._finish(scope.call_id, started, None, failure)
            error = ResourceError if event.kind == "resource" else PromptError
            raise error(failure.message) from exc
        self._finish(scope.call_id, started, result, None)
        return result

    def _begin(self, event: CallStarted, request: ServerRequestContext[Any, Any] | None) -> tuple[CallScope, float]:
        """Give the call an id and a scope, and tell observers it started."""
        call_id = new_call_id()
        scope = CallScope(
            call_id=call_id,
            tool_name=event.tool,
            client=event.client,
            request=request,
            loop=asyncio.get_running_loop(),
            on_progress=lambda e: self._notify("call_progress", call_id, e),
            on_log=lambda e: self._notify("call_log", call_id, e),
            on_input=lambda asking: self._notify("call_input", call_id, InputWait(asking, time.time())),
        )
        self._notify("call_started", dataclasses.replace(event, call_id=call_id))
        return scope, time.perf_counter()

    def _finish(self, call_id: str, started: float, result: CallOutcome | None, failure: _Failure | None) -> None:
        duration = time.perf_counter() - started
        if failure is None:
            event = CallFinished("ok", duration, result, None, None)
        else:
            event = CallFinished(failure.status, duration, result, failure.error, failure.traceback)
        self._notify("call_finished", call_id, event)

    def _unexpected(self, name: str, exc: Exception, kind: Kind = "tool") -> _Failure:
        full = f"{type(exc).__name__}: {exc}"
        what = {"tool": "Tool", "resource": "Reading resource", "prompt": "Prompt"}[kind]
        shown = f"{what} {name!r} failed; the server hides error details" if self.settings.mask_error_details else full
        return _Failure("error", shown, full, _traceback_of(exc))

    async def _attempt(self, name: str, arguments: dict[str, Any], scope: CallScope) -> mt.CallToolResult:
        tool = self.registry.get(name)
        if tool is None:
            raise UnknownToolError(_unknown_message(name, self.registry))
        strict = tool.strict if tool.strict is not None else self.settings.strict
        context = Context(scope)
        bound = tool.bind(arguments, strict=strict, injected=dict.fromkeys(tool.parsed.injected, context))
        async with self.admission.admit(tool, arguments, scope):
            value = await self._execute(tool, bound, scope)
        converted = tool.convert(value)
        result = mt.CallToolResult(
            content=converted.content,
            structured_content=converted.structured,
            meta=converted.meta,
            is_error=False,
        )
        return self._within_budget(result, scope, tool)

    def _within_budget(self, result: mt.CallToolResult, scope: CallScope, tool: Any) -> mt.CallToolResult:
        """What a client gets: ``result`` (a value or an error), or over the budget a preview + link
        (observers get the full value).

        A call from the notebook itself (no request: ``server.call`` in a cell) gets everything.
        """
        if scope.request is None:
            return result
        sent = self.budget.apply(result, scope.call_id, tool)
        if sent.full is not None and sent.uri is not None:
            event = PreviewSent(sent.full, sent.uri, sent.size, sent.budget)
            self._observers.each(lambda o: getattr(o, "call_previewed", _ignore)(scope.call_id, event))
        return sent.result

    async def _execute(self, tool: Runnable, bound: BoundCall, scope: CallScope) -> Any:
        executor = self.executors[tool.run_on]
        scope.is_async = tool.is_async  # how the Context asks the client: awaited, or blocking a worker
        late = _LateWatch(lambda e: self._notify("call_late_result", scope.call_id, e))
        with anyio.move_on_after(tool.timeout) as deadline:
            if tool.is_async:
                return await executor.run_async(self._async_thunk(tool, bound, scope))
            return await executor.run_sync(self._sync_thunk(tool, bound, scope, late))
        # Only reached when the deadline cancelled the run.
        del deadline
        late.abandon()
        scope.cancel_event.set()
        kind = "it was cancelled" if tool.is_async else "its late result will be discarded"
        raise ToolTimeoutError(f"Tool {tool.name!r} timed out after {tool.timeout:g}s (its timeout); {kind}")

    def _sync_thunk(self, tool: Runnable, bound: BoundCall, scope: CallScope, late: _LateWatch) -> Callable[[], Any]:
        def run() -> Any:
            with self._hooks(scope):
                try:
                    value = tool.fn(*bound.args, **bound.kwargs)
                except BaseException as exc:
                    late.finished(exc)
                    raise
                late.finished(None)
                return value

        return run

    def _async_thunk(self, tool: Runnable, bound: BoundCall, scope: CallScope) -> Callable[[], Awaitable[Any]]:
        async def run() -> Any:
            with self._hooks(scope):
                return await tool.fn(*bound.args, **bound.kwargs)

        return run

    @contextmanager
    def _hooks(self, scope: CallScope) -> Iterator[None]:
        with ExitStack() as stack:
            for hook in self.hooks:
                stack.enter_context(hook(scope))
            yield


def _ignore(*args: Any) -> None:
    """Observers written before ``call_previewed`` existed simply do not hear it."""


def _gated(scope: CallScope, gate: InputGate | None) -> None:
    """Questions of the call wait in ``gate`` (the history shows what the call waits for)."""
    scope.gate = gate
    if gate is not None:
        gate.listen(lambda pending: scope.on_input({key: asked.method for key, asked in pending.items()}))


def _protocol_failure(exc: MCPError) -> _Failure:
    message = f"protocol error {exc.error.code}: {exc.error.message}"
    return _Failure("error", message, message, _traceback_of(exc))


def _error_result(message: str) -> mt.CallToolResult:
    return mt.CallToolResult(content=[text(message)], is_error=True)


def _traceback_of(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))


def _listing(registry: Registry[Any]) -> str:
    keys = [item.key for item in registry.visible()]
    return (", ".join(keys[:20]) + (", ..." if len(keys) > 20 else "")) or "none"


def _unknown_message(name: str, registry: ToolRegistry) -> str:
    return f"Unknown tool: {name!r}. Available tools: {_listing(registry)}"
