"""The labextension in a real JupyterLab (headless Debian Chromium): the "MCP Tools" sidebar and the
status bar item show a notebook's tools and the client connected through the Jupyter route.

The screenshot lands in ``.ci/artifacts/browser/<test>/`` (``docs/screenshots/`` has the ones
``test_ui_in_lab.py`` takes).
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import mcp_types as mt
import pytest
from playwright.async_api import expect

from tests.browser.lab import JupyterLab
from tests.browser.ui import SLOW, LabPage
from tests.conftest import http_client

pytestmark = pytest.mark.browser

NOTEBOOK = "sales tools.ipynb"

CELLS = [
    "%load_ext jupyter_mcp\nimport jupyter_mcp\nsales = {'north': 120, 'south': 95, 'east': 143}",
    '''%%mcp_tool --read-only --title "Sales by region"
def region_sales(region: str) -> int:
    """Units sold in a region this quarter (from the notebook's `sales`)."""
    return sales[region]''',
    '''%%mcp_tool
def best_region() -> str:
    """The region that sold the most units."""
    return max(sales, key=sales.get)''',
    '''%%mcp_tool --disabled
def reset_sales() -> None:
    """Clear the quarter's figures."""
    sales.clear()''',
]
CLIENT = mt.Implementation(name="claude-desktop", version="0.9.2")


def close_notebook_session(lab: JupyterLab, path: str) -> None:
    """The shared lab outlives this test: stop its kernel so other tests see only their own servers."""
    for session in lab.api("GET", "api/sessions").json():
        if session["path"] == path:
            lab.api("DELETE", f"api/sessions/{session['id']}")


async def test_sidebar_and_status_bar_show_the_notebooks_tools(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page = lab_page.page
    lab.write_notebook(NOTEBOOK, CELLS)
    await page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        await lab_page.open_notebook(NOTEBOOK)
        await lab_page.run_all()
        route = lab.url(f"mcp/notebooks/{quote(NOTEBOOK)}", token=False)
        async with http_client(route, lab.token, mode="legacy", client_info=CLIENT) as client:
            assert (await client.call_tool("region_sales", {"region": "east"})).structured_content == {"result": 143}

            status = page.locator(".jp-MCP-status")
            await expect(status).to_have_text("MCP: 2 tools · 1 client", timeout=SLOW)  # the disabled one not counted
            await status.click()
            panel = page.locator("#jupyter-mcp-tools")
            await expect(panel).to_be_visible()
            server = panel.locator(".jp-MCP-server").filter(has_text=NOTEBOOK)
            tools = server.locator(".jp-MCP-tools .jmcp-item")
            await expect(tools.locator(".jmcp-item-name")).to_have_text(["region_sales", "best_region", "reset_sales"])
            await expect(tools.first).to_contain_text("Sales by region")
            await expect(tools.first).to_contain_text("1 call")
            await expect(server.locator(".jmcp-item.jmcp-off")).to_contain_text("disabled")
            await expect(server.locator(".jmcp-client-name")).to_have_text(["claude-desktop 0.9.2"])
            await expect(server.locator(".jp-MCP-server-facts")).to_have_text("3 tools · 1 client · 1 call")

            await server.get_by_role("button", name="VS Code", exact=True).click()
            await expect(server.get_by_role("button", name="Copied")).to_be_visible()
            copied = json.loads(await page.evaluate("navigator.clipboard.readText()"))
            entry = copied["servers"]["sales-tools"]
            assert entry["url"] == route
            assert entry["headers"] == {"Authorization": f"token {lab.token}"}

            await expect(server.get_by_role("button", name="VS Code")).to_be_visible(timeout=SLOW)

            await server.get_by_role("button", name="Claude", exact=True).click()
            await expect(server.get_by_role("button", name="Copied")).to_be_visible()
            copied = json.loads(await page.evaluate("navigator.clipboard.readText()"))
            claude = copied["mcpServers"]["sales-tools"]
            assert Path(claude["command"]).is_absolute()
            assert claude["args"] == ["connect", "--url", route]  # the token is in env, not on the command line
            assert claude["env"] == {"JUPYTER_MCP_TOKEN": lab.token}

            await expect(server.get_by_role("button", name="Claude", exact=True)).to_be_visible(timeout=SLOW)
            await lab_page.screenshot(page, artifacts / "labextension.png")
    finally:
        close_notebook_session(lab, NOTEBOOK)
