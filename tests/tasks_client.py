"""The client side of the tasks extension (io.modelcontextprotocol/tasks), for the tests.

mcp 2.3's ``Client`` has no tasks support of its own but lets an extension claim the
``resultType: "task"`` shape. ``TasksClient`` advertises the extension; with ``resolve=True`` it
also finishes a task the way a real client would: poll ``tasks/get``, answer input requests with
the client's callbacks through ``tasks/update``, return the final ``CallToolResult``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import anyio
import mcp_types as mt
from mcp.client import Client, ClientRequestContext
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict, TypeAdapter

TASKS = "io.modelcontextprotocol/tasks"
TERMINAL = ("completed", "failed", "cancelled")


class CreatedTask(mt.Result):
    """``CreateTaskResult``: the task's envelope in place of the call's result."""

    result_type: Literal["task"] = "task"
    task_id: str
    status: str
    created_at: str
    last_updated_at: str
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None
    status_message: str | None = None


class DetailedTask(mt.Result):
    """What ``tasks/get`` answers."""

    model_config = ConfigDict(extra="allow")
    task_id: str
    status: str
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    input_requests: dict[str, Any] | None = None
    status_message: str | None = None


class TaskParams(mt.RequestParams):
    task_id: str


class UpdateParams(TaskParams):
    input_responses: dict[str, Any]


class GetTask(mt.Request[TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    name_param: ClassVar[str | None] = "taskId"  # Mcp-Name: <taskId>, as the extension requires


class UpdateTask(mt.Request[UpdateParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    name_param: ClassVar[str | None] = "taskId"


class CancelTask(mt.Request[TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    name_param: ClassVar[str | None] = "taskId"


_ANY_RESULT = TypeAdapter(dict[str, Any])


class TasksClient(ClientExtension):
    """Advertise the tasks extension; ``resolve=True`` also polls a task to its result."""

    identifier = TASKS

    def __init__(self, *, resolve: bool = False, poll: float = 0.05) -> None:
        self.resolve = resolve
        self.poll = poll

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self._finish)]

    async def _finish(self, created: CreatedTask, ctx: ClaimContext) -> mt.CallToolResult:
        if not self.resolve:
            raise TaskCreated(created)
        while True:
            task = await get_task(ctx.session, created.task_id)
            if task.status == "completed":
                assert task.result is not None
                return mt.CallToolResult.model_validate(task.result)
            if task.status == "failed":
                assert task.error is not None
                raise MCPError(code=task.error["code"], message=task.error["message"])
            if task.status == "cancelled":
                raise RuntimeError(f"task {created.task_id} was cancelled")
            if task.status == "input_required" and task.input_requests:
                await update_task(ctx.session, created.task_id, await _answers(ctx.session, task.input_requests))
            await anyio.sleep(self.poll)


class TaskCreated(Exception):
    """Raised by a non-resolving ``TasksClient``: the call became this task."""

    def __init__(self, created: CreatedTask) -> None:
        super().__init__(f"the call became task {created.task_id}")
        self.task = created


async def start(client: Client, name: str, arguments: dict[str, Any] | None = None) -> CreatedTask | mt.CallToolResult:
    """Call a tool; returns its result, or the task it became (needs a non-resolving ``TasksClient``)."""
    try:
        return await client.call_tool(name, arguments or {})
    except TaskCreated as created:
        return created.task


async def get_task(session: ClientSession, task_id: str) -> DetailedTask:
    return await session.send_request(GetTask(params=TaskParams(task_id=task_id)), DetailedTask)


async def update_task(session: ClientSession, task_id: str, answers: dict[str, Any]) -> dict[str, Any]:
    request = UpdateTask(params=UpdateParams(task_id=task_id, input_responses=answers))
    return await session.send_request(request, _ANY_RESULT)


async def cancel_task(session: ClientSession, task_id: str) -> dict[str, Any]:
    return await session.send_request(CancelTask(params=TaskParams(task_id=task_id)), _ANY_RESULT)


async def wait_for(session: ClientSession, task_id: str, statuses: tuple[str, ...]) -> DetailedTask:
    """Poll until the task reaches one of ``statuses`` (or ends, or 10 s pass); returns it as last seen."""
    with anyio.fail_after(10):
        while (task := await get_task(session, task_id)).status not in (*statuses, *TERMINAL):
            await anyio.sleep(0.05)
    return task


async def _answers(session: ClientSession, requests: dict[str, Any]) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for key, raw in requests.items():
        request = TypeAdapter(mt.InputRequest).validate_python(raw)
        context = ClientRequestContext(session=session, request_id=key, meta=None)
        answer = await session.dispatch_input_request(context, request)
        if isinstance(answer, mt.ErrorData):
            raise MCPError.from_error_data(answer)
        answers[key] = answer.model_dump(by_alias=True, mode="json", exclude_none=True)
    return answers
