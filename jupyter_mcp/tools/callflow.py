"""How a ``tools/call`` request is answered, in each protocol era.

2025 era: the call runs while the request waits; the tool's questions go to the client as
server-to-client requests. 2026 era: questions wait in the call's ``InputGate`` and the client
gets ``input_required`` (``mrtr.py``), retrying with the answers; a task tool called by a client
that declared the tasks extension becomes a task (``tasks.py``) once it has run ``task_after``
seconds. Input asked before that point is part of the call itself, so a tool can ask its
questions up front and then run long as a task (the spec's MRTR-then-task composition).
"""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types as mt
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.tools.calls import CallPath
from jupyter_mcp.tools.gate import InputGate
from jupyter_mcp.tools.mrtr import SuspendedCalls
from jupyter_mcp.tools.runs import CallRun
from jupyter_mcp.tools.sessions import client_info_of
from jupyter_mcp.tools.tasks import TaskStore, declares_tasks, tasks_required

ToolCallAnswer = mt.CallToolResult | mt.InputRequiredResult | dict[str, Any]
"""A result, an ``input_required`` round, or a ``CreateTaskResult`` (a dict: an extension shape)."""


class CallFlow:
    """The ``tools/call`` handler: starts or resumes a call and answers with what it came to."""

    def __init__(self, calls: CallPath, suspended: SuspendedCalls, tasks: TaskStore, task_after: float) -> None:
        self.calls = calls
        self.suspended = suspended
        self.tasks = tasks
        self.task_after = task_after

    async def __call__(self, ctx: ServerRequestContext[Any, Any], params: mt.CallToolRequestParams) -> ToolCallAnswer:
        client = client_info_of(ctx)
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            self._refuse_required(ctx, params.name)
            return await self.calls.call(params.name, params.arguments, request=ctx, client=client)
        if params.request_state is not None:
            run = self._resume(ctx, params)
        else:
            self._refuse_required(ctx, params.name)
            gate = InputGate(params.input_responses)
            run = self.calls.start(params.name, params.arguments, request=ctx, client=client, gate=gate)
        return await self._drive(run, params.name, self._may_become_task(ctx, params.name))

    def _resume(self, ctx: ServerRequestContext[Any, Any], params: mt.CallToolRequestParams) -> CallRun:
        assert params.request_state is not None
        run = self.suspended.peek(params.request_state, params.name)
        assert run.gate is not None
        run.gate.answer(params.input_responses or {})  # a malformed answer leaves the call parked
        self.suspended.take(run)
        run.scope.request = ctx  # progress and logs of this round go to this request
        return run

    async def _drive(self, run: CallRun, tool: str, may_become_task: bool) -> ToolCallAnswer:
        try:
            outcome = await run.next(slow_after=self.task_after if may_become_task else None)
        except asyncio.CancelledError:
            run.cancel()  # the client went away mid-call (in this era, closing the stream cancels)
            raise
        if outcome == "done":
            return run.result()
        if outcome == "input":
            assert run.gate is not None
            state = self.suspended.park(run, tool)
            requests = {key: request.request for key, request in run.gate.pending().items()}
            return mt.InputRequiredResult(input_requests=dict(requests), request_state=state)
        return self.tasks.create(run)

    def _may_become_task(self, ctx: ServerRequestContext[Any, Any], name: str) -> bool:
        tool = self.calls.registry.get(name)
        return tool is not None and tool.task is not None and declares_tasks(ctx)

    def _refuse_required(self, ctx: ServerRequestContext[Any, Any], name: str) -> None:
        tool = self.calls.registry.get(name)
        if tool is not None and tool.task == "required" and not declares_tasks(ctx):
            raise tasks_required(f"tool {name!r} runs only as a task; it")
