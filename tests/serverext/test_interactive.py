"""Input rounds, tasks and parameter headers through the Jupyter server's proxy (real kernel, real clients)."""

from __future__ import annotations

from tests.serverext.conftest import Notebook, jupyter_client
from tests.serverext.test_proxy import kernel_url
from tests.tasks_client import CreatedTask, TasksClient, get_task, start, wait_for
from tests.tools.calls.test_input_rounds import CALLBACKS

TOOLS = '''
import asyncio, threading
from jupyter_mcp import Context
gate = threading.Event()

@jupyter_mcp.tool
async def greet(ctx: Context) -> str:
    """Asks a name."""
    answer = await ctx.elicit("Your name?", {"type": "object", "properties": {"name": {"type": "string"}}})
    return f"Hello, {answer.content['name']}!"

@jupyter_mcp.tool(task=True)
async def crunch() -> str:
    """Works until the notebook opens the gate."""
    await asyncio.to_thread(gate.wait, 60)
    return "crunched"

@jupyter_mcp.tool(headers={"region": "Region"})
def where(region: str) -> str:
    """Echoes its region (sent as Mcp-Param-Region too)."""
    return region
'''


async def test_a_tool_asks_through_the_proxy_in_both_eras(
    notebook: Notebook, server_url: str, jupyter_token: str, mode: str
) -> None:
    await notebook.run(TOOLS)
    async with jupyter_client(kernel_url(server_url, notebook), jupyter_token, mode=mode, **CALLBACKS) as client:
        assert (await client.call_tool("greet", {})).content[0].text == "Hello, Ada!"  # type: ignore[union-attr]
        assert (await client.call_tool("where", {"region": "eu west"})).content[0].text == "eu west"  # type: ignore[union-attr]
    assert await notebook.value("[r.status for r in server.history]") == ["ok", "ok"]


async def test_a_task_through_the_proxy_is_read_after_reconnecting(
    notebook: Notebook, server_url: str, jupyter_token: str
) -> None:
    await notebook.run(TOOLS)
    url = kernel_url(server_url, notebook)
    async with jupyter_client(url, jupyter_token, mode="auto", extensions=[TasksClient()]) as first:
        created = await start(first, "crunch")
        assert isinstance(created, CreatedTask)
    async with jupyter_client(url, jupyter_token, mode="auto", extensions=[TasksClient()]) as second:
        assert (await get_task(second.session, created.task_id)).status == "working"
        await notebook.run("gate.set()")
        done = await wait_for(second.session, created.task_id, ("completed",))
    assert done.result is not None
    assert done.result["content"][0]["text"] == "crunched"
    assert await notebook.value("server.history[-1].task_id") == created.task_id
