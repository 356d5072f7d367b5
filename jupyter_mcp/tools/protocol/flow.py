"""How a ``tools/call`` (or ``prompts/get``) request is answered, in each protocol era.

2025 era: the call runs while the request waits; the tool's questions go to the client as
server-to-client requests. 2026 era: questions wait in the call's ``InputGate`` and the client
gets ``input_required`` (an input round, ``calls/rounds.py``), retrying with the answers; a
task tool called by a client that declared the tasks extension becomes a task (``tasks.py``)
once it has run ``task_after`` seconds. Input asked before that point is part of the call
itself, so a tool can ask its questions up front and then run long as a task (input rounds,
then a task: the tasks extension's composition).
A prompt asks the same way (``input_required`` is universal, SEP-2322); it never becomes a task.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

import mcp_types as mt
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.tools.calls.gate import InputGate
from jupyter_mcp.tools.calls.path import CallPath, Origin
from jupyter_mcp.tools.calls.rounds import InputRounds
from jupyter_mcp.tools.calls.run import CallRun, Outcome
from jupyter_mcp.tools.calls.tasks import TaskStore, declares_tasks, tasks_required
from jupyter_mcp.tools.protocol.sessions import client_info_of
from jupyter_mcp.tools.settings import ServerSettings

_T = TypeVar("_T")

ToolCallAnswer = mt.CallToolResult | mt.InputRequiredResult | dict[str, Any]
"""A result, an ``input_required`` round, or a ``CreateTaskResult`` (a dict: an extension shape)."""


class CallFlow:
    """The ``tools/call`` handler: starts or resumes a call and answers with what it came to."""

    def __init__(self, calls: CallPath, rounds: InputRounds, tasks: TaskStore, settings: ServerSettings) -> None:
        self.calls = calls
        self.rounds = rounds
        self.tasks = tasks
        self.settings = settings

    async def __call__(self, ctx: ServerRequestContext[Any, Any], params: mt.CallToolRequestParams) -> ToolCallAnswer:
        client = client_info_of(ctx)
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            self._refuse_required(ctx, params.name)
            return await self.calls.call(params.name, params.arguments, Origin(ctx, client))
        run: CallRun[mt.CallToolResult]
        if params.request_state is not None:
            run = self._resume(ctx, params.request_state, params.name, params.input_responses)
        elif self._goes_straight(params.name):
            return await self.calls.call(params.name, params.arguments, Origin(ctx, client))
        else:
            self._refuse_required(ctx, params.name)
            gate = InputGate(params.input_responses)
            run = self.calls.start(params.name, params.arguments, Origin(ctx, client), gate)
        may_become_task = self._may_become_task(ctx, params.name)
        outcome = await self._next(run, self.settings.task_after if may_become_task else None)
        if outcome == "slow":
            return self.tasks.create(run)
        return self._answer(run, outcome, params.name)

    async def get_prompt(
        self, ctx: ServerRequestContext[Any, Any], params: mt.GetPromptRequestParams
    ) -> mt.GetPromptResult | mt.InputRequiredResult:
        """``prompts/get``: rendered, or (2026 era) an ``input_required`` round; raises ``ToolError``."""
        client = client_info_of(ctx)
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return await self.calls.get_prompt(params.name, params.arguments, Origin(ctx, client))
        parked_as = f"prompts/get {params.name}"  # a tool of the same name cannot resume it
        run: CallRun[mt.GetPromptResult]
        if params.request_state is not None:
            run = self._resume(ctx, params.request_state, parked_as, params.input_responses)
        else:
            gate = InputGate(params.input_responses)
            run = self.calls.start_prompt(params.name, params.arguments, Origin(ctx, client), gate)
        return self._answer(run, await self._next(run, None), parked_as)

    def _resume(
        self, ctx: ServerRequestContext[Any, Any], state: str, parked_as: str, answers: dict[str, Any] | None
    ) -> CallRun[Any]:
        run = self.rounds.peek(state, parked_as)
        assert run.gate is not None
        run.gate.answer(answers or {})  # a malformed answer leaves the call parked
        self.rounds.take(run)
        run.scope.request = ctx  # progress and logs of this round go to this request
        return run

    async def _next(self, run: CallRun[Any], slow_after: float | None) -> Outcome:
        try:
            return await run.next(slow_after=slow_after)
        except asyncio.CancelledError:
            run.cancel()  # the client went away mid-call (in this era, closing the stream cancels)
            raise

    def _answer(self, run: CallRun[_T], outcome: Outcome, parked_as: str) -> _T | mt.InputRequiredResult:
        """The finished run's result, or the ``input_required`` round it waits in (parked until answered)."""
        if outcome == "done":
            return run.result()
        assert run.gate is not None  # "input": only a gated run waits
        state = self.rounds.park(run, parked_as)
        requests = {key: request.request for key, request in run.gate.pending().items()}
        return mt.InputRequiredResult(input_requests=dict(requests), request_state=state)

    def _may_become_task(self, ctx: ServerRequestContext[Any, Any], name: str) -> bool:
        tool = self.calls.registry.get(name)
        return tool is not None and tool.task is not None and declares_tasks(ctx)

    def _goes_straight(self, name: str) -> bool:
        """Whether a call of ``name`` can only end in its result: a tool that cannot ask (no ``Context``)
        and never becomes a task runs in the request's own task, with no run to park or hand over."""
        tool = self.calls.registry.get(name)
        return tool is not None and not tool.parsed.injected and tool.task is None

    def _refuse_required(self, ctx: ServerRequestContext[Any, Any], name: str) -> None:
        tool = self.calls.registry.get(name)
        if tool is not None and tool.task == "required" and not declares_tasks(ctx):
            raise tasks_required(f"tool {name!r} runs only as a task; it")
