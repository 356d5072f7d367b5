"""Approvals: a confirm tool waits for the notebook user; allow, deny, timeout, permissions, pause, limits.

Real ``mcp.Client`` in both eras against a ``ToolServer``; the "notebook user" answers from another
task, as a cell or a widget would from another thread.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import anyio
import mcp_types as mt
import pytest

from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.approvals.policy import WAITING_MESSAGE, PendingCall
from jupyter_mcp.tools.calls.context import Context
from jupyter_mcp.tools.calls.history import CallHistory
from tests.conftest import connected


class Calls:
    def __init__(self) -> None:
        self.reset: list[str] = []


def make_server(**settings: Any) -> tuple[ToolServer, CallHistory, Calls]:
    server = ToolServer("approvals", **settings)
    history = CallHistory()
    server.add_call_observer(history)
    server.approvals.decisions.add(history.call_decided)
    calls = Calls()

    @server.tool(confirm=True)
    def reset_sales(region: str) -> str:
        """Delete this region's sales."""
        calls.reset.append(region)
        return f"reset {region}"

    @server.tool(annotations={"destructiveHint": True})
    def drop_table(name: str) -> str:
        return f"dropped {name}"

    @server.tool(annotations={"readOnlyHint": True})
    def peek() -> str:
        return "sales: 42"

    @server.tool
    async def crunch(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "crunched"

    return server, history, calls


async def first_pending(server: ToolServer) -> PendingCall:
    with anyio.fail_after(10):
        while not server.pending:
            await anyio.sleep(0.01)
    return server.pending[0]


def answer_from_another_thread(action: Any) -> None:
    """As a cell or a widget does: from a thread that is not the serving loop."""
    thread = threading.Thread(target=action)
    thread.start()
    thread.join()


def text_of(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent)
    return block.text


async def test_allow_runs_the_tool_and_the_client_saw_it_wait(mode: str) -> None:
    server, history, calls = make_server()
    seen: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(message)

    async with connected(server, mode) as client, anyio.create_task_group() as group:
        results: list[mt.CallToolResult] = []

        async def call() -> None:
            results.append(await client.call_tool("reset_sales", {"region": "north"}, progress_callback=on_progress))

        group.start_soon(call)
        pending = await first_pending(server)
        assert (pending.tool, pending.arguments, pending.client) == ("reset_sales", {"region": "north"}, "mcp")
        assert calls.reset == []  # not called before the user says so
        answer_from_another_thread(pending.allow)
    assert text_of(results[0]) == "reset north"
    assert calls.reset == ["north"]
    assert seen == [WAITING_MESSAGE]
    assert server.pending == []
    record = history[-1]
    assert record.decision is not None
    assert (record.decision.verdict, record.decision.via) == ("allowed", "cell")
    assert record.decision.at >= record.started_at


async def test_deny_is_a_tool_error_with_the_reason_and_the_function_never_runs(mode: str) -> None:
    server, history, calls = make_server()
    async with connected(server, mode) as client, anyio.create_task_group() as group:
        results: list[mt.CallToolResult] = []
        group.start_soon(lambda: _collect(client, results, "reset_sales", {"region": "south"}))
        pending = await first_pending(server)
        answer_from_another_thread(lambda: pending.deny("quarter not closed yet", via="panel"))
    assert results[0].is_error
    assert text_of(results[0]) == "The notebook user declined the call of 'reset_sales': quarter not closed yet"
    assert calls.reset == []
    decision = history[-1].decision
    assert decision is not None
    assert (decision.verdict, decision.via, decision.reason) == ("denied", "panel", "quarter not closed yet")
    assert history[-1].status == "error"


async def test_unanswered_is_denied_after_the_timeout(mode: str) -> None:
    server, history, calls = make_server(approval_timeout=0.3)
    async with connected(server, mode) as client:
        result = await client.call_tool("reset_sales", {"region": "east"})
    assert result.is_error
    assert "did not answer in time (no answer within 0.3 s)" in text_of(result)
    assert calls.reset == []
    assert server.pending == []
    decision = history[-1].decision
    assert decision is not None
    assert (decision.verdict, decision.via) == ("denied", "timeout")
    assert decision.waited >= 0.3


async def test_allow_for_minutes_skips_the_next_prompt_and_expires(mode: str) -> None:
    server, history, calls = make_server(approval_timeout=0.3)
    async with connected(server, mode) as client, anyio.create_task_group() as group:
        results: list[mt.CallToolResult] = []
        group.start_soon(lambda: _collect(client, results, "reset_sales", {"region": "a"}))
        pending = await first_pending(server)
        pending.allow(minutes=10)
    async with connected(server, mode) as client:
        again = await client.call_tool("reset_sales", {"region": "b"})
        assert not again.is_error
        assert calls.reset == ["a", "b"]
        decision = history[-1].decision
        assert decision is not None
        assert decision.via == "permission"
        assert "mcp" in server.approvals.permissions()
        server.approvals._permissions["mcp"] = 0.0  # ten minutes later
        expired = await client.call_tool("reset_sales", {"region": "c"})
    assert expired.is_error
    assert "did not answer in time" in text_of(expired)
    assert calls.reset == ["a", "b"]


async def test_confirm_destructive_setting_and_notebook_calls_pass(mode: str) -> None:
    server, _history, _ = make_server(confirm="destructive", approval_timeout=0.2)
    async with connected(server, mode) as client:
        refused = await client.call_tool("drop_table", {"name": "t"})
        assert refused.is_error
        assert "did not answer in time" in text_of(refused)
        assert text_of(await client.call_tool("peek", {})) == "sales: 42"
    own = await server.call("drop_table", {"name": "t"})  # the notebook user's own call is not asked
    assert text_of(own) == "dropped t"


async def test_pause_refuses_new_calls_cancels_running_ones_and_resume_serves_again(mode: str) -> None:
    server, history, _ = make_server()
    async with connected(server, mode) as client, anyio.create_task_group() as group:
        results: list[mt.CallToolResult] = []
        group.start_soon(lambda: _collect(client, results, "crunch", {"seconds": 30}))
        with anyio.fail_after(10):
            while not any(r.status == "running" and r.tool == "crunch" for r in history):
                await anyio.sleep(0.01)
        await anyio.sleep(0.05)
        answer_from_another_thread(server.pause)
    assert results[0].is_error
    assert text_of(results[0]) == "Tool 'crunch' was cancelled: the notebook user paused all tools"
    async with connected(server, mode) as client:
        refused = await client.call_tool("peek", {})
        assert refused.is_error
        assert text_of(refused) == "All tools are paused by the notebook user; try again later"
        server.resume()
        assert text_of(await client.call_tool("peek", {})) == "sales: 42"


async def test_pause_denies_a_waiting_call(mode: str) -> None:
    server, _history, calls = make_server()
    async with connected(server, mode) as client, anyio.create_task_group() as group:
        results: list[mt.CallToolResult] = []
        group.start_soon(lambda: _collect(client, results, "reset_sales", {"region": "w"}))
        await first_pending(server)
        server.pause()
    assert text_of(results[0]) == "The call of 'reset_sales' was declined: the notebook user paused all tools"
    assert calls.reset == []


async def test_read_only_limit_refuses_other_tools(mode: str) -> None:
    server, _, _ = make_server()
    server.limit_client("mcp", read_only=True)
    async with connected(server, mode) as client:
        refused = await client.call_tool("drop_table", {"name": "t"})
        assert refused.is_error
        assert text_of(refused) == (
            "The notebook user limited client 'mcp' to read-only tools, and 'drop_table' is not marked read-only"
        )
        assert text_of(await client.call_tool("peek", {})) == "sales: 42"
        server.limit_client("mcp", read_only=False)
        assert text_of(await client.call_tool("drop_table", {"name": "t"})) == "dropped t"


def test_bad_settings_say_what_is_wrong() -> None:
    server = ToolServer("x")
    with pytest.raises(ValueError, match=r"^confirm: Input should be 'never', 'destructive' or 'always'"):
        server.settings.confirm = "sometimes"  # type: ignore[assignment]
    with pytest.raises(ValueError, match=r"^confirm: Input should be"):
        server.approvals.confirm = "sometimes"  # type: ignore[assignment]
    with pytest.raises(ValueError, match=r"^approval_timeout: Input should be greater than 0 \(got 0\)"):
        server.settings.approval_timeout = 0
    assert (server.settings.confirm, server.approvals.timeout) == ("never", 300.0)


async def _collect(client: Any, results: list[mt.CallToolResult], name: str, arguments: dict[str, Any]) -> None:
    results.append(await client.call_tool(name, arguments))


async def test_a_tool_asks_the_notebook_user_and_resumes_with_the_answer(mode: str) -> None:
    server = ToolServer("asking")
    schema = {"type": "object", "properties": {"table": {"type": "string"}}, "required": ["table"]}

    @server.tool
    async def drop(ctx: Context) -> str:
        answer = await ctx.ask_notebook_user("Which table?", schema)
        return f"{answer.action}: {(answer.content or {}).get('table')}"

    @server.tool
    def drop_sync(ctx: Context) -> str:
        answer = ctx.ask_notebook_user("Which table?", schema)  # a sync tool gets the result directly
        return f"{answer.action}: {(answer.content or {}).get('table')}"

    async def ask_and_answer(client: Any, tool: str, respond: Any) -> mt.CallToolResult:
        async with anyio.create_task_group() as group:
            results: list[mt.CallToolResult] = []
            group.start_soon(lambda: _collect(client, results, tool, {}))
            with anyio.fail_after(10):
                while not server.questions:
                    await anyio.sleep(0.01)
            question = server.questions[0]
            assert (question.tool, question.message, question.schema) == (tool, "Which table?", schema)
            answer_from_another_thread(lambda: respond(question))
        return results[0]

    async with connected(server, mode) as client:
        answered = await ask_and_answer(client, "drop", lambda q: q.answer({"table": "sales"}))
        assert text_of(answered) == "accept: sales"
        answered = await ask_and_answer(client, "drop_sync", lambda q: q.answer({"table": "stock"}))
        assert text_of(answered) == "accept: stock"
        declined = await ask_and_answer(client, "drop", lambda q: q.decline())
        assert text_of(declined) == "decline: None"
        server.settings.approval_timeout = 0.2
        assert text_of(await client.call_tool("drop", {})) == "cancel: None"
    assert server.questions == []


UNATTENDED_REFUSAL = (
    "Tool 'reset_sales' needs the notebook user's approval, but this server runs the notebook without anyone at it "
    "(jupyter-mcp serve), so nobody can approve the call: it was refused. Whoever starts the server can add "
    "--no-confirm to run such tools unasked"
)


async def test_unattended_refuses_at_once_what_needs_approval(mode: str) -> None:
    server, history, calls = make_server(confirm="destructive")  # the 300 s default timeout never comes into it
    server.approvals.unattended = "refuse"
    assert server.tools_needing_approval() == ["reset_sales", "drop_table"]
    async with connected(server, mode) as client:
        with anyio.fail_after(5):
            refused = await client.call_tool("reset_sales", {"region": "west"})
            dropped = await client.call_tool("drop_table", {"name": "sales"})
        assert text_of(await client.call_tool("peek", {})) == "sales: 42"
    assert refused.is_error
    assert text_of(refused) == UNATTENDED_REFUSAL
    assert dropped.is_error
    assert text_of(dropped).startswith("Tool 'drop_table' needs the notebook user's approval, but ")
    assert calls.reset == []
    assert server.pending == []
    decision = history[-3].decision
    assert decision is not None
    assert (decision.verdict, decision.via) == ("denied", "unattended")
    assert decision.summary() == "denied at once: no notebook user can approve calls here (jupyter-mcp serve)"


async def test_unattended_run_is_the_opt_in_to_run_unasked(mode: str) -> None:
    server, history, calls = make_server()
    server.approvals.unattended = "run"
    async with connected(server, mode) as client:
        with anyio.fail_after(5):
            result = await client.call_tool("reset_sales", {"region": "west"})
    assert text_of(result) == "reset west"
    assert calls.reset == ["west"]
    decision = history[-1].decision
    assert decision is not None
    assert decision.summary() == "allowed at once: no notebook user can approve calls here (jupyter-mcp serve)"


async def test_unattended_questions_for_the_notebook_user_are_cancelled_at_once(mode: str) -> None:
    server = ToolServer("asking")
    server.approvals.unattended = "refuse"

    @server.tool
    async def drop(ctx: Context) -> str:
        answer = await ctx.ask_notebook_user("Which table?", {"type": "object", "properties": {}})
        return answer.action

    async with connected(server, mode) as client:
        with anyio.fail_after(5):
            assert text_of(await client.call_tool("drop", {})) == "cancel"
    assert server.questions == []


def test_a_setting_set_on_the_server_says_where_it_lives() -> None:
    server = ToolServer("x")
    with pytest.raises(AttributeError, match=r"^confirm is a setting: set server.settings.confirm = 'always'$"):
        server.confirm = "always"  # type: ignore[attr-defined]
    assert server.settings.confirm == "never"
