"""Approvals in a real kernel with real HTTP clients (both eras): a cell answers the waiting call."""

from __future__ import annotations

import asyncio

import anyio
import mcp_types as mt

from tests.conftest import http_client
from tests.harness import Kernel
from tests.kernel.conftest import endpoint

TOOLS = '''
%%mcp_tool --confirm
def reset_sales(region: str) -> str:
    """Clear a region's figures."""
    sales[region] = 0
    return f"{region} reset"
'''


def text_of(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent)
    return block.text


async def wait_pending(kernel: Kernel) -> None:
    with anyio.fail_after(20):
        while not kernel.value("len(server.pending)"):
            await asyncio.sleep(0.05)


async def test_a_cell_allows_and_denies_and_the_history_says_so(kernel: Kernel, mode: str) -> None:
    kernel.run("sales = {'north': 120, 'south': 95}")
    kernel.run(TOOLS)
    url, token = endpoint(kernel)
    progress: list[str | None] = []

    async def on_progress(progress_value: float, total: float | None, message: str | None) -> None:
        progress.append(message)

    async with http_client(url, token, mode=mode) as client:
        call = asyncio.ensure_future(
            client.call_tool("reset_sales", {"region": "north"}, progress_callback=on_progress)
        )
        await wait_pending(kernel)
        assert kernel.value("(server.pending[0].tool, server.pending[0].arguments)") == (
            "reset_sales",
            {"region": "north"},
        )
        assert kernel.value("sales['north']") == 120  # not called yet
        kernel.run("server.pending[0].allow()")
        assert text_of(await call) == "north reset"
        assert progress == ["waiting for approval in the notebook"]

        call = asyncio.ensure_future(client.call_tool("reset_sales", {"region": "south"}))
        await wait_pending(kernel)
        kernel.run("server.pending[0].deny('the audit is on Friday')")
        denied = await call
    assert denied.is_error
    assert text_of(denied) == "The notebook user declined the call of 'reset_sales': the audit is on Friday"
    assert kernel.value("sales") == {"north": 0, "south": 95}
    decisions = kernel.value("[(r.decision.verdict, r.decision.via, r.decision.reason) for r in server.history]")
    assert decisions == [("allowed", "cell", None), ("denied", "cell", "the audit is on Friday")]
    shown = kernel.run("%mcp history").stdout
    assert "denied by the notebook user from a cell" in shown


async def test_timeout_and_the_pause_magics(kernel: Kernel, mode: str) -> None:
    kernel.run("sales = {'north': 120}")
    kernel.run(TOOLS)
    kernel.run("server.approval_timeout = 0.5")
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode) as client:
        unanswered = await client.call_tool("reset_sales", {"region": "north"})
        assert text_of(unanswered) == (
            "The notebook user did not answer in time (no answer within 0.5 s), so the call of 'reset_sales' was declined"
        )
        assert "All tools paused" in kernel.run("%mcp pause").stdout
        paused = await client.call_tool("reset_sales", {"region": "north"})
        assert text_of(paused) == "All tools are paused by the notebook user; try again later"
        kernel.run("%mcp resume")
        kernel.run(TOOLS.replace(" --confirm", ""))  # re-running the cell without the flag: no more asking
        assert text_of(await client.call_tool("reset_sales", {"region": "north"})) == "north reset"
    assert kernel.value("sales['north']") == 0


def test_the_workshop_check_tells_whether_a_tool_asks_first(kernel: Kernel) -> None:
    kernel.run("from jupyter_mcp.kernel.workshop import check_asks_first")
    assert kernel.run("check_asks_first('wipe');").stdout.startswith("✗ not yet: wipe: there is no tool named 'wipe'")
    kernel.run("@jupyter_mcp.tool(annotations={'destructiveHint': True})\ndef wipe() -> str:\n    return 'wiped'")
    assert kernel.run("check_asks_first('wipe');").stdout.startswith(
        "✗ not yet: wipe: a client's call would run without asking you"
    )
    kernel.run("server.confirm = 'destructive'")
    assert kernel.run("check_asks_first('wipe');").stdout == "✓ wipe asks the notebook user first\n"


def test_the_workshop_check_tells_whether_a_tool_runs_as_a_task(kernel: Kernel) -> None:
    kernel.run("from jupyter_mcp.kernel.workshop import check_runs_as_task")
    kernel.run("@jupyter_mcp.tool\nasync def backup() -> str:\n    return 'done'")
    assert kernel.run("check_runs_as_task('backup');").stdout.startswith(
        "✗ not yet: backup: clients cannot run it as a task"
    )
    kernel.run("@jupyter_mcp.tool(task=True)\nasync def backup() -> str:\n    return 'done'")
    assert kernel.run("check_runs_as_task('backup');").stdout == "✓ backup can run as a task\n"
