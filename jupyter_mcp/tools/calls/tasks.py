"""Tasks (the ``io.modelcontextprotocol/tasks`` extension, SEP-2663, 2026 era).

A call to a task tool from a client that declared the extension becomes a task when it runs
longer than ``task_after`` seconds: the client gets a ``CreateTaskResult`` at once, polls
``tasks/get`` for status, input requests and the result, answers with ``tasks/update`` and may
``tasks/cancel``. The task is the server's: it keeps running when its client disconnects, and
any client holding the server's token can poll it by id.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import mcp_types as mt
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import MCP_NAME_HEADER, decode_header_value
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

from jupyter_mcp.tools.calls.events import TaskCreated
from jupyter_mcp.tools.calls.run import CallRun
from jupyter_mcp.tools.settings import ServerSettings

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})


class TaskParams(mt.RequestParams):
    """``tasks/get`` and ``tasks/cancel`` params."""

    task_id: str


class TaskUpdateParams(TaskParams):
    """``tasks/update`` params; answers are checked against the request each one answers."""

    input_responses: dict[str, Any] = Field(default_factory=dict)


def declares_tasks(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether this (2026-era) request's client declared the tasks extension."""
    capabilities = ctx.session.client_capabilities
    extensions = (capabilities.extensions if capabilities is not None else None) or {}
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS and TASKS_EXTENSION in extensions


def tasks_required(what: str) -> MCPError:
    """-32021 naming the tasks extension, for ``what`` (a ``task="required"`` tool, a tasks method)."""
    return MCPError(
        code=mt.MISSING_REQUIRED_CLIENT_CAPABILITY,
        message=f"Missing required client capability: {what} needs the {TASKS_EXTENSION} extension",
        data={"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
    )


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")


@dataclass
class Task:
    """A call running as a task, and its outcome once it has one."""

    task_id: str
    run: CallRun[mt.CallToolResult]
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    outcome: dict[str, Any] | None = None
    """``{"status": ..., "result" | "error": ...}`` once the run has ended."""
    status_message: str | None = None
    input_timer: asyncio.TimerHandle | None = None
    """Expires the task if its questions stay unanswered for the server's ``input_timeout``."""

    @property
    def status(self) -> TaskStatus:
        self.settle()
        if self.outcome is not None:
            return self.outcome["status"]  # type: ignore[no-any-return]
        gate = self.run.gate
        return "input_required" if gate is not None and gate.pending() else "working"

    def settle(self) -> None:
        """Record the run's outcome once its asyncio task is done (idempotent)."""
        task = self.run.task
        if self.outcome is not None or not task.done():
            return
        if task.cancelled():
            expired = self.run.scope.stop_status == "expired"
            self.status_message = "the task waited too long for input and expired" if expired else "cancelled"
            self.outcome = {"status": "cancelled"}
        elif isinstance(error := task.exception(), MCPError):
            self.outcome = {"status": "failed", "error": error.error.model_dump(mode="json", exclude_none=True)}
        elif error is not None:
            failure = {"code": mt.INTERNAL_ERROR, "message": f"{type(error).__name__}: {error}"}
            self.outcome = {"status": "failed", "error": failure}
        else:
            result = task.result().model_dump(by_alias=True, mode="json", exclude_none=True)
            self.outcome = {"status": "completed", "result": result}
        self.updated_at = time.time()

    def envelope(self, retention: float, poll_interval: float) -> dict[str, Any]:
        """The ``Task`` fields every task message carries."""
        ttl = self.updated_at - self.created_at + retention
        shape: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": _iso(self.created_at),
            "lastUpdatedAt": _iso(self.updated_at),
            "ttlMs": int(ttl * 1000),
            "pollIntervalMs": max(1, int(poll_interval * 1000)),
        }
        note = self.status_message or (self.run.scope.waiting_note if self.outcome is None else None)
        if note:
            shape["statusMessage"] = note
        return shape

    def detailed(self, retention: float, poll_interval: float) -> dict[str, Any]:
        """What ``tasks/get`` answers: the envelope plus the result, error or input requests."""
        shape = self.envelope(retention, poll_interval)
        if self.outcome is not None:
            shape.update({k: v for k, v in self.outcome.items() if k != "status"})
        elif shape["status"] == "input_required" and self.run.gate is not None:
            shape["inputRequests"] = self.run.gate.wire()
        return shape


class TaskStore:
    """The server's tasks by id, kept ``task_retention`` seconds after they last changed.

    A task whose questions stay unanswered for ``input_timeout`` seconds expires (it ends
    ``cancelled``, and says why), like a 2026-era call whose client never retries.
    """

    def __init__(
        self,
        on_created: Callable[[str, TaskCreated], None],
        settings: ServerSettings | None = None,
        poll_interval: float = 0.5,
    ) -> None:
        self.settings = settings or ServerSettings()
        self.poll_interval = poll_interval
        self._on_created = on_created
        self._tasks: dict[str, Task] = {}

    def __len__(self) -> int:
        return len(self._tasks)

    def create(self, run: CallRun[mt.CallToolResult]) -> dict[str, Any]:
        """Turn ``run`` into a task; returns the ``CreateTaskResult`` for the client."""
        self._purge()
        task = Task(secrets.token_urlsafe(18), run)
        self._tasks[task.task_id] = task
        if run.gate is not None:
            run.gate.listen(lambda pending: self._input_changed(task, bool(pending)))
            self._input_changed(task, bool(run.gate.pending()))
        run.task.add_done_callback(lambda _: task.settle())
        self._on_created(run.call_id, TaskCreated(task.task_id, task.created_at))
        return {"resultType": "task", **task.envelope(self.settings.task_retention, self.poll_interval)}

    def _input_changed(self, task: Task, waiting: bool) -> None:
        task.updated_at = time.time()
        if task.input_timer is not None:
            task.input_timer.cancel()
            task.input_timer = None
        if waiting:
            loop = asyncio.get_running_loop()
            task.input_timer = loop.call_later(
                self.settings.input_timeout, task.run.expire, self.settings.input_timeout
            )

    def _purge(self) -> None:
        cutoff = time.time() - self.settings.task_retention
        for task_id in [t.task_id for t in self._tasks.values() if t.outcome is not None and t.updated_at < cutoff]:
            del self._tasks[task_id]

    # ---- the extension's methods ------------------------------------------------------------------

    async def get(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> dict[str, Any]:
        task = self._find(ctx, params)
        return {"resultType": "complete", **task.detailed(self.settings.task_retention, self.poll_interval)}

    async def update(self, ctx: ServerRequestContext[Any, Any], params: TaskUpdateParams) -> dict[str, Any]:
        task = self._find(ctx, params)
        if task.outcome is None and task.run.gate is not None:
            task.run.gate.answer(params.input_responses)
        return {"resultType": "complete"}

    async def cancel(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> dict[str, Any]:
        self._find(ctx, params).run.cancel()
        return {"resultType": "complete"}

    def _find(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> Task:
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            raise MCPError(code=mt.METHOD_NOT_FOUND, message="Method not found", data=ctx.method)
        if not declares_tasks(ctx):
            raise tasks_required(ctx.method)
        _check_routing_header(ctx, params.task_id)
        self._purge()
        task = self._tasks.get(params.task_id)
        if task is None:
            raise MCPError(
                code=mt.INVALID_PARAMS, message=f"Unknown task {params.task_id!r}: it never existed or expired"
            )
        return task


def _check_routing_header(ctx: ServerRequestContext[Any, Any], task_id: str) -> None:
    """Over HTTP, ``Mcp-Name`` must name the task (SEP-2243 routing headers, as the extension requires)."""
    headers: Mapping[str, str] | None = getattr(ctx.request, "headers", None)
    if headers is None:
        return  # stdio or in-process: no HTTP headers to route on
    if decode_header_value(headers.get(MCP_NAME_HEADER)) != task_id:
        message = f"{MCP_NAME_HEADER} header must carry params.taskId for {ctx.method}"
        raise MCPError(code=mt.HEADER_MISMATCH, message=message)
