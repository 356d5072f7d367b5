"""Agents in a notebook open in JupyterLab (real-time collaboration on): an MCP client of ``<lab>/mcp`` inserts
a cell, replaces another and runs it, in both protocol eras; the open tab shows the new cell and the run's
outputs without a reload or a dialog, and the saved file is valid nbformat. Then a run waits for approval
with its code in the sidebar (checked for layout and contrast in both themes, screenshots for the docs),
Deny changes nothing, and "Undo last edit" takes back the agent's change and only it.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import mcp_types as mt
import nbformat
import pytest
from playwright.async_api import Page, expect

from tests.browser.lab import JupyterLab
from tests.browser.layout import layout_problems
from tests.browser.test_labextension import close_notebook_session
from tests.browser.test_ui_in_lab import toasts_shown
from tests.browser.ui import SLOW, LabPage, keep
from tests.conftest import http_client

pytestmark = pytest.mark.browser

NOTEBOOK = "agents at work.ipynb"
AGENT = mt.Implementation(name="claude-desktop", version="0.9.2")


def modes(lab: JupyterLab, **values: str) -> dict[str, Any]:
    reply = lab.api("POST", "api/mcp/notebook-tools", content=json.dumps(values))
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def structured(result: mt.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def saved(lab: JupyterLab, check: Any) -> nbformat.NotebookNode:
    for _ in range(150):
        try:
            notebook = nbformat.read(lab.root / NOTEBOOK, as_version=4)
        except (ValueError, nbformat.reader.NotJSONError):
            notebook = None  # read while the document's save was writing it: look again
        if notebook is not None and check(notebook):
            return notebook
        await asyncio.sleep(0.1)
    raise AssertionError(f"the saved notebook never matched: {[cell.source for cell in notebook.cells]}")


def cells(page: Page) -> Any:
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")


async def test_an_agents_edits_and_runs_appear_in_the_open_tab_and_wait_for_approval(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page = lab_page.page
    lab.write_notebook(NOTEBOOK, ["greeting = 'hi'", "# to be replaced"])
    modes(lab, mode="run", confirm="never")
    try:
        await lab_page.open_notebook(NOTEBOOK)
        for number, era in enumerate(("legacy", "auto"), start=1):
            async with http_client(lab.url("mcp", token=False), lab.token, mode=era, client_info=AGENT) as client:
                read = structured(await client.call_tool("jupyter_read", {"path": NOTEBOOK}))
                first, last = read["cells"][0], read["cells"][-1]
                ops = [
                    {"op": "insert", "after": first["id"], "source": f"print(greeting * {number}, 'from the agent')"},
                    {"op": "replace", "id": last["id"], "version": last["version"], "source": f"{number} * 21"},
                ]
                edit = structured(await client.call_tool("jupyter_edit", {"path": NOTEBOOK, "ops": ops}))
                inserted = edit["touched"][0]["id"]
                await expect(cells(page).nth(1)).to_contain_text(f"print(greeting * {number}", timeout=SLOW)
                await expect(cells(page).last).to_contain_text(f"{number} * 21", timeout=SLOW)
                ids = [first["id"], inserted, last["id"]]
                ran = structured(await client.call_tool("jupyter_run", {"path": NOTEBOOK, "ids": ids}))
                assert [cell["status"] for cell in ran["cells"]] == ["ok", "ok", "ok"]
            shown = cells(page).nth(1).locator(".jp-OutputArea-output")
            await expect(shown).to_contain_text("hi" * number + " from the agent", timeout=SLOW)
            await expect(cells(page).last.locator(".jp-OutputArea-output")).to_have_text(str(number * 21))
            await expect(cells(page).last.locator(".jp-InputPrompt")).to_contain_text(re.compile(r"\[\d+\]"))
        assert await page.locator(".jp-Dialog").count() == 0  # no "file changed on disk", no reload asked
        await expect(cells(page)).to_have_count(4)
        notebook = await saved(lab, lambda nb: len(nb.cells) == 4 and nb.cells[-1].get("outputs"))
        nbformat.validate(notebook)
        assert notebook.cells[-1].outputs[0]["data"]["text/plain"] == "42"
        await approval_waits_in_the_sidebar_and_deny_changes_nothing(lab, lab_page, artifacts)
        await undo_takes_back_the_agents_last_edit(lab, page)
    finally:
        modes(lab, mode="read", confirm="edits_and_runs")
        await lab_page.set_theme("JupyterLab Light")
        close_notebook_session(lab, NOTEBOOK)


async def approval_waits_in_the_sidebar_and_deny_changes_nothing(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page = lab_page.page
    modes(lab, confirm="edits_and_runs")
    async with http_client(lab.url("mcp", token=False), lab.token, mode="legacy", client_info=AGENT) as client:
        read = structured(await client.call_tool("jupyter_read", {"path": NOTEBOOK}))
        target = read["cells"][0]
        ops = [{"op": "replace", "id": target["id"], "version": target["version"], "source": "greeting = 'bye'"}]
        edit = asyncio.ensure_future(client.call_tool("jupyter_edit", {"path": NOTEBOOK, "ops": ops}))
        toast = page.locator(".Toastify__toast").filter(has_text="claude-desktop wants to call jupyter_edit")
        await expect(toast).to_be_visible(timeout=SLOW)
        await page.locator(".jp-MCP-status").click()  # opens the MCP Tools sidebar
        section = page.locator(".jp-MCP-agents")
        detail = section.locator(".jmcp-approval-detail")
        await expect(detail).to_contain_text("+greeting = 'bye'", timeout=SLOW)
        await expect(detail).to_contain_text("-greeting = 'hi'")
        await expect(section.locator(".jp-MCP-agent")).to_contain_text("claude-desktop")
        await expect(section.locator("select").first).to_have_value("run")
        problems: list[str] = []
        for theme in ("light", "dark"):
            await lab_page.set_theme(f"JupyterLab {theme.capitalize()}")
            await expect(detail).to_be_visible(timeout=SLOW)
            problems += [f"{theme}: {p}" for p in await layout_problems(section)]
            await toasts_shown(page, False)
            keep(await lab_page.screenshot(section, artifacts / f"agents-{theme}.png"), f"agents-{theme}.png")
            await toasts_shown(page, True)
        await lab_page.set_theme("JupyterLab Light")
        assert not problems, "\n  ".join(["geometry and contrast:", *problems])
        await section.locator(".jmcp-approval").get_by_role("button", name="Deny", exact=True).click()
        denied = await asyncio.wait_for(edit, SLOW / 1000)
        assert denied.is_error
        assert "declined" in denied.content[0].text
        await expect(toast).to_have_count(0, timeout=SLOW)
        after = structured(await client.call_tool("jupyter_read", {"path": NOTEBOOK}))["cells"][0]
    assert after["source"] == "greeting = 'hi'"
    await expect(cells(page).first).to_contain_text("greeting = 'hi'")


async def undo_takes_back_the_agents_last_edit(lab: JupyterLab, page: Page) -> None:
    """The agent's last batch (the second era's insert and replace) goes; the user's own cells stay."""
    agent = page.locator(".jp-MCP-agents .jp-MCP-agent").filter(has_text="claude-desktop")
    await agent.get_by_role("button", name="Undo last edit").click()
    await expect(cells(page)).to_have_count(3, timeout=SLOW)
    await expect(cells(page).last).to_contain_text("1 * 21")
    await expect(cells(page).nth(1)).to_contain_text("print(greeting * 1")
