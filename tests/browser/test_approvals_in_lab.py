"""Approvals in a real JupyterLab: an outside client calls a ``--confirm`` tool; the notification and the
sidebar entry appear; a click on Allow in the notification returns the result to the client.

The screenshot lands in ``.ci/artifacts/browser/<test>/`` (``docs/screenshots/approval.png`` comes from
``test_ui_in_lab.py``).
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
from tests.browser.test_labextension import close_notebook_session
from tests.browser.ui import SLOW, LabPage
from tests.conftest import http_client

pytestmark = pytest.mark.browser

NOTEBOOK = "approvals.ipynb"
CELLS = [
    "%load_ext jupyter_mcp\nimport jupyter_mcp\nsales = {'north': 120, 'south': 95}",
    '''%%mcp_tool --confirm --destructive
def reset_sales(region: str) -> str:
    """Clear a region's figures for the quarter."""
    sales[region] = 0
    return f"{region} reset"''',
]
CLIENT = mt.Implementation(name="claude-desktop", version="0.9.2")
WANTS = "claude-desktop wants to call reset_sales(region='north')"


async def settled(page: Page, toast: Locator) -> None:
    """Wait until the toast has slid fully into the window (for the screenshot)."""
    width = (page.viewport_size or {"width": 1280})["width"]
    for _ in range(100):
        box = await toast.bounding_box()
        if box is not None and box["x"] + box["width"] <= width:
            return
        await asyncio.sleep(0.05)


async def test_notification_and_sidebar_show_a_waiting_call_and_allow_answers_it(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page = lab_page.page
    lab.write_notebook(NOTEBOOK, CELLS)
    try:
        await lab_page.open_notebook(NOTEBOOK)
        await lab_page.run_all()
        route = lab.url(f"mcp/notebooks/{quote(NOTEBOOK)}", token=False)
        async with http_client(route, lab.token, mode="legacy", client_info=CLIENT) as client:
            call = asyncio.ensure_future(client.call_tool("reset_sales", {"region": "north"}))
            toast = page.locator(".Toastify__toast").filter(has_text=WANTS)
            await expect(toast).to_be_visible(timeout=SLOW)
            answers = toast.get_by_role("button").filter(has_text=re.compile(r"\w"))  # not the close button
            await expect(answers).to_have_text(["Allow", "Allow for 10 min", "Deny"])

            await page.locator(".jp-MCP-status").click()
            server = page.locator("#jupyter-mcp-tools .jp-MCP-server").filter(has_text=NOTEBOOK)
            pending = server.locator(".jmcp-approval")
            await expect(pending.locator(".jmcp-approval-text")).to_have_text([WANTS], timeout=SLOW)
            await expect(page.locator(".jp-MCP-status")).to_contain_text("1 waiting for approval")
            card_row = page.locator(".jmcp-card .jmcp-approval").first  # the tool card under the cell says so, too
            await expect(card_row).to_contain_text("wants to call reset_sales", timeout=SLOW)
            assert not call.done()
            await settled(page, toast)
            await lab_page.screenshot(page, artifacts / "approval.png")

            await toast.get_by_role("button", name="Allow", exact=True).click()
            result = await asyncio.wait_for(call, SLOW / 1000)
        block = result.content[0]
        assert isinstance(block, mt.TextContent)
        assert (result.is_error, block.text) == (False, "north reset")
        await expect(toast).to_have_count(0, timeout=SLOW)
        await expect(pending).to_have_count(0, timeout=SLOW)
    finally:
        close_notebook_session(lab, NOTEBOOK)
