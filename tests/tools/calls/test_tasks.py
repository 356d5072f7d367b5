"""Long calls as tasks (the tasks extension, 2026 era) with real mcp.Clients over HTTP."""

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import mcp_types as mt
import pytest
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools import CallHistory, Context, ToolServer
from tests.conftest import http_client, served
from tests.tasks_client import CreatedTask, TasksClient, cancel_task, get_task, start, update_task, wait_for
from tests.tools.calls.test_input_rounds import CALLBACKS, NAME


def task_server() -> ToolServer:
    server = ToolServer("tasks", task_after=0.2)

    @server.tool(task=True)
    async def crunch(seconds: float) -> str:
        """Works for a while."""
        await asyncio.sleep(seconds)
        return f"crunched for {seconds:g}s"

    @server.tool(task=True)
    def crunch_sync(seconds: float, ctx: Context) -> str:
        """Works in a thread, then asks for a name."""
        ctx.report_progress(0.5, 1.0, "half way")
        import time

        time.sleep(seconds)
        answer = ctx.elicit("Whose result?", NAME)
        return f"for {(answer.content or {})['name']}"

    @server.tool(task="required")
    async def ask_then_work(ctx: Context) -> str:
        """Asks first (within the call), then works as a task."""
        answer = await ctx.elicit("Your name?", NAME, key="user_name")
        await asyncio.sleep(0.5)
        return f"done for {(answer.content or {})['name']}"

    @server.tool
    def quick() -> str:
        """Never a task."""
        return "quick"

    return server


@pytest.fixture
def setup() -> Iterator[tuple[ToolServer, CallHistory, str]]:
    server = task_server()
    history = CallHistory()
    server.add_call_observer(history)
    with served(server) as url:
        yield server, history, url


def tasks_client(url: str, *, resolve: bool = False, **options: Any) -> Any:
    return http_client(url, "test-token", mode="auto", extensions=[TasksClient(resolve=resolve)], **options)


async def test_a_long_call_becomes_a_task_and_its_result_is_polled(setup: tuple[ToolServer, CallHistory, str]) -> None:
    _, history, url = setup
    async with tasks_client(url) as client:
        created = await start(client, "crunch", {"seconds": 0.6})
        assert isinstance(created, CreatedTask)
        assert (created.status, created.ttl_ms and created.ttl_ms > 0, created.poll_interval_ms) == (
            "working",
            True,
            500,
        )
        assert history[-1].task_id == created.task_id
        assert (await get_task(client.session, created.task_id)).status == "working"
        done = await wait_for(client.session, created.task_id, ("completed", "failed", "cancelled"))
    assert done.status == "completed"
    assert done.result is not None
    assert done.result["content"] == [{"type": "text", "text": "crunched for 0.6s"}]
    assert (history[-1].status, history[-1].task_id) == ("ok", created.task_id)


async def test_quick_calls_answer_directly(setup: tuple[ToolServer, CallHistory, str]) -> None:
    _, history, url = setup
    async with tasks_client(url) as client:
        assert isinstance(await start(client, "crunch", {"seconds": 0}), mt.CallToolResult)
        assert isinstance(await start(client, "quick"), mt.CallToolResult)
    assert history[-1].task_id is None


async def test_a_task_outlives_its_client_and_is_read_after_reconnecting(
    setup: tuple[ToolServer, CallHistory, str],
) -> None:
    _, history, url = setup
    async with tasks_client(url) as first:
        created = await start(first, "crunch", {"seconds": 0.8})
        assert isinstance(created, CreatedTask)
    # The first client is gone; the task goes on and another client reads it by id.
    async with tasks_client(url) as second:
        assert (await get_task(second.session, created.task_id)).status == "working"
        done = await wait_for(second.session, created.task_id, ("completed",))
    assert done.result is not None
    assert done.result["content"][0]["text"] == "crunched for 0.8s"
    assert history[-1].status == "ok"


async def test_a_task_is_cancelled(setup: tuple[ToolServer, CallHistory, str]) -> None:
    _, history, url = setup
    async with tasks_client(url) as client:
        created = await start(client, "crunch", {"seconds": 60})
        assert isinstance(created, CreatedTask)
        assert_ack(await cancel_task(client.session, created.task_id))
        cancelled = await wait_for(client.session, created.task_id, ("cancelled",))
        assert cancelled.status == "cancelled"
        assert cancelled.result is None
        # Cancelling a finished task is acknowledged the same way.
        assert_ack(await cancel_task(client.session, created.task_id))
    assert (history[-1].status, history[-1].task_id) == ("cancelled", created.task_id)


async def test_a_task_asks_through_tasks_get_and_update(setup: tuple[ToolServer, CallHistory, str]) -> None:
    _, history, url = setup
    async with tasks_client(url, **CALLBACKS) as client:
        created = await start(client, "crunch_sync", {"seconds": 0.3})
        assert isinstance(created, CreatedTask)
        waiting = await wait_for(client.session, created.task_id, ("input_required",))
        assert waiting.status == "input_required", waiting
        assert waiting.input_requests is not None
        [(key, request)] = waiting.input_requests.items()
        assert (key, request["method"]) == ("elicitation-1", "elicitation/create")
        assert history[-1].status == "waiting"
        ignored = {"nobody-asked": {"action": "accept"}}
        assert_ack(await update_task(client.session, created.task_id, ignored))
        answer = {key: {"action": "accept", "content": {"name": "Ada"}}}
        assert_ack(await update_task(client.session, created.task_id, answer))
        done = await wait_for(client.session, created.task_id, ("completed",))
    assert done.result is not None
    assert done.result["content"][0]["text"] == "for Ada"
    assert history[-1].progress[0].message == "half way"


async def test_a_task_nobody_answers_expires() -> None:
    server = task_server()
    server.settings.input_timeout = 0.3
    history = CallHistory()
    server.add_call_observer(history)
    with served(server) as url:
        async with tasks_client(url, **CALLBACKS) as client:
            created = await start(client, "crunch_sync", {"seconds": 0.3})
            assert isinstance(created, CreatedTask)
            assert (await wait_for(client.session, created.task_id, ("input_required",))).status == "input_required"
            ended = await wait_for(client.session, created.task_id, ())
    assert (ended.status, ended.status_message) == ("cancelled", "the task waited too long for input and expired")
    assert history[-1].status == "expired"


async def test_a_client_that_speaks_tasks_resolves_them_like_calls(setup: tuple[ToolServer, CallHistory, str]) -> None:
    _, _, url = setup
    async with tasks_client(url, resolve=True, **CALLBACKS) as client:
        result = await client.call_tool("crunch_sync", {"seconds": 0.3})
        assert result.content[0].text == "for Ada"  # type: ignore[union-attr]
        # Input asked before the task exists is an input_required round of the call itself.
        result = await client.call_tool("ask_then_work", {})
        assert result.content[0].text == "done for Ada"  # type: ignore[union-attr]


async def test_a_required_task_tool_refuses_clients_without_tasks(
    setup: tuple[ToolServer, CallHistory, str], mode: str
) -> None:
    _, _, url = setup
    async with http_client(url, "test-token", mode=mode, **CALLBACKS) as client:
        with pytest.raises(MCPError) as refused:
            await client.call_tool("ask_then_work", {})
        # An optional task tool simply runs as a call.
        assert (await client.call_tool("crunch", {"seconds": 0.3})).content[0].text == "crunched for 0.3s"  # type: ignore[union-attr]
    assert refused.value.error.code == mt.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert refused.value.error.data == {"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}


async def test_tasks_methods_check_the_extension_the_id_and_the_routing_header(
    setup: tuple[ToolServer, CallHistory, str],
) -> None:
    _, _, url = setup
    async with http_client(url, "test-token", mode="auto") as plain:
        with pytest.raises(MCPError) as undeclared:
            await get_task(plain.session, "anything")
        assert undeclared.value.error.code == mt.MISSING_REQUIRED_CLIENT_CAPABILITY
        assert plain.server_capabilities.extensions == {"io.modelcontextprotocol/tasks": {}}
    async with tasks_client(url) as client:
        with pytest.raises(MCPError) as unknown:
            await get_task(client.session, "no-such-task")
        assert unknown.value.error.code == mt.INVALID_PARAMS
        created = await start(client, "crunch", {"seconds": 5})
        assert isinstance(created, CreatedTask)
        status, body = await raw_tasks_get(url, created.task_id, mcp_name="some-other-task")
        assert (status, body["error"]["code"]) == (400, mt.HEADER_MISMATCH)
        status, body = await raw_tasks_get(url, created.task_id, mcp_name=None)
        assert (status, body["error"]["code"]) == (400, mt.HEADER_MISMATCH)
        status, body = await raw_tasks_get(url, created.task_id, mcp_name=created.task_id)
        assert (status, body["result"]["status"]) == (200, "working")
        await cancel_task(client.session, created.task_id)


async def test_2025_era_sessions_are_not_offered_tasks(setup: tuple[ToolServer, CallHistory, str]) -> None:
    _, _, url = setup
    async with http_client(url, "test-token", mode="legacy") as client:
        assert client.server_capabilities.extensions is None
        with pytest.raises(MCPError) as refused:
            await client.session.send_request(
                mt.GetTaskRequest(params=mt.GetTaskRequestParams(task_id="x")), mt.GetTaskResult
            )
    assert refused.value.error.code == mt.METHOD_NOT_FOUND


def assert_ack(reply: dict[str, Any]) -> None:
    """An empty acknowledgement: no task envelope, just the result type (and the server's _meta stamp)."""
    assert reply["resultType"] == "complete"
    assert set(reply) <= {"resultType", "_meta"}


async def raw_tasks_get(url: str, task_id: str, *, mcp_name: str | None) -> tuple[int, dict[str, Any]]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
    }
    body = {"jsonrpc": "2.0", "id": 7, "method": "tasks/get", "params": {"taskId": task_id, "_meta": meta}}
    headers = {
        "Authorization": "Bearer test-token",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tasks/get",
        **({"Mcp-Name": mcp_name} if mcp_name is not None else {}),
    }
    async with httpx.AsyncClient() as http:
        reply = await http.post(url, json=body, headers=headers)
    return reply.status_code, reply.json()
