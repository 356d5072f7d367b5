"""The sidebar's "All notebooks" in a real JupyterLab (headless Debian Chromium): first in the panel, each
notebook's prefix and why one is longer, and the one config that reaches every notebook — copied,
then used by a real MCP client. Its text keeps WCAG AA contrast in the light and dark themes.

With ``JUPYTER_MCP_UPDATE_SCREENSHOTS=1`` the screenshot goes to ``docs/screenshots/all-notebooks.png``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from playwright.async_api import Locator, expect

from tests.browser.lab import JupyterLab
from tests.browser.layout import assert_clean
from tests.browser.test_labextension import close_notebook_session
from tests.browser.ui import SLOW, LabPage, keep
from tests.conftest import NOTEBOOK_TOOLS, header_client

pytestmark = pytest.mark.browser

OPENED = "sales.ipynb"
STARTED = ("archive/sales.ipynb", "ops review.ipynb")
TOOL = '''%%mcp_tool --read-only
def whoami() -> str:
    """Say which notebook answers."""
    return NOTEBOOK'''
PREFIXES = ["archive_sales_…", "ops_review_…", "sales_…"]  # by path


async def check_look(section: Locator, panel: Locator, where: str) -> None:
    """Above every notebook's own section, inside the sidebar; the shared geometry and contrast checks."""
    box, outer = await section.bounding_box(), await panel.bounding_box()
    assert box is not None
    assert outer is not None
    assert outer["x"] <= box["x"]
    assert box["x"] + box["width"] <= outer["x"] + outer["width"]
    assert await section.evaluate("node => node.scrollWidth <= node.clientWidth")
    first_notebook = await panel.locator(".jp-MCP-server").first.bounding_box()
    assert first_notebook is not None
    assert box["y"] + box["height"] <= first_notebook["y"]
    buttons = section.locator(".jp-MCP-copy-button")
    for index in range(await buttons.count()):
        inner = await buttons.nth(index).bounding_box()
        assert inner is not None
        assert box["x"] <= inner["x"]
        assert inner["x"] + inner["width"] <= box["x"] + box["width"]
    await assert_clean(section, where)


async def test_all_notebooks_is_first_and_its_config_reaches_every_notebook(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page = lab_page.page
    lab.write_notebook(OPENED, ["%load_ext jupyter_mcp\nNOTEBOOK = 'sales.ipynb'", TOOL])
    await page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    kernels = [await asyncio.to_thread(lab.serving, path, [TOOL]) for path in STARTED]
    try:
        await lab_page.open_notebook(OPENED)
        await lab_page.run_all()
        await page.locator(".jp-MCP-status").click()
        panel = page.locator("#jupyter-mcp-tools")
        section = panel.locator(".jp-MCP-union")
        await expect(section.locator(".jp-MCP-union-prefix")).to_have_text(PREFIXES, timeout=SLOW)
        await expect(section.locator(".jp-MCP-union-title")).to_have_text("All notebooks")
        await expect(section.locator(".jp-MCP-union-facts")).to_have_text(
            "3 notebooks · 3 tools at /lab-under-test/mcp"
        )
        await expect(section.locator(".jp-MCP-union-collision")).to_have_text(
            ["Longer than its own: 'sales' is also wanted by sales.ipynb"]
        )

        await section.get_by_role("button", name="VS Code", exact=True).click()
        await expect(section.get_by_role("button", name="Copied")).to_be_visible()
        copied = json.loads(await page.evaluate("navigator.clipboard.readText()"))
        entry = copied["servers"]["jupyter-notebooks"]
        assert entry["url"] == lab.url("mcp", token=False)
        async with header_client(entry["url"], entry["headers"], mode="auto") as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert tools == {"sales_whoami", "archive_sales_whoami", "ops_review_whoami", *NOTEBOOK_TOOLS}
            for path, name in (("archive/sales.ipynb", "archive_sales_whoami"), (OPENED, "sales_whoami")):
                assert (await client.call_tool(name, {})).structured_content == {"result": path}

        for theme in ("JupyterLab Light", "JupyterLab Dark"):
            await lab_page.set_theme(theme)
            await expect(section.locator(".jp-MCP-union-prefix")).to_have_count(3, timeout=SLOW)
            await check_look(section, panel, f"All notebooks, {theme}")
            shot = await lab_page.screenshot(section, artifacts / f"all-notebooks-{theme.split()[-1].lower()}.png")
        keep(shot, "all-notebooks-dark.png")
        await lab_page.set_theme("JupyterLab Light")
        keep(await lab_page.screenshot(section, artifacts / "all-notebooks.png"), "all-notebooks.png")
    finally:
        for kernel in kernels:
            kernel.client.stop_channels()
        for path in (OPENED, *STARTED):
            close_notebook_session(lab, path)
