"""The notebook user's other controls in a real JupyterLab: a tool's ``ctx.ask_notebook_user`` question
is answered from the MCP Tools sidebar, a client is limited to read-only tools from the sidebar, and
the status bar's Pause button stops every tool; each time an outside ``mcp.Client`` sees the effect.

With ``JUPYTER_MCP_UPDATE_SCREENSHOTS=1`` the question's screenshot is copied to
``docs/screenshots/question.png``.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from urllib.parse import quote

import mcp_types as mt
import pytest
from playwright.async_api import Locator, Page, expect

from tests.browser.lab import JupyterLab
from tests.browser.test_approvals_in_lab import settled
from tests.browser.test_labextension import close_notebook_session
from tests.browser.ui import SLOW, LabPage, keep
from tests.conftest import http_client

pytestmark = pytest.mark.browser

CELLS = [
    "%load_ext jupyter_mcp\nimport jupyter_mcp\nfrom jupyter_mcp import Context\nnotes = []",
    '''%%mcp_tool
async def export_table(ctx: Context) -> str:
    """Export a table the notebook user picks."""
    schema = {"type": "object", "required": ["table"], "properties": {
        "table": {"type": "string", "enum": ["sales", "stock"]},
        "rows": {"type": "integer", "description": "How many rows (all when empty)"},
        "columns": {"type": "array", "items": {"type": "string", "enum": ["region", "units", "price"]}}}}
    answer = await ctx.ask_notebook_user("Which table should be exported?", schema)
    if answer.action != "accept":
        return f"nothing exported ({answer.action})"
    columns = ", ".join(answer.content.get("columns", ["every column"]))
    return f"exported {answer.content['table']} ({answer.content.get('rows', 'all')} rows; {columns})"''',
    '''%%mcp_tool
def write_note(text: str) -> str:
    """Add a note."""
    notes.append(text)
    return f"{len(notes)} notes"''',
    '''%%mcp_tool --read-only
def read_notes() -> list[str]:
    """The notes so far."""
    return notes''',
]
CLIENT = mt.Implementation(name="desk-agent", version="1.4")


def text_of(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent)
    return block.text


def server_section(page: Page, notebook: str) -> Locator:
    return page.locator("#jupyter-mcp-tools .jp-MCP-server").filter(has_text=notebook)


async def test_a_tools_question_is_answered_from_the_sidebar(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page, notebook = lab_page.page, "ask the user.ipynb"
    lab.write_notebook(notebook, CELLS)
    try:
        await lab_page.open_notebook(notebook)
        await lab_page.run_all()
        route = lab.url(f"mcp/notebooks/{quote(notebook)}", token=False)
        async with http_client(route, lab.token, mode="legacy", client_info=CLIENT) as client:
            call = asyncio.ensure_future(client.call_tool("export_table", {}))
            asks = "export_table asks you (for desk-agent): Which table should be exported?"
            toast = page.locator(".Toastify__toast").filter(has_text=asks)
            await expect(toast).to_be_visible(timeout=SLOW)
            answers = toast.get_by_role("button").filter(has_text=re.compile(r"\w"))  # not the close button
            await expect(answers).to_have_text(["Answer", "Decline"])
            await expect(page.locator(".jp-MCP-status")).to_contain_text("1 question for you")
            await settled(page, toast)
            await toast.get_by_role("button", name="Answer", exact=True).click()

            question = server_section(page, notebook).locator(".jmcp-question")
            await expect(question).to_be_visible(timeout=SLOW)  # Answer opened the sidebar
            await expect(question.locator(".jmcp-question-text")).to_have_text(asks)
            await question.get_by_role("button", name="Send").click()
            complaint = question.get_by_role("alert")
            await expect(complaint).to_have_text("table is required")
            await page.wait_for_timeout(1500)  # the sidebar refreshes every second: the complaint stays
            await expect(complaint).to_have_text("table is required")
            await question.get_by_label("table").select_option("stock")
            await expect(complaint).to_have_count(0)  # editing the form clears (and hides) it
            await question.get_by_label("rows").fill("5")
            await question.get_by_label("columns").select_option(["region", "units"])
            keep(await lab_page.screenshot(server_section(page, notebook), artifacts / "question.png"), "question.png")
            assert not call.done()
            await question.get_by_role("button", name="Send").click()
            result = await asyncio.wait_for(call, SLOW / 1000)
            assert (result.is_error, text_of(result)) == (False, "exported stock (5 rows; region, units)")
            await expect(question).to_have_count(0, timeout=SLOW)
            await expect(toast).to_have_count(0, timeout=SLOW)

            call = asyncio.ensure_future(client.call_tool("export_table", {}))
            await expect(question).to_be_visible(timeout=SLOW)
            await question.get_by_role("button", name="Decline").click()
            declined = await asyncio.wait_for(call, SLOW / 1000)
        assert text_of(declined) == "nothing exported (decline)"
    finally:
        close_notebook_session(lab, notebook)


async def test_read_only_from_the_sidebar_and_pause_from_the_status_bar(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page, notebook = lab_page.page, "limit the client.ipynb"
    lab.write_notebook(notebook, CELLS)
    try:
        await lab_page.open_notebook(notebook)
        await lab_page.run_all()
        route = lab.url(f"mcp/notebooks/{quote(notebook)}", token=False)
        async with http_client(route, lab.token, mode="legacy", client_info=CLIENT) as client:
            assert text_of(await client.call_tool("write_note", {"text": "first"})) == "1 notes"
            status = page.locator(".jp-MCP-status")
            await expect(status).to_contain_text("1 client", timeout=SLOW)
            await status.click()
            section = server_section(page, notebook)
            read_only = section.get_by_role("checkbox", name="desk-agent: read-only tools only")
            await expect(read_only).not_to_be_checked(timeout=SLOW)
            await read_only.click()
            await expect(section.locator(".jmcp-client.jmcp-limited")).to_be_visible(timeout=SLOW)
            await expect(read_only).to_be_checked()  # as the kernel now says
            await lab_page.screenshot(section, artifacts / "read-only.png")
            refused = await client.call_tool("write_note", {"text": "second"})
            assert refused.is_error
            assert text_of(refused) == (
                "The notebook user limited client 'desk-agent' to read-only tools, "
                "and 'write_note' is not marked read-only"
            )
            assert (await client.call_tool("read_notes", {})).structured_content == {"result": ["first"]}
            await read_only.click()
            await expect(section.locator(".jmcp-client.jmcp-limited")).to_have_count(0, timeout=SLOW)
            assert text_of(await client.call_tool("write_note", {"text": "second"})) == "2 notes"

            pause = page.get_by_role("button", name=re.compile("^Pause all of this notebook’s MCP tools"))
            await expect(pause).to_have_attribute("aria-pressed", "false")
            await pause.click()
            resume = page.get_by_role("button", name=re.compile("^Resume this notebook’s MCP tools"))
            await expect(resume).to_have_attribute("aria-pressed", "true", timeout=SLOW)
            await expect(status).to_contain_text("· paused")
            await lab_page.screenshot(page.locator("#jp-main-statusbar"), artifacts / "paused-status-bar.png")
            paused = await client.call_tool("read_notes", {})
            assert text_of(paused) == "All tools are paused by the notebook user; try again later"
            await resume.click()
            await expect(pause).to_have_text("Pause", timeout=SLOW)
            assert (await client.call_tool("read_notes", {})).structured_content == {"result": ["first", "second"]}
    finally:
        close_notebook_session(lab, notebook)
