"""The notebook widgets on a page without jupyter-mcp's JupyterLab extension, as in VS Code, Colab or a
JupyterLab where it is not installed: JupyterLab with the extension disabled, so the page has anywidget's
front end only. The cards and the panel draw with the bundle the kernel sent once (issue 34), work, and
are laid out and readable."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from playwright.async_api import async_playwright, expect

from tests.browser.conftest import BASE_URL
from tests.browser.lab import JupyterLab
from tests.browser.layout import assert_clean
from tests.browser.ui import CHROMIUM, CHROMIUM_ARGS, SLOW, LabPage

pytestmark = pytest.mark.browser

NOTEBOOK = "no extension.ipynb"
CELLS = [
    "%load_ext jupyter_mcp\nstock = {'tea': 3, 'coffee': 0}",
    '%%mcp_tool --read-only\ndef in_stock(item: str) -> int:\n    """Units of an item in stock."""\n    return stock[item]',
    '%%mcp_tool\ndef restock(item: str, units: int = 10) -> int:\n    """Add units of an item."""\n'
    "    stock[item] = stock.get(item, 0) + units\n    return stock[item]",
    "%mcp",
]


@pytest.fixture(scope="module")
def bare_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterLab]:
    """A JupyterLab whose jupyter-mcp front-end extension is disabled (its server extension still runs)."""
    with JupyterLab.started(tmp_path_factory.mktemp("bare-lab"), base_url=BASE_URL, disabled=["jupyter-mcp"]) as lab:
        yield lab


@pytest.fixture
async def bare_page(bare_lab: JupyterLab, artifacts: Path) -> AsyncIterator[LabPage]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: run ./dev.sh test, or apt-get install -y chromium chromium-driver")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = await (await browser.new_context(viewport={"width": 1280, "height": 1000})).new_page()
        try:
            yield LabPage(page, bare_lab)
        finally:
            await page.screenshot(path=artifacts / "last.png", full_page=True)
            await browser.close()


async def test_cards_and_panel_draw_with_the_kernels_front_end(
    bare_lab: JupyterLab, bare_page: LabPage, artifacts: Path
) -> None:
    bare_lab.write_notebook(NOTEBOOK, CELLS)
    page = bare_page.page
    try:
        await bare_page.open_notebook(NOTEBOOK)
        await bare_page.run_all()
        cards = page.locator(".jmcp-card")
        await expect(cards).to_have_count(2, timeout=SLOW)
        await expect(page.locator(".jmcp-panel")).to_be_visible(timeout=SLOW)
        assert await page.locator("#jupyter-mcp-tools").count() == 0  # the extension really is off
        # No front end offered: the page imported the kernel's bundle once, for both cards and the panel.
        assert await bare_page.widgets_front_end() == {"offered": None, "imported": 1, "stylesheets": 1}

        card = cards.filter(has_text="restock")
        await expect(card.locator(".jmcp-head").first).to_contain_text("live")
        await card.locator("summary").filter(has_text="Try it").click()
        await card.locator(".jmcp-field").filter(has_text="item").locator("input").fill("coffee")
        await card.get_by_role("button", name="Run").click()
        await expect(card.locator(".jmcp-tryit")).to_contain_text("✓ ok", timeout=SLOW)
        await expect(card.locator(".jmcp-tryit")).to_contain_text("10")
        await expect(page.locator(".jmcp-panel .jmcp-history")).to_contain_text("restock", timeout=SLOW)
        await assert_clean(card, "a tool card drawn by the kernel's front end")
        await assert_clean(page.locator(".jmcp-panel"), "the server panel drawn by the kernel's front end")
        await bare_page.screenshot(card, artifacts / "tool-card-without-extension.png")
    finally:
        bare_lab.close_sessions(NOTEBOOK)
