"""The call path: one function every call goes through, whoever makes it.

lookup -> validate -> run (executor, timeout, hooks) -> convert -> result, with observers told
at each step. Every failure becomes an ``isError`` result; nothing escapes but cancellation.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import mcp_types as mt
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools.context import CallScope, Context
from jupyter_mcp.tools.errors import ToolError, ToolTimeoutError, UnknownToolError
from jupyter_mcp.tools.events import (
    CallFinished,
    CallObserver,
    CallStarted,
    CallStatus,
    ClientInfo,
    InputWait,
    LateResult,
    TaskCreated,
)
from jupyter_mcp.tools.executors import Executor, UnavailableExecutor, WorkerExecutor
from jupyter_mcp.tools.gate import InputGate
from jupyter_mcp.tools.observers import Observers
from jupyter_mcp.tools.registry import ToolRegistry
from jupyter_mcp.tools.results import text
from jupyter_mcp.tools.runs import CallRun
from jupyter_mcp.tools.tool import BoundCall, Tool

ExecutionHook = Callable[[CallScope], AbstractContextManager[None]]
"""Entered around the function, in the thread (or task) that runs it: per-call capture uses this."""

_ids = itertools.count(1)
_PREFIX = f"{os.getpid():x}"


def new_call_id() -> str:
    return f"{_PREFIX}-{next(_ids)}"


@dataclass
class CallSettings:
    strict: bool = False
    mask_error_details: bool = False


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
    """Runs tool calls against a registry and reports them to observers."""

    def __init__(
        self,
        registry: ToolRegistry,
        settings: CallSettings | None = None,
        *,
        max_workers: int = 16,
    ) -> None:
        self.registry = registry
        self.settings = settings or CallSettings()
        self.executors: dict[str, Executor] = {
            "worker": WorkerExecutor(max_workers),
            "main": UnavailableExecutor("run_on='main' needs a Jupyter kernel's main thread; none is serving here"),
        }
        self.hooks: list[ExecutionHook] = []
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
        source: Literal["client", "notebook"] = "client",
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
        source: Literal["client", "notebook"] = "client",
        gate: InputGate | None = None,
    ) -> CallRun:
        """Start a call as its own task on the running loop; the ``CallRun`` says how it goes.

        With a ``gate`` the tool's questions wait there for answers (2026 era, tasks) instead of
        going to the client as requests.
        """
        call_id = new_call_id()
        scope = self._scope(call_id, name, client, request)
        scope.gate = gate
        if gate is not None:
            gate.listen(lambda pending: scope.on_input({key: request.method for key, request in pending.items()}))
        args = dict(arguments or {})
        self._notify("call_started", CallStarted(call_id, name, args, client, time.time(), source))
        return CallRun(scope, scope.loop.create_task(self._run(name, args, scope)))

    async def _run(self, name: str, args: dict[str, Any], scope: CallScope) -> mt.CallToolResult:
        started = time.perf_counter()
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
            result = _error_result(failure.message)
        self._finish(scope.call_id, started, result, failure)
        return result

    def _scope(
        self,
        call_id: str,
        name: str,
        client: ClientInfo | None,
        request: ServerRequestContext[Any, Any] | None,
    ) -> CallScope:
        return CallScope(
            call_id=call_id,
            tool_name=name,
            client=client,
            request=request,
            loop=asyncio.get_running_loop(),
            on_progress=lambda e: self._notify("call_progress", call_id, e),
            on_log=lambda e: self._notify("call_log", call_id, e),
            on_input=lambda asking: self._notify("call_input", call_id, InputWait(asking, time.time())),
        )

    def _finish(self, call_id: str, started: float, result: mt.CallToolResult, failure: _Failure | None) -> None:
        duration = time.perf_counter() - started
        if failure is None:
            event = CallFinished("ok", duration, result, None, None)
        else:
            event = CallFinished(failure.status, duration, result, failure.error, failure.traceback)
        self._notify("call_finished", call_id, event)

    def _unexpected(self, name: str, exc: Exception) -> _Failure:
        full = f"{type(exc).__name__}: {exc}"
        shown = f"Tool {name!r} failed; the server hides error details" if self.settings.mask_error_details else full
        return _Failure("error", shown, full, _traceback_of(exc))

    async def _attempt(self, name: str, arguments: dict[str, Any], scope: CallScope) -> mt.CallToolResult:
        tool = self.registry.get(name)
        if tool is None:
            raise UnknownToolError(_unknown_message(name, self.registry))
        strict = tool.strict if tool.strict is not None else self.settings.strict
        scope.is_async = tool.is_async
        context = Context(scope)
        bound = tool.bind(arguments, strict=strict, injected=dict.fromkeys(tool.parsed.injected, context))
        value = await self._execute(tool, bound, scope)
        converted = tool.convert(value)
        return mt.CallToolResult(
            content=converted.content,
            structured_content=converted.structured,
            meta=converted.meta,
            is_error=False,
        )

    async def _execute(self, tool: Tool, bound: BoundCall, scope: CallScope) -> Any:
        executor = self.executors[tool.run_on]
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

    def _sync_thunk(self, tool: Tool, bound: BoundCall, scope: CallScope, late: _LateWatch) -> Callable[[], Any]:
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

    def _async_thunk(self, tool: Tool, bound: BoundCall, scope: CallScope) -> Callable[[], Awaitable[Any]]:
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


def _protocol_failure(exc: MCPError) -> _Failure:
    message = f"protocol error {exc.error.code}: {exc.error.message}"
    return _Failure("error", message, message, _traceback_of(exc))


def _error_result(message: str) -> mt.CallToolResult:
    return mt.CallToolResult(content=[text(message)], is_error=True)


def _traceback_of(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))


def _unknown_message(name: str, registry: ToolRegistry) -> str:
    names = [t.name for t in registry.visible()]
    listing = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
    return f"Unknown tool: {name!r}. Available tools: {listing or 'none'}"
