"""The call path: what every tool call, resource read and prompt get goes through, whoever makes it.

One way for all three: the call gets an id and a scope and observers hear it started; the
component is looked up, its arguments validated, its function run (``invocation.py``: executor,
timeout, hooks) and its value converted; any failure is classified once (``failures.py``) and the
call is recorded as finished. Only the answer differs by kind: a failed tool call is an
``isError`` result (within the result budget); a failed read or prompt get raises a ``ToolError``
subclass, which the protocol handler turns into a JSON-RPC error.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

import mcp_types as mt
from mcp.server.context import ServerRequestContext

from jupyter_mcp.tools.budget.result_budget import ResultBudget
from jupyter_mcp.tools.calls.context import CallScope, Context
from jupyter_mcp.tools.calls.events import (
    CallFinished,
    CallObserver,
    CallOutcome,
    CallStarted,
    ClientInfo,
    InputWait,
    PreviewSent,
    TaskCreated,
)
from jupyter_mcp.tools.calls.executors import QuickRuns
from jupyter_mcp.tools.calls.failures import Failure, classify, error_result
from jupyter_mcp.tools.calls.gate import InputGate
from jupyter_mcp.tools.calls.invocation import Execution, ExecutionHook
from jupyter_mcp.tools.calls.run import CallRun
from jupyter_mcp.tools.components.prompts import PromptRegistry
from jupyter_mcp.tools.components.registry import Registry, ToolRegistry
from jupyter_mcp.tools.components.resources import Found, ResourceRegistry
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.errors import (
    PromptError,
    ResourceError,
    ResourceNotFoundError,
    ToolArgumentsError,
    UnknownPromptError,
    UnknownToolError,
)
from jupyter_mcp.tools.observers import Observers
from jupyter_mcp.tools.settings import ServerSettings

Source = Literal["client", "notebook"]
Request = ServerRequestContext[Any, Any]
_R = TypeVar("_R", mt.CallToolResult, mt.ReadResourceResult, mt.GetPromptResult)
Attempt = Callable[[CallScope], Awaitable[_R]]
Answer = Callable[[Failure, BaseException, CallScope], _R]
"""How a kind answers a failure: returns what the caller gets, or raises."""

__all__ = ["NOTEBOOK", "Admission", "CallPath", "ExecutionHook", "Origin", "Source", "new_call_id"]

_ids = itertools.count(1)
_PREFIX = f"{os.getpid():x}"
_WHAT = {"tool": "Tool", "resource": "Reading resource", "prompt": "Prompt"}


def new_call_id() -> str:
    return f"{_PREFIX}-{next(_ids)}"


@dataclass(frozen=True)
class Origin:
    """Who makes a call: a client (its request, and who it is), or the notebook itself."""

    request: Request | None = None
    client: ClientInfo | None = None
    source: Source = "client"


CLIENT = Origin()
NOTEBOOK = Origin(source="notebook")
"""A call from the notebook itself (``server.call`` in a cell, a card's try-it form): no client, no budget."""


class Admission(Protocol):
    """Decides, around a tool's function, whether a call runs (``Approvals`` is the server's)."""

    def admit(self, tool: Tool, arguments: dict[str, Any], scope: CallScope) -> AbstractAsyncContextManager[None]: ...


class _AdmitAll:
    @asynccontextmanager
    async def admit(self, tool: Tool, arguments: dict[str, Any], scope: CallScope) -> AsyncIterator[None]:
        yield


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
        inline_allowed: Callable[[], bool] = lambda: True,
    ) -> None:
        self.registry = registry
        self.settings = settings or ServerSettings()
        self.resources = resources if resources is not None else ResourceRegistry()
        self.prompts = prompts if prompts is not None else PromptRegistry()
        self.execution = Execution(
            self.settings.max_workers,
            lambda call_id, event: self._notify("call_late_result", call_id, event),
            QuickRuns(lambda: self.settings.inline_quick_tools and inline_allowed()),
        )
        """Where functions run: its ``executors`` (``"worker"``, ``"main"``) and ``hooks``."""
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

    # ---- tool calls ------------------------------------------------------------------------------

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        origin: Origin = CLIENT,
    ) -> mt.CallToolResult:
        """Run one call end to end; errors come back as ``isError`` results.

        A tool that raises ``MCPError`` for a client call fails that call with the protocol error
        (a JSON-RPC error); cancelling the awaiting task cancels the call. The call runs in the
        awaiting task itself: nothing outlives it (``start`` makes a call that can).
        """
        event, attempt = self._tool_call(name, arguments, origin)
        return await self._recorded(self._begin(event, origin.request, None), attempt, self._tool_failed)

    def start(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        origin: Origin = CLIENT,
        gate: InputGate | None = None,
    ) -> CallRun[mt.CallToolResult]:
        """Start a call as its own task on the running loop; the ``CallRun`` says how it goes.

        With a ``gate`` the tool's questions wait there for answers (2026 era, tasks) instead of
        going to the client as requests.
        """
        event, attempt = self._tool_call(name, arguments, origin)
        return self._started(event, origin.request, gate, attempt, self._tool_failed)

    def _tool_call(
        self, name: str, arguments: Mapping[str, Any] | None, origin: Origin
    ) -> tuple[CallStarted, Attempt[mt.CallToolResult]]:
        """A tool call's start event and its attempt (``call`` runs them in place, ``start`` as a task)."""
        args = dict(arguments or {})
        event = CallStarted("", name, args, origin.client, time.time(), origin.source, "tool", name)
        return event, lambda scope: self._call(name, args, scope)

    async def _call(self, name: str, arguments: dict[str, Any], scope: CallScope) -> mt.CallToolResult:
        tool = self.registry.get(name)
        if tool is None:
            raise UnknownToolError(f"Unknown tool: {name!r}. Available tools: {_listing(self.registry)}")
        strict = tool.strict if tool.strict is not None else self.settings.strict
        bound = tool.bind(arguments, strict=strict, injected=dict.fromkeys(tool.parsed.injected, Context(scope)))
        async with self.admission.admit(tool, arguments, scope):
            value = await self.execution.run(tool, bound, scope)
        converted = tool.convert(value)
        result = mt.CallToolResult(
            content=converted.content, structured_content=converted.structured, meta=converted.meta, is_error=False
        )
        return self._within_budget(result, scope, tool)

    def _tool_failed(self, failure: Failure, exc: BaseException, scope: CallScope) -> mt.CallToolResult:
        """A tool's failure is an ``isError`` result, except a cancellation and (for a client) a protocol error."""
        if failure.kind == "cancelled" or (failure.kind == "protocol" and scope.request is not None):
            self._finish(scope, error_result(failure.message), failure)
            raise exc  # the client gets the protocol error itself; a cancellation stays one
        result = self._within_budget(error_result(failure.message), scope, self.registry.get(scope.tool_name))
        self._finish(scope, result, failure)
        return result

    def _within_budget(self, result: mt.CallToolResult, scope: CallScope, tool: Tool | None) -> mt.CallToolResult:
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

    # ---- resource reads and prompt gets ----------------------------------------------------------

    async def read_resource(
        self,
        uri: str,
        origin: Origin = CLIENT,
    ) -> mt.ReadResourceResult:
        """Read ``uri``; raises ``ResourceNotFoundError``, ``ToolArgumentsError`` or ``ResourceError``."""
        try:
            found, refused = self.resources.find(uri) or self.budget.find(uri), None
        except ToolArgumentsError as exc:
            found, refused = None, exc
        values = dict(found.values) if found is not None else {}
        component = found.resource.key if found is not None else None
        event = CallStarted("", uri, values, origin.client, time.time(), origin.source, "resource", component)

        async def attempt(scope: CallScope) -> mt.ReadResourceResult:
            if refused is not None:
                raise refused
            return await self._read(uri, found, scope)

        return await self._recorded(self._begin(event, origin.request, None), attempt, self._raised)

    async def _read(self, uri: str, found: Found | None, scope: CallScope) -> mt.ReadResourceResult:
        if found is None:
            listing = ", ".join(r.key for r in self.resources.visible()[:20]) or "none"
            raise ResourceNotFoundError(uri, f"Resource not found: {uri!r}. Available resources: {listing}")
        resource = found.resource
        bound = resource.bind(found.values, dict.fromkeys(resource.parsed.injected, Context(scope)))
        value = await self.execution.run(resource, bound, scope)
        return mt.ReadResourceResult(contents=resource.contents(value, uri))

    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        origin: Origin = CLIENT,
    ) -> mt.GetPromptResult:
        """Render prompt ``name``; raises ``UnknownPromptError``, ``ToolArgumentsError`` or ``PromptError``."""
        return await self.start_prompt(name, arguments, origin).task

    def start_prompt(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        origin: Origin = CLIENT,
        gate: InputGate | None = None,
    ) -> CallRun[mt.GetPromptResult]:
        """Start rendering prompt ``name`` as its own task; with a ``gate`` its questions wait there (2026 era)."""
        args = dict(arguments or {})
        prompt = self.prompts.get(name)
        key = prompt.key if prompt else None
        event = CallStarted("", name, args, origin.client, time.time(), origin.source, "prompt", key)

        async def attempt(scope: CallScope) -> mt.GetPromptResult:
            if prompt is None:
                raise UnknownPromptError(f"Unknown prompt: {name!r}. Available prompts: {_listing(self.prompts)}")
            bound = prompt.bind(args, dict.fromkeys(prompt.parsed.injected, Context(scope)))
            value = await self.execution.run(prompt, bound, scope)
            return mt.GetPromptResult(description=prompt.description, messages=prompt.messages(value))

        return self._started(event, origin.request, gate, attempt, self._raised)

    def _raised(self, failure: Failure, exc: BaseException, scope: CallScope) -> Any:
        """A read's or a prompt get's failure is raised (an unexpected one as ``ResourceError``/``PromptError``)."""
        self._finish(scope, None, failure)
        if failure.kind == "unexpected":
            raise (ResourceError if scope.kind == "resource" else PromptError)(failure.message) from exc
        raise exc  # a ToolError the handler turns into its JSON-RPC error; a protocol error; a cancellation

    # ---- every call's life -----------------------------------------------------------------------

    def _started(
        self,
        event: CallStarted,
        request: Request | None,
        gate: InputGate | None,
        attempt: Attempt[_R],
        failed: Answer[_R],
    ) -> CallRun[_R]:
        scope = self._begin(event, request, gate)
        return CallRun(scope, scope.loop.create_task(self._recorded(scope, attempt, failed)))

    def _begin(self, event: CallStarted, request: Request | None, gate: InputGate | None) -> CallScope:
        """Give the call an id and a scope (questions waiting in ``gate``), and tell observers it started."""
        call_id = new_call_id()
        scope = CallScope(
            call_id=call_id,
            tool_name=event.tool,
            kind=event.kind,
            client=event.client,
            request=request,
            loop=asyncio.get_running_loop(),
            on_progress=lambda e: self._notify("call_progress", call_id, e),
            on_log=lambda e: self._notify("call_log", call_id, e),
            on_input=lambda asking: self._notify("call_input", call_id, InputWait(asking, time.time())),
        )
        scope.gate = gate
        if gate is not None:  # the history shows what the call waits for
            gate.listen(lambda pending: scope.on_input({key: asked.method for key, asked in pending.items()}))
        self._notify("call_started", dataclasses.replace(event, call_id=call_id))
        scope.started = time.perf_counter()
        return scope

    async def _recorded(self, scope: CallScope, attempt: Attempt[_R], failed: Answer[_R]) -> _R:
        """Run ``attempt`` as one recorded call; a failure is classified once and answered by its kind."""
        try:
            result = await attempt(scope)
        except BaseException as exc:
            failure = classify(
                exc, scope, f"{_WHAT[scope.kind]} {scope.tool_name!r}", mask=self.settings.mask_error_details
            )
            if failure is None:
                raise
            if failure.kind == "cancelled":
                scope.cancel_event.set()
            return failed(failure, exc, scope)
        self._finish(scope, result, None)
        return result

    def _finish(self, scope: CallScope, result: CallOutcome | None, failure: Failure | None) -> None:
        duration = time.perf_counter() - scope.started
        if failure is None:
            event = CallFinished("ok", duration, result, None, None)
        else:
            event = CallFinished(failure.status, duration, result, failure.error, failure.traceback)
        self._notify("call_finished", scope.call_id, event)


def _ignore(*args: Any) -> None:
    """Observers written before ``call_previewed`` existed simply do not hear it."""


def _listing(registry: Registry[Any]) -> str:
    keys = [item.key for item in registry.visible()]
    return (", ".join(keys[:20]) + (", ..." if len(keys) > 20 else "")) or "none"
