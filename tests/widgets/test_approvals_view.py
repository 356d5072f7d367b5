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


def test_panel_and_card_show_the_waiting_call_and_their_buttons_answer(server: NotebookServer) -> None:
    @server.tool(confirm=True)
    def reset_sales(region: str) -> str:
        return f"{region} reset"

    panel, card = ServerPanel(server), ToolCard(server, server.tools["reset_sales"])
    results = call_in_thread(server, "reset_sales", {"region": "north"})
    (row,) = eventually(lambda: list(panel.approvals.rows.values()), what="the panel's waiting row")
    assert "wants to call <code>reset_sales</code>" in row.summary.value
    assert eventually(lambda: card.approvals.rows, what="the card's waiting row")
    assert "waiting for approval: reset_sales" in panel.fallback_text()
    row.allow_button.click()
    assert eventually(lambda: results)[0].content[0].text == "north reset"  # type: ignore[union-attr]
    eventually(lambda: not panel.approvals.rows and not card.approvals.rows, what="the rows to go")
    assert server.history[-1].decision is not None
    assert server.history[-1].decision.via == "panel"

    results = call_in_thread(server, "reset_sales", {"region": "south"})
    (row,) = eventually(lambda: list(card.approvals.rows.values()))
    row.reason.value = "not today"
    row.deny_button.click()
    assert eventually(lambda: results)[0].content[0].text == (  # type: ignore[union-attr]
        "The notebook user declined the call of 'reset_sales': not today"
    )


def test_pause_switch_follows_and_drives_the_server(server: NotebookServer) -> None:
    panel = ServerPanel(server)
    assert panel.pause.description == "Pause all tools"
    panel.pause.value = True
    assert server.paused
    eventually(lambda: "paused" in panel.header.value, what="the header's paused badge")
    server.resume()
    eventually(lambda: panel.pause.value is False, what="the switch to follow %mcp resume")
    assert panel.pause.description == "Pause all tools"


def test_a_question_renders_as_a_form_and_send_answers_it(server: NotebookServer) -> None:
    schema = {"type": "object", "properties": {"table": {"type": "string"}}, "required": ["table"]}

    @server.tool
    async def drop(ctx: Context) -> str:
        answer = await ctx.ask_notebook_user("Which table?", schema)
        return f"{answer.action}: {(answer.content or {}).get('table')}"

    panel = ServerPanel(server)
    results = call_in_thread(server, "drop", {})
    (question,) = eventually(lambda: list(panel.approvals.questions.values()), what="the question's form")
    assert "Which table?" in question.summary.value
    question.form.inputs["table"].value = "sales"
    question.form.run()
    assert eventually(lambda: results)[0].content[0].text == "accept: sales"  # type: ignore[union-attr]


def test_a_connected_client_can_be_limited_to_read_only_tools_from_the_panel(server: NotebookServer) -> None:
    @server.tool
    def drop_table() -> str:
        return "dropped"

    panel = ServerPanel(server)
    first = call_in_thread(server, "drop_table", {})
    assert eventually(lambda: first)  # the client is now known
    box = eventually(lambda: panel.connection.limits.boxes.get("mcp"), what="the client's read-only box")
    box.value = True
    assert server.approvals.read_only_clients == {"mcp"}
    second = call_in_thread(server, "drop_table", {})
    refused = eventually(lambda: second)
    assert "limited client 'mcp' to read-only tools" in refused[0].content[0].text  # type: ignore[union-attr]
