"""The widget panels in a real JupyterLab, in headless Chromium, with an outside MCP client calling:
what the cards and the panel do (try it, select a call, enable and disable), and that a card with a
try-it result is laid out and readable.

Screenshots land in ``.ci/artifacts/browser/<test>/``; the ones in ``docs/screenshots/`` come from
``test_ui_in_lab.py``.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import mcp_types as mt
import pytest
from playwright.async_api import Locator, expect

from jupyter_mcp import discovery
from jupyter_mcp.shapes.views import VERSION
from tests.browser.lab import JupyterLab
from tests.browser.layout import assert_clean
from tests.browser.ui import SLOW, LabPage
from tests.conftest import http_client

pytestmark = pytest.mark.browser


SETUP = """\
%load_ext jupyter_mcp
import asyncio
from typing import Annotated, Literal

import pandas as pd
from pydantic import Field

import jupyter_mcp
server = jupyter_mcp.get_server()
cities = pd.DataFrame({
    "city": ["Oslo", "Bergen", "Trondheim", "Stockholm", "Gothenburg", "Malmö"],
    "country": ["Norway", "Norway", "Norway", "Sweden", "Sweden", "Sweden"],
    "population": [709_000, 291_000, 212_000, 984_000, 604_000, 357_000],
})"""

FIND_CITIES = '''\
%%mcp_tool --read-only --idempotent --tags geo --timeout 30
def find_cities(
    country: str,
    min_population: Annotated[int, Field(ge=0)] = 100_000,
    sort: Literal["city", "population"] = "population",
    limit: int = 5,
) -> list[dict]:
    """Find cities of a country in the notebook's `cities` table.

    Args:
        country: Country name, e.g. "Norway".
        min_population: Leave out smaller cities.
        sort: Order of the result.
        limit: At most this many cities.
    """
    found = cities[(cities.country == country) & (cities.population >= min_population)]
    if found.empty:
        raise jupyter_mcp.ToolError(f"no cities known for {country!r}")
    found = found.sort_values(sort, ascending=sort == "city")
    return found.head(limit).to_dict("records")'''

TRAIN = '''\
%%mcp_tool --timeout 120
async def train_model(ctx: jupyter_mcp.Context, epochs: int = 3, learning_rate: float = 0.01) -> dict[str, float]:
    """Pretend to train, reporting progress every epoch."""
    loss = 1.0
    for epoch in range(1, epochs + 1):
        await asyncio.sleep(1.0)
        loss *= 1 - learning_rate * 10
        await ctx.report_progress(epoch, epochs, f"epoch {epoch}, loss {loss:.3f}")
    return {"loss": round(loss, 4), "epochs": epochs}'''

CLIENT = mt.Implementation(name="claude-desktop", version="0.9.2")
NOTEBOOK = "widgets.ipynb"


def kernel_endpoint(lab: JupyterLab, notebook: str) -> tuple[str, str]:
    """The MCP URL and token of the notebook's kernel (from its discovery file)."""
    (server,) = [
        s for s in discovery.read_all(lab.runtime_dir) if s.notebook_path and s.notebook_path.endswith(notebook)
    ]
    return server.url, server.token


def history_row(panel: Locator, *texts: str) -> Locator:
    rows = panel.locator(".jmcp-history .jmcp-call.jmcp-pickable")
    for text in texts:
        rows = rows.filter(has_text=text)
    return rows


async def test_tool_card_and_history_panel_in_jupyterlab(lab: JupyterLab, lab_page: LabPage, artifacts: Path) -> None:
    lab.write_notebook(NOTEBOOK, [SETUP, FIND_CITIES, TRAIN, "%mcp"])
    try:
        await lab_page.open_notebook(NOTEBOOK)
        await lab_page.run_all()
        await check_card_history_try_it_toggle(lab, lab_page, artifacts)
    finally:
        lab.close_sessions(NOTEBOOK)


async def check_card_history_try_it_toggle(lab: JupyterLab, lab_page: LabPage, artifacts: Path) -> None:
    page = lab_page.page

    # The tool card: name, state, badges, one row per parameter.
    card = page.locator(".jmcp-card").filter(has_text="find_cities")
    await expect(card).to_be_visible(timeout=SLOW)
    # Drawn by the JupyterLab extension's front end: the page imported none of the kernel's bundle.
    assert await lab_page.widgets_front_end() == {"offered": VERSION, "imported": 0, "stylesheets": 0}
    header = card.locator(".jmcp-head").first
    for text in ("find_cities", "live", "read-only", "idempotent", "#geo", "timeout 30 s"):
        await expect(header).to_contain_text(text)
    rows = card.locator("table.jmcp-params tbody tr")
    await expect(rows).to_have_count(4)
    await expect(rows.nth(0)).to_contain_text("country")
    await expect(rows.nth(0)).to_contain_text("required")
    await expect(rows.nth(1)).to_contain_text("≥ 0")
    await expect(rows.nth(2)).to_contain_text("Literal['city', 'population']")

    # An outside client calls; the panel's history shows each call with its status.
    url, token = kernel_endpoint(lab, NOTEBOOK)
    panel = page.locator(".jmcp-panel")
    async with http_client(url, token, mode="legacy", client_info=CLIENT) as client, anyio.create_task_group() as tasks:
        assert not (await client.call_tool("find_cities", {"country": "Norway"})).is_error
        assert (await client.call_tool("find_cities", {"country": "Atlantis"})).is_error
        tasks.start_soon(client.call_tool, "train_model", {"epochs": 8, "learning_rate": 0.05})
        await expect(history_row(panel, "find_cities", "✓ ok", "claude-desktop 0.9.2")).to_have_count(1, timeout=SLOW)
        await expect(history_row(panel, "find_cities", "✗ error", "no cities known for 'Atlantis'")).to_have_count(1)
        running = history_row(panel, "train_model", "running")
        await expect(running.locator(".jmcp-progress")).to_be_visible(timeout=SLOW)
        await expect(running).to_contain_text("epoch")
        await history_row(panel, "find_cities", "✓ ok").click()
        detail = panel.locator(".jmcp-detail")
        await expect(detail).to_contain_text("Structured result")
        await expect(detail.locator("table.jmcp-records tbody tr").first).to_contain_text("Oslo")
        await expect(detail).to_contain_text("protocol 2025-11-25")
        await assert_clean(panel, "the server panel with a call's detail")
        await lab_page.screenshot(panel, artifacts / "server-panel.png")
    await expect(history_row(panel, "train_model", "✓ ok")).to_have_count(1, timeout=SLOW)

    # Try it: the form runs the tool through the server; the result shows under the form.
    await card.locator("summary").filter(has_text="Try it").click()
    country = card.locator(".jmcp-field").filter(has_text="country").locator("input")
    await country.fill("Sweden")
    await card.locator(".jmcp-field").filter(has_text="sort").locator("select").select_option("city")
    await card.get_by_role("button", name="Run").click()
    result = card.locator(".jmcp-tryit")
    await expect(result).to_contain_text("✓ ok", timeout=SLOW)
    await expect(result.locator("table.jmcp-records")).to_contain_text("Gothenburg")
    await expect(history_row(panel, "find_cities", "notebook", "country='Sweden'")).to_have_count(1, timeout=SLOW)
    await assert_clean(card, "a tool card with a try-it result")
    await lab_page.screenshot(card, artifacts / "tool-card.png")

    # The card's checkbox disables the tool for clients, and enables it again.
    async with http_client(url, token, mode="auto", client_info=CLIENT) as client:
        await card.get_by_role("checkbox", name="enabled").uncheck()
        await expect(header).to_contain_text("disabled")
        assert [t.name for t in (await client.list_tools(cache_mode="refresh")).tools] == ["train_model"]
        await card.get_by_role("checkbox", name="enabled").check()
        await expect(header).to_contain_text("live")
        assert {t.name for t in (await client.list_tools(cache_mode="refresh")).tools} == {"find_cities", "train_model"}

    # Dark theme: the same card and panel, laid out and readable.
    await lab_page.set_theme("JupyterLab Dark")
    try:
        await assert_clean(card, "a tool card with a try-it result, dark")
        await assert_clean(panel, "the server panel, dark")
        await lab_page.screenshot(card, artifacts / "tool-card-dark.png")
    finally:
        await lab_page.set_theme("JupyterLab Light")


PAGE_NOTEBOOK = "page.ipynb"
PAGE_SEEN = '''\
%%mcp_tool
def page_seen() -> dict:
    """What the server panel's page probe heard from the browser."""
    probe = panel.connection.probe
    return {"origin": probe.origin, "server_root": probe.server_root, "base_url": probe.base_url}'''


async def test_the_server_panel_learns_where_the_browser_shows_it(lab: JupyterLab, lab_page: LabPage) -> None:
    """The panel reports the page's origin, JupyterLab's server root and base URL (used for configs under
    JupyterHub, and for the routes to a kernel that opens no port)."""
    setup = "%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()"
    lab.write_notebook(PAGE_NOTEBOOK, [setup, PAGE_SEEN, "panel = server.panel()\npanel"])
    try:
        await lab_page.open_notebook(PAGE_NOTEBOOK)
        await lab_page.run_all()
        await expect(lab_page.page.locator(".jmcp-panel")).to_be_visible(timeout=SLOW)
        url, token = kernel_endpoint(lab, PAGE_NOTEBOOK)
        expected = {"origin": f"http://127.0.0.1:{lab.port}", "server_root": str(lab.root), "base_url": lab.base_url}
        async with http_client(url, token, mode="legacy") as client:
            with anyio.fail_after(30):
                while (seen := (await client.call_tool("page_seen", {})).structured_content) != expected:
                    assert seen is not None
                    assert seen["origin"] in ("", expected["origin"]), seen
                    await anyio.sleep(0.2)
    finally:
        lab.close_sessions(PAGE_NOTEBOOK)
