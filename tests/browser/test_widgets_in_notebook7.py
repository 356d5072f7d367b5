"""The tool card in Notebook 7 (same widget manager as JupyterLab 4, its own page shell)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import expect

from jupyter_mcp import discovery
from jupyter_mcp.shapes.views import VERSION
from tests.browser.lab import JupyterLab
from tests.browser.ui import SLOW, LabPage
from tests.conftest import http_client

pytestmark = pytest.mark.browser

CELLS = [
    "%load_ext jupyter_mcp\nimport jupyter_mcp\nstock = {'tea': 3, 'coffee': 0}",
    '%%mcp_tool --read-only\ndef in_stock(item: str) -> int:\n    """Units of an item in stock."""\n    return stock[item]',
]


async def test_tool_card_in_notebook_7(lab: JupyterLab, lab_page: LabPage, artifacts: Path) -> None:
    lab.write_notebook("notebook7.ipynb", CELLS)
    page = lab_page.page
    await page.goto(lab.url("notebooks/notebook7.ipynb"))
    await expect(page.locator("#main-panel .jp-NotebookPanel")).to_be_visible(timeout=SLOW)
    await lab_page.kernel_connected("notebook7.ipynb")
    await lab_page.run_all(status_bar=False)
    card = page.locator(".jmcp-card").filter(has_text="in_stock")
    await expect(card).to_be_visible(timeout=SLOW)
    await expect(card.locator(".jmcp-head").first).to_contain_text("live")
    await expect(card.locator("table.jmcp-params tbody tr")).to_have_count(1)
    # Notebook 7 loads the JupyterLab extension too: its front end draws the card.
    assert await lab_page.widgets_front_end() == {"offered": VERSION, "imported": 0, "stylesheets": 0}

    (server,) = [s for s in discovery.read_all(lab.runtime_dir) if s.notebook_path.endswith("notebook7.ipynb")]
    async with http_client(server.url, server.token, mode="auto") as client:
        assert (await client.call_tool("in_stock", {"item": "tea"})).structured_content == {"result": 3}
    await expect(card).to_contain_text("item='tea'", timeout=SLOW)

    await card.locator("summary").filter(has_text="Try it").click()
    await card.locator(".jmcp-field").filter(has_text="item").locator("input").fill("coffee")
    await card.get_by_role("button", name="Run").click()
    await expect(card.locator(".jmcp-tryit")).to_contain_text("ok", timeout=SLOW)
    await lab_page.screenshot(card, artifacts / "notebook7-tool-card.png")
