"""Everything a notebook's server does passes through ``<jupyter url>/mcp``: progress, logs, input
rounds, tasks, approvals, cancellation, result links, resources, prompts, completions, subscriptions,
and a clear answer when the kernel dies mid-call. Two notebooks serve the same tools, so each test
also shows the request reached the right one."""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import AsyncIterator
from typing import Any

import anyio
import mcp_types as mt
import pytest

from tests.serverext.conftest import Notebook, jupyter_client
from tests.tasks_client import CreatedTask, TasksClient, get_task, start, wait_for
from tests.tools.calls.test_input_rounds import CALLBACKS

TOOLS = '''
import asyncio, threading
from jupyter_mcp import Context
gate = threading.Event()

@jupyter_mcp.tool
async def crunch(ctx: Context) -> str:
    """Log, report progress, then wait until the notebook opens the gate."""
    await ctx.info(f"crunching in {NOTEBOOK}")
    await ctx.report_progress(1, 2, "halfway")
    await asyncio.to_thread(gate.wait, 60)
    return f"crunched in {NOTEBOOK}"

@jupyter_mcp.tool
async def greet(ctx: Context) -> str:
    """Ask the client for a name."""
    answer = await ctx.elicit("Your name?", {"type": "object", "properties": {"name": {"type": "string"}}})
    return f"Hello, {answer.content['name']}, from {NOTEBOOK}!"

@jupyter_mcp.tool(task=True)
async def long_job() -> str:
    """Work until the notebook opens the gate."""
    await asyncio.to_thread(gate.wait, 60)
    return f"job done in {NOTEBOOK}"

@jupyter_mcp.tool(confirm=True)
def reset(region: str) -> str:
    """Reset a region (the notebook user approves)."""
    return f"reset {region} in {NOTEBOOK}"

@jupyter_mcp.tool
async def nap() -> str:
    """Sleep a minute."""
    await asyncio.sleep(60)
    return "woke"

@jupyter_mcp.tool(result_budget="8kB")
def big() -> str:
    """More than a client should get at once."""
    return NOTEBOOK + "x" * 20_000

@jupyter_mcp.resource("data://table")
def table() -> str:
    """The notebook's table."""
    return f"table of {NOTEBOOK}"

@jupyter_mcp.resource("data://rows/{n}", completer={"n": lambda value: ["10", "100"]})
def rows(n: str) -> str:
    """Some rows."""
    return f"{n} rows of {NOTEBOOK}"

@jupyter_mcp.prompt(completer={"topic": lambda value: ["sales", "stock"]})
def explain(topic: str) -> str:
    """Explain a topic."""
    return f"Explain {topic} using {NOTEBOOK}."
'''


async def notebook_with_tools(jp_fetch: Any, jp_serverapp: Any, path: str) -> Notebook:
    return await Notebook(jp_fetch, jp_serverapp, path).serve(TOOLS)


@pytest.fixture
async def pair(jp_fetch: Any, jp_serverapp: Any) -> AsyncIterator[dict[str, Notebook]]:
    started = await asyncio.gather(*(notebook_with_tools(jp_fetch, jp_serverapp, p) for p in ("a.ipynb", "b.ipynb")))
    try:
        yield {"a": started[0], "b": started[1]}
    finally:
        for notebook in started:
            notebook.close()


def union(server_url: str) -> str:
    return f"{server_url}mcp"


def text_of(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent)
    return block.text


async def until(notebook: Notebook, expression: str, expected: Any = True) -> None:
    with anyio.fail_after(20):
        while await notebook.value(expression) != expected:
            await anyio.sleep(0.1)


async def test_progress_and_logs_arrive_while_the_call_runs(
    pair: dict[str, Notebook], server_url: str, jupyter_token: str, mode: str
) -> None:
    progressed, logs, results = anyio.Event(), [], []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progressed.set()

    async def on_log(params: mt.LoggingMessageNotificationParams) -> None:
        logs.append(params.data)

    async with jupyter_client(union(server_url), jupyter_token, mode=mode, logging_callback=on_log) as client:
        if mode == "legacy":
            await client.set_logging_level("info")

        # 2026 era: logs are asked for per request (io.modelcontextprotocol/logLevel), passed on as sent.
        meta: Any = None if mode == "legacy" else {mt.LOG_LEVEL_META_KEY: "info"}

        async def call() -> None:
            results.append(await client.call_tool("b_crunch", {}, progress_callback=on_progress, meta=meta))

        async with anyio.create_task_group() as group:
            group.start_soon(call)
            with anyio.fail_after(30):
                await progressed.wait()  # only the notebook opens the gate: this came mid-call
            assert results == []
            await pair["b"].run("gate.set()")
    assert text_of(results[0]) == "crunched in b.ipynb"
    assert logs == ["crunching in b.ipynb"]


async def test_a_tool_asks_its_client_through_the_union(
    pair: dict[str, Notebook], server_url: str, jupyter_token: str, mode: str
) -> None:
    async with jupyter_client(union(server_url), jupyter_token, mode=mode, **CALLBACKS) as client:
        assert text_of(await client.call_tool("a_greet", {})) == "Hello, Ada, from a.ipynb!"
        assert text_of(await client.call_tool("b_greet", {})) == "Hello, Ada, from b.ipynb!"
    for notebook in pair.values():
        assert await notebook.value("[(r.tool, r.status, r.era) for r in server.history]") == [
            ("greet", "ok", "2025" if mode == "legacy" else "2026")
        ]


async def test_a_task_id_routes_back_to_its_notebook(
    pair: dict[str, Notebook], server_url: str, jupyter_token: str
) -> None:
    async with jupyter_client(union(server_url), jupyter_token, mode="auto", extensions=[TasksClient()]) as client:
        created = await start(client, "b_long_job")
        assert isinstance(created, CreatedTask)
        assert created.task_id.startswith("b.")
        assert (await get_task(client.session, created.task_id)).status == "working"
        await pair["b"].run("gate.set()")
        done = await wait_for(client.session, created.task_id, ("completed",))
    assert done.task_id == created.task_id
    assert done.result is not None
    assert done.result["content"][0]["text"] == "job done in b.ipynb"
    assert await pair["b"].value("server.history[-1].task_id") == created.task_id.removeprefix("b.")
    assert await pair["a"].value("len(server.history)") == 0


async def test_a_task_tool_in_a_2025_session_just_answers(
    pair: dict[str, Notebook], server_url: str, jupyter_token: str
) -> None:
    async with jupyter_client(union(server_url), jupyter_token, mode="legacy") as client:
        call = asyncio.ensure_future(client.call_tool("a_long_job", {}))
        await until(pair["a"], "len(server.history)", 1)
        await pair["a"].run("gate.set()")
        assert text_of(await call) == "job done in a.ipynb"


async def test_the_notebook_user_approves_a_call_in_that_notebook(
    pair: dict[str, Notebook], jp_fetch: Any, server_url: str, jupyter_token: str, mode: str
) -> None:
    info = mt.Implementation(name="desk-agent", version="1")
    async with jupyter_client(union(server_url), jupyter_token, mode=mode, client_info=info) as client:
        call = asyncio.ensure_future(client.call_tool("a_reset", {"region": "north"}))
        await until(pair["a"], "len(server.pending)", 1)
        assert await pair["a"].value("(server.pending[0].tool, server.pending[0].client)") == ("reset", "desk-agent")
        assert await pair["b"].value("len(server.pending)") == 0
        assert not call.done()
        call_id = await pair["a"].value("server.pending[0].id")
        body = json.dumps({"decision": "allow"})
        await jp_fetch("api", "mcp", "kernels", pair["a"].kernel_id, "approvals", call_id, method="POST", body=body)
        assert text_of(await call) == "reset north in a.ipynb"
    assert await pair["a"].value("[(r.decision.verdict, r.decision.via) for r in server.history]") == [
        ("allowed", "lab")
    ]


async def test_a_cancelled_call_is_cancelled_in_its_kernel(
    pair: dict[str, Notebook], server_url: str, jupyter_token: str, mode: str
) -> None:
    async with jupyter_client(union(server_url), jupyter_token, mode=mode) as client:
        with anyio.move_on_after(2):
            await client.call_tool("b_nap", {})
        await until(pair["b"], "server.history[-1].status", "cancelled")
        assert await pair["b"].value("server.history[-1].tool") == "nap"


async def test_resources_prompts_completions_and_result_links_carry_the_notebook(
    pair: dict[str, Notebook], server_url: str, jupyter_token: str, mode: str
) -> None:
    async with jupyter_client(union(server_url), jupyter_token, mode=mode) as client:
        resources = {str(r.uri): r for r in (await client.list_resources()).resources}
        assert set(resources) == {"data://a/table", "data://b/table"}
        assert resources["data://b/table"].description == "The notebook's table.\n\nFrom the notebook b.ipynb."
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        assert templates == {"data://a/rows/{n}", "data://b/rows/{n}"}
        read = await client.read_resource("data://b/table")
        assert [(str(c.uri), c.text) for c in read.contents] == [("data://b/table", "table of b.ipynb")]  # type: ignore[union-attr]
        read = await client.read_resource("data://a/rows/7")
        assert read.contents[0].text == "7 rows of a.ipynb"  # type: ignore[union-attr]
        assert {p.name for p in (await client.list_prompts()).prompts} == {"a_explain", "b_explain"}
        prompt = await client.get_prompt("b_explain", {"topic": "stock"})
        assert prompt.messages[0].content.text == "Explain stock using b.ipynb."  # type: ignore[union-attr]
        completion = await client.complete(
            mt.PromptReference(type="ref/prompt", name="a_explain"), {"name": "topic", "value": "s"}
        )
        assert completion.completion.values == ["sales", "stock"]
        reference = mt.ResourceTemplateReference(type="ref/resource", uri="data://b/rows/{n}")
        assert (await client.complete(reference, {"name": "n", "value": "1"})).completion.values == ["10", "100"]
        big = await client.call_tool("a_big", {})
        (link,) = [block for block in big.content if isinstance(block, mt.ResourceLink)]
        assert str(link.uri).startswith("result://a/")
        full = await client.read_resource(str(link.uri))
        assert full.contents[0].text.startswith("a.ipynbxxx")  # type: ignore[union-attr]
        assert len(full.contents[0].text) == len("a.ipynb") + 20_000  # type: ignore[union-attr]


async def test_resource_updates_reach_subscribers_with_the_union_uri(
    pair: dict[str, Notebook], server_url: str, jupyter_token: str, mode: str
) -> None:
    updated: list[str] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, mt.ResourceUpdatedNotification):
            updated.append(str(message.params.uri))

    async with jupyter_client(union(server_url), jupyter_token, mode=mode, message_handler=on_message) as client:
        if mode == "legacy":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                await client.subscribe_resource("data://b/table")
            await pair["b"].run("server.notify_resource_updated('data://table')")
            with anyio.fail_after(20):
                while not updated:
                    await anyio.sleep(0.05)
            assert updated == ["data://b/table"]
            return
        async with client.listen(resource_subscriptions=["data://b/table"]) as subscription:
            await until(pair["b"], "server.bus.listener_count", 2)  # the union's watch and this subscription
            await pair["b"].run("server.notify_resource_updated('data://table')")
            with anyio.fail_after(20):
                event = await subscription.__anext__()
    assert (type(event).__name__, event.uri) == ("ResourceUpdated", "data://b/table")


@pytest.mark.parametrize("ending", ["shut down", "restarted"])
async def test_a_call_in_flight_when_its_kernel_dies_says_which_notebook_and_what_happened(
    pair: dict[str, Notebook], jp_fetch: Any, server_url: str, jupyter_token: str, mode: str, ending: str
) -> None:
    async with jupyter_client(union(server_url), jupyter_token, mode=mode) as client:
        call = asyncio.ensure_future(client.call_tool("a_nap", {}))
        await until(pair["a"], "len(server.history)", 1)
        if ending == "shut down":
            await jp_fetch("api", "kernels", pair["a"].kernel_id, method="DELETE")
        else:
            await pair["a"].restart()
        with anyio.fail_after(20):
            result = await call
        assert result.is_error
        assert f"the kernel of a.ipynb was {ending} while tools/call 'a_nap' was under way" in text_of(result)
        assert "a_nap" not in {tool.name for tool in (await client.list_tools()).tools}
        assert "b_nap" in {tool.name for tool in (await client.list_tools()).tools}
