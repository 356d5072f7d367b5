"""JupyterLab as an MCP Apps host (the official AppBridge in ``labextension/src/apphost``): the sidebar's "App"
button calls a notebook's tool and shows its app in the "MCP Apps" tab, in light and dark (geometry and WCAG
AA), the app's re-run is a real call the notebook counts, and an MCP server address typed in lists its apps."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.async_api import FrameLocator, expect

from tests.browser.lab import JupyterLab
from tests.browser.layout import layout_problems
from tests.browser.ui import SLOW, LabPage, keep

pytestmark = pytest.mark.browser

NOTEBOOK = "cities.ipynb"
OTHER = "other.ipynb"
CELLS = [
    "%load_ext jupyter_mcp\nimport jupyter_mcp",
    '''%%mcp_tool --read-only
def find_cities(query: str, limit: int = 3) -> list[dict]:
    """Cities whose name contains the query."""
    cities = [{"city": "Oslo", "population": 709000}, {"city": "Bergen", "population": 291000},
              {"city": "Stockholm", "population": 984000}]
    return [c for c in cities if query.lower() in c["city"].lower()][:limit]''',
    '''%%mcp_tool --no-app
def plain(text: str) -> str:
    """No app for this one."""
    return text''',
]
OTHER_CELLS = [
    "%load_ext jupyter_mcp",
    '%%mcp_tool\ndef shout(text: str) -> str:\n    """Upper case."""\n    return text.upper()',
]


def app_frame(lab_page: LabPage) -> FrameLocator:
    return lab_page.page.frame_locator("#jupyter-mcp-apps iframe.jp-MCP-app-frame")


def calls_of(lab: JupyterLab, notebook: str, tool: str) -> int:
    servers = lab.api("GET", "api/mcp/servers").json()
    (server,) = [s for s in servers if s["notebook_path"] == notebook]
    return int(next(t["calls"] for t in server["tools"] if t["name"] == tool))


async def test_the_sidebar_opens_a_tools_app_and_an_address_lists_its_apps(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page = lab_page.page
    lab.write_notebook(NOTEBOOK, CELLS)
    lab.write_notebook(OTHER, OTHER_CELLS)
    try:
        await lab_page.open_notebook(OTHER)  # its kernel keeps serving while the other notebook is open
        await lab_page.run_all()
        await lab_page.open_notebook(NOTEBOOK)
        await lab_page.run_all()
        await page.locator(".jp-MCP-status").click()
        server = page.locator("#jupyter-mcp-tools .jp-MCP-server").filter(has_text=NOTEBOOK)
        await server.locator("[data-app=find_cities]").click(timeout=SLOW)
        apps = page.locator("#jupyter-mcp-apps")
        await expect(apps.locator(".jp-MCP-apps-call h4")).to_have_text("find_cities", timeout=SLOW)
        assert await apps.locator("[data-tool]").evaluate_all("nodes => nodes.map(n => n.dataset.tool)") == [
            "find_cities"  # plain has no app (--no-app), the app-only tools are not offered
        ]
        await apps.locator(".jp-MCP-apps-call [data-field=query]").fill("o")
        await apps.get_by_role("button", name="Call", exact=True).click()
        frame = app_frame(lab_page)
        await expect(frame.locator(".jmcp-records tbody tr")).to_have_count(2, timeout=SLOW)
        assert calls_of(lab, NOTEBOOK, "find_cities") == 1

        for theme, name in (("JupyterLab Dark", "dark"), ("JupyterLab Light", "light")):
            await lab_page.set_theme(theme)
            await expect(frame.locator("html")).to_have_attribute("data-theme", name, timeout=SLOW)
            app = frame.locator(".jmcp-app")
            await app.evaluate("el => el.querySelectorAll('details').forEach(d => { d.open = true })")
            await page.wait_for_timeout(300)
            problems = await layout_problems(app) + await layout_problems(apps.locator(".jp-MCP-apps"))
            shot = await lab_page.screenshot(apps, artifacts / f"lab-{name}.png")
            keep(shot, f"app-in-jupyterlab-{name}.png")
            assert not problems, f"{theme}:\n  " + "\n  ".join(problems)

        await frame.locator("[data-field=limit]").fill("1")
        await frame.get_by_role("button", name="Run again").click()
        await expect(frame.locator(".jmcp-records tbody tr")).to_have_count(1, timeout=SLOW)
        assert calls_of(lab, NOTEBOOK, "find_cities") == 2

        address = lab.url(f"mcp/notebooks/{quote(OTHER)}", token=False)
        await apps.locator(".jp-MCP-apps-url").fill(address)
        await page.locator("#jupyter-mcp-apps").get_by_role("button", name="Add").click()
        await expect(apps.locator("[data-tool]")).to_have_text(["shout"], timeout=SLOW)
    finally:
        lab.close_sessions(NOTEBOOK)
        lab.close_sessions(OTHER)
