"""The panels in a real kernel, watched while a real outside MCP client (both eras) calls tools."""

from __future__ import annotations

import json
import queue
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as mt

from tests.conftest import http_client
from tests.harness import Kernel
from tests.kernel.conftest import endpoint

TOOLS = '''
%%mcp_tool --read-only --tags math
def add(a: int, b: int = 2) -> int:
    """Add two integers."""
    return a + b
'''

SLOW_TOOL = '''
import threading, asyncio
gate = threading.Event()

%%mcp_tool
async def crunch(steps: int, ctx: jupyter_mcp.Context) -> int:
    """Report half the steps, then wait for the notebook to open the gate."""
    for i in range(steps // 2):
        await ctx.report_progress(i + 1, steps, f"step {i + 1}")
    await asyncio.to_thread(gate.wait, 60)
    return steps
'''

VIEWS = "from jupyter_mcp.kernel.display import card\npanel = server.panel()\ncard = card(server, server.tools['add'])"
HANG = 20.0
"""Seconds after which a wait is a hang (the panels refresh within 0.1 s; nothing here is timed)."""
CLIENT = mt.Implementation(name="pytest-client", version="7.1")


async def value(kernel: Kernel, expression: str) -> Any:
    """Evaluate in the kernel without blocking this test's event loop (the MCP client lives on it)."""
    return await anyio.to_thread.run_sync(kernel.value, expression)


async def until(kernel: Kernel, expression: str, accept: Callable[[Any], bool]) -> Any:
    """Poll ``expression`` in the kernel until ``accept`` likes it. The limit only bounds a hang."""
    with anyio.fail_after(HANG):
        while True:
            current = await value(kernel, expression)
            if accept(current):
                return current
            await anyio.sleep(0.05)


def split_cells(source: str) -> list[str]:
    head, magic = source.split("\n%%mcp_tool", 1)
    return [head, "%%mcp_tool" + magic]


async def test_client_calls_show_up_in_the_history_widget(kernel: Kernel, mode: str) -> None:
    kernel.run(TOOLS)
    kernel.run(VIEWS)
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode, client_info=CLIENT) as client:
        assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
        assert (await client.call_tool("add", {"a": "x"})).is_error
        # Nobody refreshes the panel here: its throttle must pick the calls up by itself.
        rows = await until(kernel, "panel.history.rows", lambda rows: len(rows) == 2 and rows[0]["status"] != "running")
    assert [(r["tool"], r["status"], r["client"]) for r in rows] == [
        ("add", "error", "pytest-client 7.1"),
        ("add", "ok", "pytest-client 7.1"),
    ]
    assert rows[1]["arguments"] == "a=1, b=2"
    assert rows[0]["error"].startswith("- a: Input should be a valid integer")
    card_rows = await until(kernel, "card.recent", lambda rows: len(rows) == 2)
    assert [r["status"] for r in card_rows] == ["error", "ok"]
    kernel.run("panel.history.select(panel.history.rows[1]['id'])")
    detail = await value(kernel, "panel.detail")
    assert detail["row"]["client"] == "pytest-client 7.1"
    assert detail["protocol"] == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert await value(kernel, "panel._live.throttle.refreshes > 0")


async def test_in_flight_calls_show_progress_then_their_result(kernel: Kernel, mode: str) -> None:
    for cell in split_cells(SLOW_TOOL):
        kernel.run(cell)
    kernel.run("panel = server.panel()")
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode, client_info=CLIENT) as client, anyio.create_task_group() as tasks:
        results: list[mt.CallToolResult] = []

        async def call() -> None:
            results.append(await client.call_tool("crunch", {"steps": 4}))

        tasks.start_soon(call)
        row = await until(kernel, "panel.history.rows[:1]", lambda rows: bool(rows) and rows[0]["progress"] == 0.5)
        assert (row[0]["status"], row[0]["progress_text"], row[0]["duration"]) == ("running", "2/4 step 2", "…")
        kernel.run("gate.set()")
    assert results[0].structured_content == {"result": 4}
    finished = await until(kernel, "panel.history.rows[0]", lambda r: r["status"] == "ok")
    assert (finished["progress"], finished["progress_text"]) == (None, "")


@asynccontextmanager
async def list_changed_count(client: Any, mode: str, seen: list[str]) -> AsyncIterator[Callable[[], int]]:
    """Count tools/list_changed as each era delivers it: a notification (2025) or a listen stream (2026)."""
    if mode == "legacy":
        await anyio.sleep(0.3)  # the legacy client opens its GET stream after the handshake
        yield lambda: seen.count("notifications/tools/list_changed")
        return
    events: list[str] = []
    async with client.listen(tools_list_changed=True) as subscription, anyio.create_task_group() as tasks:

        async def consume() -> None:
            async for event in subscription:
                events.append(type(event).__name__)

        tasks.start_soon(consume)
        yield lambda: events.count("ToolsListChanged")
        tasks.cancel_scope.cancel()


async def test_toggles_enable_and_disable_the_tool_for_clients(kernel: Kernel, mode: str) -> None:
    kernel.run(TOOLS)
    kernel.run(VIEWS)
    url, token = endpoint(kernel)
    seen: list[str] = []

    async def on_message(message: Any) -> None:
        seen.append(getattr(message, "method", ""))

    async with http_client(url, token, mode=mode, message_handler=on_message) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["add"]
        async with list_changed_count(client, mode, seen) as changes:
            kernel.run("card.set_enabled(False)")  # what clicking the card's checkbox does
            with anyio.fail_after(15):
                while changes() < 1:
                    await anyio.sleep(0.02)
            assert (await client.list_tools(cache_mode="refresh")).tools == []
            assert (await client.call_tool("add", {"a": 1})).is_error
            await until(kernel, "panel.components['tool'][0]['enabled']", lambda enabled: enabled is False)
            kernel.run("panel.set_enabled('tool', 'add', True)")  # the panel's "served" box
            with anyio.fail_after(15):
                while changes() < 2:
                    await anyio.sleep(0.02)
            assert [t.name for t in (await client.list_tools(cache_mode="refresh")).tools] == ["add"]
    assert await until(kernel, "card.status", lambda status: status == "live") == "live"


async def test_try_it_records_a_call(kernel: Kernel) -> None:
    kernel.run(TOOLS)
    kernel.run(VIEWS)
    kernel.run("card.try_it.run({'a': 40})")  # what the form's Run button asks for
    assert await until(kernel, "card.try_it.outcome", lambda outcome: outcome != "") == "ok"
    record = await value(kernel, "(server.history[-1].tool, server.history[-1].arguments, server.history[-1].source)")
    assert record == ("add", {"a": 40}, "notebook")
    assert await value(kernel, "card.tryit['result']['outcome']['structured']") == {"result": 42}
    rows = await until(kernel, "panel.history.rows", lambda rows: len(rows) == 1 and rows[0]["status"] != "running")
    assert (rows[0]["tool"], rows[0]["client"], rows[0]["status"]) == ("add", "notebook", "ok")


async def test_rerunning_a_cell_marks_the_old_card_replaced(kernel: Kernel) -> None:
    first = kernel.run(TOOLS)
    (bundle,) = first.results
    assert {"application/vnd.jupyter.widget-view+json", "text/html", "text/plain"} <= set(bundle)
    assert bundle["text/plain"].startswith("MCP tool 'add(a, b)' live at http://127.0.0.1:")
    assert "Add two integers." in bundle["text/html"]
    kernel.run("old = _")
    second = kernel.run(TOOLS.replace("b: int = 2", "b: int = 3"))
    assert "b: int = 3" in second.text
    assert await until(kernel, "old.status", lambda status: status == "replaced") == "replaced"
    assert await value(kernel, "(old.try_it.active, old.component['status'], _.status)") == (False, "replaced", "live")


def iopub_during(kernel: Kernel, code: str, settle: float = 0.5) -> list[dict[str, Any]]:
    """Every iopub message while ``code`` runs and for ``settle`` seconds after (throttled updates too)."""
    msg_id = kernel.client.execute(code)
    messages: list[dict[str, Any]] = []
    done_at: float | None = None
    while True:
        timeout = 60 if done_at is None else settle
        try:
            message = kernel.client.get_iopub_msg(timeout=timeout)
        except queue.Empty:
            return messages
        messages.append(message)
        parent = message["parent_header"].get("msg_id")
        if parent == msg_id and message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
            done_at = 0.0


def test_the_token_reaches_the_front_end_only_when_revealed(kernel: Kernel) -> None:
    kernel.run(TOOLS)
    token = kernel.value("server.token")
    shown = iopub_during(kernel, "panel = server.panel()\npanel")
    assert any(m["msg_type"] == "comm_open" for m in shown)
    assert any(m["msg_type"] == "execute_result" for m in shown)
    assert token not in json.dumps(shown, default=str)
    revealed = iopub_during(kernel, "panel.reveal(True)")
    assert token in json.dumps(revealed, default=str)
