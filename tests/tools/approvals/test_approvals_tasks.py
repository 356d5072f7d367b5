"""A task-started call that needs approval waits as a task: the client polls ``working`` with the
waiting message, and the notebook user's answer ends the task."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import mcp_types as mt
import pytest

from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.approvals.policy import WAITING_MESSAGE
from tests.conftest import http_client, served
from tests.tasks_client import TERMINAL, CreatedTask, TasksClient, get_task, start, wait_for


@pytest.fixture
def setup() -> Iterator[tuple[ToolServer, str]]:
    server = ToolServer("approval-tasks", task_after=0.2)

    @server.tool(task=True, confirm=True)
    async def retrain(epochs: int) -> str:
        """Retrain the model (asks first)."""
        await asyncio.sleep(0.1)
        return f"trained {epochs} epochs"

    with served(server) as url:
        yield server, url


def tasks_client(url: str) -> Any:
    return http_client(url, "test-token", mode="auto", extensions=[TasksClient()])


def text_of(result: Any) -> str:
    block = mt.CallToolResult.model_validate(result).content[0]
    assert isinstance(block, mt.TextContent)
    return block.text


async def test_an_approval_wait_is_a_task_the_client_polls(setup: tuple[ToolServer, str]) -> None:
    server, url = setup
    async with tasks_client(url) as client:
        created = await start(client, "retrain", {"epochs": 3})
        assert isinstance(created, CreatedTask)
        polled = await get_task(client.session, created.task_id)
        assert (polled.status, polled.status_message) == ("working", WAITING_MESSAGE)
        server.pending[0].allow()
        done = await wait_for(client.session, created.task_id, TERMINAL)
    assert done.status == "completed"
    assert text_of(done.result) == "trained 3 epochs"


async def test_a_denied_task_completes_with_the_denial(setup: tuple[ToolServer, str]) -> None:
    server, url = setup
    async with tasks_client(url) as client:
        created = await start(client, "retrain", {"epochs": 3})
        assert isinstance(created, CreatedTask)
        server.pending[0].deny("not during the demo")
        done = await wait_for(client.session, created.task_id, TERMINAL)
    assert done.status == "completed"
    assert mt.CallToolResult.model_validate(done.result).is_error
    assert text_of(done.result) == "The notebook user declined the call of 'retrain': not during the demo"
