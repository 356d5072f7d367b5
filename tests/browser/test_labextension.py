"""The labextension in a real JupyterLab (headless Debian Chromium): the "MCP Tools" sidebar and the
status bar item show a notebook's tools and the client connected through the Jupyter route.

The screenshot lands in ``.ci/artifacts/browser/<test>/``; with ``JUPYTER_MCP_UPDATE_SCREENSHOTS=1``
it is also copied to ``docs/screenshots/labextension.png`` for the README.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from urllib.parse import quote

import mcp_types as mt
import pytest
from playwright.async_api import expect

from tests.browser.lab import JupyterLab
from tests.browser.ui import SLOW, LabPage
from tests.conftest import http_client

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
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


def keep(path: Path, name: str) -> None:
    if os.environ.get("JUPYTER_MCP_UPDATE_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOCS / name)


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
            await expect(server.locator(".jp-MCP-tool-name")).to_have_text(
                ["region_sales", "best_region", "reset_sales"]
            )
            await expect(server.locator(".jp-MCP-tool").first).to_contain_text("Sales by region")
            await expect(server.locator(".jp-MCP-tool").first).to_contain_text("1 call")
            await expect(server.locator(".jp-MCP-tool.jp-mod-disabled")).to_contain_text("disabled")
            await expect(server.locator(".jp-MCP-client")).to_have_text(["claude-desktop 0.9.2"])
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
            keep(await lab_page.screenshot(page, artifacts / "labextension.png"), "labextension.png")
    finally:
        close_notebook_session(lab, NOTEBOOK)
