"""run_on="main": tools that must run on the kernel's main thread, between cells."""

from __future__ import annotations

import time

import anyio

from tests.conftest import http_client
from tests.harness import Kernel
from tests.kernel.conftest import endpoint

SQLITE = """
import sqlite3, threading
db = sqlite3.connect(":memory:")
db.execute("create table t (x integer)")
db.executemany("insert into t values (?)", [(1,), (2,), (3,)])
"""

QUERY_TOOL = '''
%%mcp_tool --main-thread --read-only
def total() -> dict:
    """Sum the table, on the thread that owns the connection."""
    return {"total": db.execute("select sum(x) from t").fetchone()[0], "thread": threading.current_thread().name}
'''


async def test_sqlite_connection_from_a_cell_works_in_a_main_thread_tool(kernel: Kernel, mode: str) -> None:
    kernel.run(SQLITE)
    kernel.run(QUERY_TOOL)
    kernel.run("%%mcp_tool\ndef total_worker() -> int:\n    return db.execute('select sum(x) from t').fetchone()[0]")
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode) as client:
        main = await client.call_tool("total", {})
        assert main.structured_content == {"total": 6, "thread": "MainThread"}
        worker = await client.call_tool("total_worker", {})
        assert worker.is_error is True
        assert "ProgrammingError" in worker.content[0].text  # type: ignore[union-attr]
        assert "same thread" in worker.content[0].text  # type: ignore[union-attr]


async def test_busy_kernel_answers_kernel_busy_after_the_wait(kernel: Kernel) -> None:
    kernel.run(SQLITE)
    kernel.run("server.settings.main_thread_wait = 0.5\nserver.calls.execution.executors['main'].wait = 0.5")
    kernel.run(QUERY_TOOL)
    url, token = endpoint(kernel)
    msg_id = kernel.client.execute("import time\ntime.sleep(3)")
    await anyio.sleep(0.3)
    async with http_client(url, token, mode="legacy") as client:
        started = time.monotonic()
        busy = await client.call_tool("total", {})
        assert time.monotonic() - started < 2
        assert busy.is_error is True
        assert busy.content[0].text.startswith("kernel busy: a cell has been running for over 0.5s")  # type: ignore[union-attr]
        kernel.collect(msg_id, timeout=20)
        assert (await client.call_tool("total", {})).structured_content == {"total": 6, "thread": "MainThread"}


async def test_queued_call_runs_when_the_cell_finishes(kernel: Kernel) -> None:
    kernel.run(SQLITE)
    kernel.run(QUERY_TOOL)
    url, token = endpoint(kernel)
    msg_id = kernel.client.execute("import time\ntime.sleep(1.5)\ndb.execute('insert into t values (10)')")
    await anyio.sleep(0.3)
    async with http_client(url, token, mode="auto") as client:
        result = await client.call_tool("total", {})
    kernel.collect(msg_id, timeout=20)
    assert result.structured_content == {"total": 16, "thread": "MainThread"}


def test_main_thread_tool_called_from_a_cell(kernel: Kernel) -> None:
    kernel.run(SQLITE)
    kernel.run(QUERY_TOOL)
    out = kernel.run("r = await server.call('total'); print(r.structured_content)")
    assert out.stdout.strip() == "{'total': 6, 'thread': 'MainThread'}"


ASKING_MAIN_TOOL = '''
%%mcp_tool --main-thread
def rename_table(ctx: jupyter_mcp.Context) -> str:
    """Ask for a new table name, on the thread that owns the connection."""
    answer = ctx.elicit("New name?", {"type": "object", "properties": {"name": {"type": "string"}}})
    name = answer.content["name"]
    db.execute(f"alter table t rename to {name}")
    return f"{name} on {threading.current_thread().name}"
'''


async def test_a_main_thread_tool_asks_without_await_in_both_eras(kernel: Kernel, mode: str) -> None:
    import mcp_types as mt

    async def answer(context: object, params: mt.ElicitRequestParams) -> mt.ElicitResult:
        return mt.ElicitResult(action="accept", content={"name": f"t_{mode}"})

    kernel.run(SQLITE)
    kernel.run(ASKING_MAIN_TOOL)
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode, elicitation_callback=answer) as client:
        renamed = await client.call_tool("rename_table", {})
    assert renamed.content[0].text == f"t_{mode} on MainThread"  # type: ignore[union-attr]
    assert kernel.value(f"db.execute('select count(*) from t_{mode}').fetchone()[0]") == 3
