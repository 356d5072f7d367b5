"""The approval views: a waiting call shows in the panel and the tool card; a click answers it."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import mcp_types as mt
from mcp import Client

from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools.calls.context import Context
from jupyter_mcp.widgets.card import ToolCard
from jupyter_mcp.widgets.panel import ServerPanel
from tests.widgets.conftest import eventually


def call_in_thread(server: NotebookServer, tool: str, arguments: dict[str, Any]) -> list[mt.CallToolResult]:
    """A real client call (in-memory transport) on its own thread and loop, as an outside client would."""
    results: list[mt.CallToolResult] = []

    async def call() -> None:
        async with Client(server.lowlevel, mode="legacy") as client:
            results.append(await client.call_tool(tool, arguments))

    threading.Thread(target=lambda: asyncio.run(call()), daemon=True).start()
    return results


def browser(view: Any, action: str, **content: Any) -> None:
    """What the front end sends when the user acts (labextension/src/widgets/index.ts)."""
    view._on_message(view, {"action": action, **content}, [])


def test_panel_and_card_show_the_waiting_call_and_their_buttons_answer(server: NotebookServer) -> None:
    @server.tool(confirm=True)
    def reset_sales(region: str) -> str:
        return f"{region} reset"

    panel, card = ServerPanel(server), ToolCard(server, server.tools["reset_sales"])
    results = call_in_thread(server, "reset_sales", {"region": "north"})
    (waiting,) = eventually(lambda: panel.pending, what="the panel's waiting call")
    assert (waiting["call"], waiting["client"]) == ("reset_sales(region='north')", "mcp")
    assert eventually(lambda: card.pending, what="the card's waiting call") == [waiting]
    # Issue 23: while it waits, the call is "waiting" (not "running" with a spinner) in every list.
    row = eventually(lambda: [r for r in card.recent if r["status"] == "waiting"], what="the waiting row")[0]
    assert row["progress_text"] == "waiting for your approval in the notebook"
    assert "waiting for approval: reset_sales(region='north') from mcp" in panel.fallback_text()
    browser(panel, "allow", call_id=waiting["id"], minutes=None)
    assert eventually(lambda: results)[0].content[0].text == "north reset"  # type: ignore[union-attr]
    eventually(lambda: not panel.pending and not card.pending, what="the waiting calls to go")
    assert server.history[-1].decision is not None
    assert server.history[-1].decision.via == "panel"

    results = call_in_thread(server, "reset_sales", {"region": "south"})
    (waiting,) = eventually(lambda: card.pending)
    browser(card, "deny", call_id=waiting["id"], reason="not today")
    assert eventually(lambda: results)[0].content[0].text == (  # type: ignore[union-attr]
        "The notebook user declined the call of 'reset_sales': not today"
    )
    # Issue 23: a denial is not an error in the tools table.
    counts = eventually(lambda: [r for r in panel.components["tool"] if r["refused"] == 1], what="the refusal")
    assert (counts[0]["errors"], counts[0]["calls"]) == (0, 2)


def test_allow_for_minutes_lets_the_clients_next_calls_through(server: NotebookServer) -> None:
    @server.tool(confirm=True)
    def reset_sales(region: str) -> str:
        return f"{region} reset"

    card = ToolCard(server, server.tools["reset_sales"])
    results = call_in_thread(server, "reset_sales", {"region": "north"})
    (waiting,) = eventually(lambda: card.pending)
    browser(card, "allow", call_id=waiting["id"], minutes=10)
    assert eventually(lambda: results)[0].content[0].text == "north reset"  # type: ignore[union-attr]
    assert list(server.approvals.permissions()) == ["mcp"]
    # Issue 23: permissions() printed a raw epoch (1795648981.07).
    assert repr(server.approvals.permissions()["mcp"]).startswith("until ")
    assert "min left)" in repr(server.approvals.permissions()["mcp"])


def test_pause_switch_follows_and_drives_the_server(server: NotebookServer) -> None:
    panel = ServerPanel(server)
    assert panel.header["pausable"] is False  # no tools: nothing to pause

    @server.tool
    def ping() -> str:
        return "pong"

    eventually(lambda: panel.header["pausable"], what="a tool to pause")
    browser(panel, "pause", paused=True)
    assert server.paused
    assert panel.header["paused"] is True
    server.resume()
    eventually(lambda: panel.header["paused"] is False, what="the switch to follow %mcp resume")


def test_a_question_shows_with_its_schema_and_send_answers_it(server: NotebookServer) -> None:
    schema = {"type": "object", "properties": {"table": {"type": "string"}}, "required": ["table"]}

    @server.tool
    async def drop(ctx: Context) -> str:
        answer = await ctx.ask_notebook_user("Which table?", schema)
        return f"{answer.action}: {(answer.content or {}).get('table')}"

    panel = ServerPanel(server)
    card = ToolCard(server, server.tools["drop"])
    results = call_in_thread(server, "drop", {})
    (question,) = eventually(lambda: panel.questions, what="the question")
    assert (question["message"], question["schema"], question["tool"]) == ("Which table?", schema, "drop")
    assert eventually(lambda: card.questions) == [question]
    row = eventually(lambda: [r for r in card.recent if r["status"] == "waiting"], what="the waiting row")[0]
    assert row["progress_text"] == "waiting for your answer in the notebook"
    browser(panel, "answer", call_id=question["id"], values={"table": "sales"})
    assert eventually(lambda: results)[0].content[0].text == "accept: sales"  # type: ignore[union-attr]


def test_a_connected_client_can_be_limited_to_read_only_tools_from_the_panel(server: NotebookServer) -> None:
    @server.tool
    def drop_table() -> str:
        return "dropped"

    panel = ServerPanel(server)
    first = call_in_thread(server, "drop_table", {})
    assert eventually(lambda: first)  # the client is now known
    eventually(lambda: [c for c in panel.clients if c["name"] == "mcp"], what="the client's row")
    browser(panel, "limit", client="mcp", read_only=True)
    assert server.approvals.read_only_clients == {"mcp"}
    second = call_in_thread(server, "drop_table", {})
    refused = eventually(lambda: second)
    assert "limited client 'mcp' to read-only tools" in refused[0].content[0].text  # type: ignore[union-attr]
    # Issue 23: a refusal is counted apart from errors, and its row says "refused".
    eventually(lambda: panel.components["tool"][0]["refused"] == 1, what="the refusal counted")
    assert panel.components["tool"][0]["errors"] == 0
    assert eventually(lambda: panel.history.rows and panel.history.rows[0]["status"] == "refused")
