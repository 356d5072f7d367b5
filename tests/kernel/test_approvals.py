"""Approvals in a real kernel with real HTTP clients (both eras): a cell answers the waiting call."""

from __future__ import annotations

import asyncio

import anyio
import httpx
import mcp_types as mt

from jupyter_mcp.discovery import ADMIN_HEADER
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


ASKING_TOOL = '''
from jupyter_mcp import Context

@jupyter_mcp.tool
async def export_table(ctx: Context) -> str:
    """Export a table the notebook user picks."""
    schema = {"type": "object", "required": ["table"], "properties": {
        "table": {"type": "string", "enum": ["sales", "stock"]}, "rows": {"type": "integer"}}}
    answer = await ctx.ask_notebook_user("Which table?", schema)
    if answer.action != "accept":
        return f"nothing exported ({answer.action})"
    return f"exported {answer.content['table']} ({answer.content.get('rows', 'all')} rows)"

@jupyter_mcp.tool
def write_note(text: str) -> str:
    """Write a note (not read-only)."""
    return "written"
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
    kernel.run("server.settings.approval_timeout = 0.5")
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
    kernel.run("server.settings.confirm = 'destructive'")
    assert kernel.run("check_asks_first('wipe');").stdout == "✓ wipe asks the notebook user first\n"


def test_the_workshop_check_tells_whether_a_tool_runs_as_a_task(kernel: Kernel) -> None:
    kernel.run("from jupyter_mcp.kernel.workshop import check_runs_as_task")
    kernel.run("@jupyter_mcp.tool\nasync def backup() -> str:\n    return 'done'")
    assert kernel.run("check_runs_as_task('backup');").stdout.startswith(
        "✗ not yet: backup: clients cannot run it as a task"
    )
    kernel.run("@jupyter_mcp.tool(task=True)\nasync def backup() -> str:\n    return 'done'")
    assert kernel.run("check_runs_as_task('backup');").stdout == "✓ backup can run as a task\n"


async def wait_question(kernel: Kernel) -> str:
    with anyio.fail_after(20):
        while not kernel.value("len(server.questions)"):
            await asyncio.sleep(0.05)
    return str(kernel.value("server.questions[0].id"))


async def test_the_admin_routes_answer_questions_and_limit_clients(kernel: Kernel, mode: str) -> None:
    kernel.run(ASKING_TOOL)
    url, token = endpoint(kernel)
    base = url.removesuffix("/mcp")
    admin = {"Authorization": f"Bearer {token}", ADMIN_HEADER: str(kernel.value("server.approvals.admin_token"))}
    info = mt.Implementation(name="desk-agent", version="1")
    async with http_client(url, token, mode=mode, client_info=info) as client, httpx.AsyncClient() as http:
        call = asyncio.ensure_future(client.call_tool("export_table", {}))
        question = f"{base}/questions/{await wait_question(kernel)}"
        refusals = [
            (await http.post(question, json=body, headers=admin)).json()["error"]
            for body in (
                {"action": "maybe"},
                {"action": "accept", "content": ["sales"]},
                {"action": "accept", "content": {"rows": 3}},
                {"action": "accept", "content": {"table": "people"}},
                {"action": "accept", "content": {"table": "sales", "extra": {"deep": 1}}},
            )
        ]
        assert refusals == [
            'action must be "accept" or "decline"',
            "content must be a JSON object of the form's fields",
            "the answer does not fit the question's form: 'table' is a required property",
            "the answer does not fit the question's form: table: 'people' is not one of ['sales', 'stock']",
            "each field of content must be text, a number, true/false or a list of text",
        ]
        not_admin = await http.post(
            question, json={"action": "decline"}, headers={"Authorization": admin["Authorization"]}
        )
        assert not_admin.status_code == 403
        assert not call.done()
        answered = await http.post(
            question, json={"action": "accept", "content": {"table": "sales", "rows": 3}}, headers=admin
        )
        assert answered.json() == {"ok": True}
        assert text_of(await call) == "exported sales (3 rows)"
        gone = await http.post(question, json={"action": "decline"}, headers=admin)
        assert (gone.status_code, gone.json()["error"]) == (
            404,
            "no question with this id is waiting for an answer (it was answered, or it timed out)",
        )

        limited = await http.post(f"{base}/limits", json={"client": "desk-agent", "read_only": True}, headers=admin)
        assert limited.json() == {"read_only_clients": ["desk-agent"]}
        refused = await client.call_tool("write_note", {"text": "hi"})
        assert text_of(refused) == (
            "The notebook user limited client 'desk-agent' to read-only tools, and 'write_note' is not marked read-only"
        )
        for body in ({"client": "", "read_only": True}, {"client": "desk-agent", "read_only": "yes"}):
            bad = await http.post(f"{base}/limits", json=body, headers=admin)
            assert (bad.status_code, bad.json()["error"]) == (
                400,
                'send {"client": "<client name>", "read_only": true or false}',
            )
        lifted = await http.post(f"{base}/limits", json={"client": "desk-agent", "read_only": False}, headers=admin)
        assert lifted.json() == {"read_only_clients": []}
        assert text_of(await client.call_tool("write_note", {"text": "hi"})) == "written"
