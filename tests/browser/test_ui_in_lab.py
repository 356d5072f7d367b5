"""Every view in a real JupyterLab, as issue 23's tour found them: a notebook serving tools, resources and
prompts, an outside client calling (a task in progress, a cancelled task, a call waiting for approval,
a denied one, a tool's question), the cards, the server panel, the MCP Tools sidebar, the status bar
and the notifications; each checked for geometry and contrast (``layout_checks.js``) in JupyterLab
Light and Dark, at the sidebar's default width and at a wide notebook's.

With ``JUPYTER_MCP_UPDATE_SCREENSHOTS=1`` the screenshots are copied to ``docs/screenshots/``.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import mcp_types as mt
import pytest
from playwright.async_api import Locator, Page, expect

from tests.browser.lab import JupyterLab
from tests.browser.layout import layout_problems
from tests.browser.ui import SLOW, LabPage, keep
from tests.conftest import http_client
from tests.tasks_client import CreatedTask, TasksClient, cancel_task, start

pytestmark = pytest.mark.browser

NOTEBOOK = "ui tour.ipynb"
OTHER = "another notebook.ipynb"
CLIENT = mt.Implementation(name="claude-desktop", version="0.9.2")
WIDE_SIDEBAR = 700
"""The sidebar dragged wide, as someone reading a long call would."""

CELLS = [
    """%load_ext jupyter_mcp
import asyncio, io
from typing import Literal
import pandas as pd
from PIL import Image
import jupyter_mcp
from jupyter_mcp import Context
server = jupyter_mcp.get_server()
cities = pd.DataFrame({"city": ["Oslo", "Bergen", "Stockholm"], "country": ["Norway", "Norway", "Sweden"],
                       "population": [709_000, 291_000, 984_000]})""",
    '''%%mcp_tool --read-only --idempotent --tags geo --timeout 30
def find_cities(country: str, limit: int = 5, sort: Literal["city", "population"] = "population") -> list[dict]:
    """Find cities of a country in the notebook's `cities` table.

    Args:
        country: Country name, e.g. "Norway".
        limit: At most this many cities.
        sort: Order of the result.
    """
    found = cities[cities.country == country]
    if found.empty:
        raise jupyter_mcp.ToolError(f"no cities known for {country!r}")
    return found.sort_values(sort).head(limit).to_dict("records")''',
    '''%%mcp_tool --task --timeout 300
async def train_model(ctx: Context, epochs: int = 3) -> dict[str, float]:
    """Pretend to train, reporting progress every epoch."""
    for epoch in range(1, epochs + 1):
        await asyncio.sleep(1.0)
        await ctx.report_progress(epoch, epochs, f"epoch {epoch}, loss {1 / epoch:.3f}")
    return {"loss": 1 / epochs}''',
    '''%%mcp_tool --confirm --destructive
def reset_sales(region: str) -> str:
    """Clear a region's figures for the quarter."""
    return f"{region} reset"''',
    '''%%mcp_tool
async def export_table(ctx: Context) -> str:
    """Export a table the notebook user picks."""
    schema = {"type": "object", "required": ["table"], "properties": {
        "table": {"type": "string", "enum": ["sales", "stock"]},
        "rows": {"type": "integer", "description": "How many rows (all when empty)"}}}
    answer = await ctx.ask_notebook_user("Which table should be exported?", schema)
    return answer.action''',
    """%%mcp_resource data://cities --mime-type application/json --description "The notebook's city table" --tags geo
def all_cities() -> list[dict]:
    return cities.to_dict("records")""",
    """%%mcp_resource chart://population --mime-type image/png --description "Population by city"
def population_chart() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (240, 120), "steelblue").save(buffer, format="PNG")
    return buffer.getvalue()""",
    '''%%mcp_resource data://cities/{country}
def cities_in(country: str) -> list[dict]:
    """The cities of one country."""
    return cities[cities.country == country].to_dict("records")''',
    '''%%mcp_prompt --title "Review a table" --tags geo
def review_table(table: str, focus: Literal["quality", "bias", "gaps"] = "quality") -> list:
    """Ask for a review of one of the notebook's tables."""
    return [jupyter_mcp.Message(f"Please review the table {table} for {focus}."),
            jupyter_mcp.Message(f"I will read data://{table} first.", role="assistant")]''',
    "%mcp",
]
DOCS = {
    ("card-find", "light"): "tool-card.png",
    ("card-find", "dark"): "tool-card-dark.png",
    ("card-train", "light"): "task-card.png",
    ("card-reset", "light"): "approval-card.png",
    ("panel", "light"): "server-panel.png",
    ("panel", "dark"): "server-panel-dark.png",
    ("history", "light"): "history-panel.png",
    ("card-cities", "light"): "resource-card.png",
    ("card-chart", "light"): "chart-card.png",
    ("card-review", "light"): "prompt-card.png",
    ("sidebar", "light"): "sidebar.png",
    ("sidebar", "dark"): "sidebar-dark.png",
}
PAGES = {"light": "approval.png", "dark": "labextension.png"}
"""The whole window: a call waiting for approval in the notification, the sidebar and its tool's card."""


def card(page: Page, name: str) -> Locator:
    return page.locator(".jmcp-card").filter(
        has=page.locator(".jmcp-card-names code.jmcp-name", has_text=re.compile(f"^{name}$"))
    )


def views(page: Page) -> dict[str, Locator]:
    """Every view on screen now, by name."""
    return {
        "card-find": card(page, "find_cities"),
        "card-train": card(page, "train_model"),
        "card-reset": card(page, "reset_sales"),
        "card-export": card(page, "export_table"),
        "card-cities": card(page, "all_cities"),
        "card-chart": card(page, "population_chart"),
        "card-template": card(page, "cities_in"),
        "card-review": card(page, "review_table"),
        "panel": page.locator(".jmcp-panel"),
        "sidebar": page.locator("#jupyter-mcp-tools .jp-MCP-server").filter(has_text=NOTEBOOK),
        "status bar": page.locator(".jp-MCP-statusbar"),
        "notifications": page.locator(".Toastify__toast-container"),
    }


async def sidebar_width(page: Page) -> float:
    box = await page.locator("#jupyter-mcp-tools").bounding_box()
    assert box is not None
    return box["width"]


async def notebook_width(page: Page, narrow: float | None) -> None:
    """Every notebook view as narrow as ``narrow`` (the sidebar's content), or the notebook's full width."""
    await page.evaluate(
        """narrow => {
          let style = document.getElementById('jmcp-test-width');
          if (!style) { style = document.createElement('style'); style.id = 'jmcp-test-width'; document.head.append(style); }
          style.textContent = narrow ? `.jp-OutputArea-output:has(.jmcp) { max-width: ${narrow}px; }` : '';
        }""",
        narrow,
    )
    await page.wait_for_timeout(200)


async def sidebar_to(page: Page, wanted: float) -> None:
    """Drag the left sidebar's edge until it is ``wanted`` pixels wide."""
    for _ in range(3):  # a drag lumino missed (the page was busy redrawing) is tried again
        handle = page.locator("#jp-main-split-panel > .lm-SplitPanel-handle:visible").first
        box = await handle.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + 200
        await page.mouse.move(x, y)
        await page.mouse.down()
        await page.mouse.move(x + wanted - await sidebar_width(page), y, steps=10)
        await page.mouse.up()
        await page.evaluate("window.getSelection().removeAllRanges()")  # a drag lumino missed selects text
        await page.wait_for_timeout(300)
        if abs(await sidebar_width(page) - wanted) < 8:
            return
    raise AssertionError(f"the sidebar is {await sidebar_width(page)} px wide, not {wanted}")


async def check(lab_page: LabPage, names: list[str], where: str, artifacts: Path | None = None) -> list[str]:
    """Geometry and contrast problems of the views ``names`` (screenshots of them into ``artifacts``)."""
    problems: list[str] = []
    theme = "dark" if "dark" in where else "light"
    for name in names:
        view = views(lab_page.page)[name]
        await expect(view).to_be_visible(timeout=SLOW)
        await view.evaluate("el => el.querySelectorAll('details.jmcp-section').forEach(d => { d.open = true })")
        await view.scroll_into_view_if_needed()
        problems += [f"{name} ({where}): {p}" for p in await layout_problems(view)]
        if name == "notifications":
            problems += [f"{name} ({where}): {p}" for p in await hovered_problems(lab_page.page, view)]
        if artifacts is not None and (name, theme) in DOCS:
            await toasts_shown(lab_page.page, False)  # they would sit over the view in its picture
            keep(await lab_page.screenshot(view, artifacts / f"{name}-{theme}.png"), DOCS[name, theme])
            await toasts_shown(lab_page.page, True)
    if artifacts is not None and ("history", theme) in DOCS:
        history = (
            views(lab_page.page)["panel"]
            .locator("details.jmcp-section")
            .filter(has=lab_page.page.locator(".jmcp-history"))
        )
        await toasts_shown(lab_page.page, False)
        keep(await lab_page.screenshot(history, artifacts / f"history-{theme}.png"), DOCS["history", theme])
        await toasts_shown(lab_page.page, True)
    return problems


async def hovered_problems(page: Page, toasts: Locator) -> list[str]:
    """Each notification button's contrast under the mouse (issue 34: JupyterLab Dark labels a toast's
    accent and warn buttons black, 3.9:1 and 3.7:1; ours get white)."""
    problems: list[str] = []
    buttons = toasts.locator(".jp-toast-button")
    for i in range(await buttons.count()):
        button = buttons.nth(i)
        if (await button.inner_text()).strip():
            await button.hover()
            problems += [f"hovered: {p}" for p in await layout_problems(button)]
    await page.mouse.move(0, 0)
    return problems


async def toasts_shown(page: Page, shown: bool) -> None:
    await page.evaluate(
        """shown => {
          let style = document.getElementById('jmcp-test-toasts');
          if (!style) { style = document.createElement('style'); style.id = 'jmcp-test-toasts'; document.head.append(style); }
          style.textContent = shown ? '' : '.Toastify { visibility: hidden; }';
        }""",
        shown,
    )


NOTEBOOK_VIEWS = [
    "card-find",
    "card-train",
    "card-reset",
    "card-export",
    "card-cities",
    "card-chart",
    "card-template",
    "card-review",
    "panel",
]
LAB_VIEWS = ["sidebar", "status bar", "notifications"]


async def waiting_for_the_user(lab: JupyterLab, legacy: Any) -> list[asyncio.Future[Any]]:
    """A call waiting for approval, a denied one (answered through the REST API), a question."""
    north = asyncio.ensure_future(legacy.call_tool("reset_sales", {"region": "north"}))
    await until(lambda: len(pending(lab)) == 1)
    south = asyncio.ensure_future(legacy.call_tool("reset_sales", {"region": "south"}))
    await until(lambda: len(pending(lab)) == 2)
    kernel, denied = pending(lab)[1]
    answered = lab.api(
        "POST",
        f"api/mcp/kernels/{kernel}/approvals/{quote(denied)}",
        json={"decision": "deny", "reason": "quarter not closed"},
    )
    assert answered.status_code == 200, answered.text
    assert (await south).is_error
    question = asyncio.ensure_future(legacy.call_tool("export_table", {}))
    return [north, question]


def pending(lab: JupyterLab) -> list[tuple[str, str]]:
    return [(s["kernel_id"], p["id"]) for s in lab.api("GET", "api/mcp/servers").json() for p in s["pending"]]


async def until(probe: Any) -> None:
    async with asyncio.timeout(SLOW / 1000):
        while not await asyncio.to_thread(probe):
            await asyncio.sleep(0.2)


async def test_every_view_in_jupyterlab_light_and_dark_narrow_and_wide(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page = lab_page.page
    lab.write_notebook(NOTEBOOK, CELLS)
    lab.write_notebook(OTHER, ["print('nothing served here')"])
    route = lab.url(f"mcp/notebooks/{quote(NOTEBOOK)}", token=False)
    try:
        await lab_page.open_notebook(NOTEBOOK)
        await lab_page.run_all()
        async with (
            http_client(route, lab.token, mode="legacy", client_info=CLIENT) as legacy,
            http_client(route, lab.token, mode="auto", client_info=CLIENT, extensions=[TasksClient()]) as tasks,
        ):
            assert not (await legacy.call_tool("find_cities", {"country": "Norway"})).is_error
            assert (await legacy.call_tool("find_cities", {"country": "Atlantis"})).is_error
            running = await start(tasks, "train_model", {"epochs": 200})
            cancelled = await start(tasks, "train_model", {"epochs": 200})
            assert isinstance(running, CreatedTask)
            assert isinstance(cancelled, CreatedTask)
            await cancel_task(tasks.session, cancelled.task_id)
            answers = await waiting_for_the_user(lab, legacy)
            await page.locator(".jp-MCP-status").click()  # opens the MCP Tools sidebar
            panel = page.locator(".jmcp-panel")
            await expect(panel.locator(".jmcp-call", has_text="cancelled")).to_have_count(1, timeout=SLOW)
            await expect(panel.locator(".jmcp-call .jmcp-progress")).to_be_visible(timeout=SLOW)
            await check_findings(page)
            default = await sidebar_width(page)
            print(f"the MCP Tools sidebar's default width: {default:.0f} px")
            problems: list[str] = []
            for theme in ("light", "dark"):
                await lab_page.set_theme(f"JupyterLab {theme.capitalize()}")
                # The sidebar at its default width; every notebook view that narrow too.
                await sidebar_to(page, default)
                await notebook_width(page, default - 26)
                problems += await check(lab_page, NOTEBOOK_VIEWS, f"{theme}, narrow")
                problems += await check(lab_page, LAB_VIEWS, f"{theme}, default sidebar", artifacts)
                # A wide notebook; then a sidebar dragged wide.
                await notebook_width(page, None)
                problems += await check(lab_page, NOTEBOOK_VIEWS, f"{theme}, wide", artifacts)
                await expect(page.locator(".Toastify__toast")).to_have_count(2, timeout=SLOW)
                await views(page)["card-reset"].locator(".jmcp-approval").scroll_into_view_if_needed()
                keep(await lab_page.screenshot(page, artifacts / PAGES[theme]), PAGES[theme])
                await sidebar_to(page, WIDE_SIDEBAR)
                problems += await check(lab_page, LAB_VIEWS, f"{theme}, wide sidebar")
            await lab_page.set_theme("JupyterLab Light")
            assert not problems, "\n  ".join(["geometry and contrast:", *problems])
            await check_status_bar_elsewhere(lab_page)
            # The notebook widgets' own buttons answer: Allow in the tool's card, Decline in the panel.
            await card(page, "reset_sales").get_by_role("button", name="Allow", exact=True).click()
            await page.locator(".jmcp-panel .jmcp-question").get_by_role("button", name="Decline").click()
            north, question = await asyncio.wait_for(asyncio.gather(*answers), SLOW / 1000)
            assert (north.is_error, north.content[0].text) == (False, "north reset")
            assert question.content[0].text == "decline"
            await cancel_task(tasks.session, running.task_id)
    finally:
        await lab_page.set_theme("JupyterLab Light")
        lab.close_sessions(NOTEBOOK)


async def check_findings(page: Page) -> None:
    """Issue 23's findings that are about words, not geometry: each is gone."""
    panel = page.locator(".jmcp-panel")
    sidebar = views(page)["sidebar"]
    # 1. A task row in a card's recent calls: the badge in the name cell (the geometry check does the rest).
    await expect(
        card(page, "train_model").locator(".jmcp-call [data-col='name'] .jmcp-badge-task").first
    ).to_be_visible()
    # 3. One sentence for a waiting call everywhere; Allow is the accent button in each place.
    sentence = "claude-desktop wants to call reset_sales(region='north')"
    for place in (sidebar, card(page, "reset_sales"), panel):
        await expect(place.locator(".jmcp-approval-text")).to_have_text([sentence], timeout=SLOW)
    for place in (sidebar, card(page, "reset_sales"), panel):
        await expect(place.get_by_role("button", name="Allow", exact=True)).to_have_class(
            re.compile("jmcp-button-accept")
        )
    toast = page.locator(".Toastify__toast").filter(has_text=sentence)
    await expect(toast).to_be_visible(timeout=SLOW)
    await expect(toast.get_by_role("button").filter(has_text=re.compile(r"\w"))).to_have_text(
        ["Allow", "Allow for 10 min", "Deny"]
    )
    # 5. The status bar counts resources and prompts too.
    await expect(page.locator(".jp-MCP-status")).to_have_text(
        "MCP: 4 tools · 3 resources · 1 prompt · 1 client · 1 waiting for approval · 1 question for you", timeout=SLOW
    )
    # 8. Counts without jargon; the one client listed once (two sessions).
    await expect(sidebar.locator(".jp-MCP-server-facts")).to_contain_text("4 tools · 3 resources · 1 prompt · 1 client")
    await expect(sidebar.locator(".jp-MCP-prompts")).to_contain_text("used")
    await expect(sidebar.locator(".jmcp-client")).to_have_count(1)
    # 9. Waiting calls say "waiting"; the denied one is "refused", not a red error; a cancelled row says it once.
    await expect(panel.locator(".jmcp-call", has_text="reset_sales").locator(".jmcp-status-waiting")).to_have_count(1)
    await expect(panel.locator(".jmcp-call", has_text="reset_sales").locator(".jmcp-status-refused")).to_have_count(1)
    cancelled = panel.locator(".jmcp-call", has=page.locator(".jmcp-status-cancelled"))
    await expect(cancelled).to_have_count(1)
    assert (await cancelled.inner_text()).count("cancel") == 1
    errors = panel.locator("table.jmcp-components tr[data-key='reset_sales'] td.jmcp-error")
    await expect(errors).to_have_count(0)
    # 7. A chart's caption above its image, as a table's is.
    chart = card(page, "population_chart")
    caption = await chart.locator(".jmcp-shown-note").bounding_box()
    image = await chart.locator("img.jmcp-img").bounding_box()
    assert caption is not None
    assert image is not None
    assert caption["y"] + caption["height"] <= image["y"] + 1


async def check_status_bar_elsewhere(lab_page: LabPage) -> None:
    """5. With another notebook in front (in a second browser tab), the status bar still says what waits."""
    other = LabPage(await lab_page.page.context.new_page(), lab_page.lab)
    try:
        await other.open_notebook(OTHER)
        await expect(other.page.locator(".jp-MCP-status")).to_have_text(
            "MCP: 1 waiting for approval · 1 question for you", timeout=SLOW
        )
    finally:
        await other.page.close()
        lab_page.lab.close_sessions(OTHER)
