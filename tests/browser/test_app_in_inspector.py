"""Our MCP App in the MCP Inspector 2.x's Apps view (its own sandbox proxy and AppBridge), headless in
Chromium: a structured result, an image, an error, an approval wait and a task's progress (the Inspector
declares the tasks extension, so the call really becomes a task), in light and dark, each checked for
geometry and contrast; the re-run button's call lands in the notebook's history."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, FrameLocator, Page, async_playwright, expect

from jupyter_mcp.kernel.server import NotebookServer
from tests.browser.inspector import running_inspector
from tests.browser.layout import layout_problems
from tests.browser.test_app_in_appbridge import RELEASE, WAIT, serving
from tests.browser.ui import CHROMIUM, CHROMIUM_ARGS, keep

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(240)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NotebookServer]:
    with serving(tmp_path_factory.mktemp("runtime")) as notebook:
        yield notebook


@pytest.fixture(scope="module")
def inspector(server: NotebookServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    assert server.url is not None
    with running_inspector(server.url, server.token, tmp_path_factory.mktemp("inspector")) as address:
        yield address


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def page(inspector: str) -> AsyncIterator[Page]:
    async with async_playwright() as playwright:
        browser: Browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            shown = await browser.new_page(viewport={"width": 1400, "height": 1000})
            await shown.goto(inspector)
            # The switch shows the connection's state: it turns on once connected, which takes longer than
            # Playwright's check() waits on a busy machine. Click it, then wait for the connection itself.
            await shown.get_by_role("switch", name="Connect or disconnect").click(force=True)
            await expect(shown.get_by_text("Connected", exact=True)).to_be_visible(timeout=WAIT)
            await shown.get_by_text("Apps", exact=True).first.click()
            yield shown
        finally:
            await browser.close()


def app_frame(page: Page) -> FrameLocator:
    """The app: the frame inside the Inspector's sandbox proxy (another origin)."""
    return page.frame_locator("iframe[src*='/sandbox']").frame_locator("iframe")


async def open_app(page: Page, tool: str, values: dict[str, str]) -> FrameLocator:
    back = page.get_by_role("button", name="Back to Input")
    if await back.is_visible():
        await back.click()
    await page.get_by_role("button", name=tool, exact=False).first.click()
    for name, value in values.items():
        await page.get_by_role("textbox", name=name).fill(value)
    await page.get_by_role("button", name="Open App").click()
    frame = app_frame(page)
    await expect(frame.locator(".jmcp-app")).to_be_visible(timeout=WAIT)
    return frame


async def set_scheme(page: Page, theme: str) -> None:
    """The Inspector's own colour scheme (its app sandbox gets it as the host context's theme)."""
    dark = await page.evaluate("document.documentElement.dataset.mantineColorScheme === 'dark'")
    if dark != (theme == "dark"):
        await page.get_by_role("button", name="Toggle color scheme").click()


async def checked(page: Page, frame: FrameLocator, where: str, shot: Path, name: str | None = None) -> None:
    app = frame.locator(".jmcp-app")
    await app.evaluate("el => el.querySelectorAll('details').forEach(d => { d.open = true })")
    await page.wait_for_timeout(300)
    problems = await layout_problems(app)
    await page.locator("iframe[src*='/sandbox']").screenshot(path=shot)
    if name:
        keep(shot, name)
    assert not problems, f"{where}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_results_images_errors_approvals_and_tasks(
    server: NotebookServer, page: Page, theme: str, tmp_path: Path
) -> None:
    await set_scheme(page, theme)
    frame = await open_app(page, "find_cities", {"query": "o"})
    await expect(frame.locator(".jmcp-records tbody tr")).to_have_count(2, timeout=WAIT)
    assert await frame.locator("html").get_attribute("data-theme") == theme
    await checked(page, frame, f"structured, {theme}", tmp_path / "structured.png", f"app-inspector-{theme}.png")

    frame = await open_app(page, "find_cities", {"query": "none"})
    await expect(frame.locator(".jmcp-error-text")).to_have_text("no city matches 'none'", timeout=WAIT)
    await checked(page, frame, f"error, {theme}", tmp_path / "error.png")

    frame = await open_app(page, "chart", {})
    # The Inspector's CSP allows no image source (img-src 'none'): the app draws the bytes on a canvas.
    image = frame.locator("canvas.jmcp-img")
    await expect(image).to_be_visible(timeout=WAIT)
    assert await image.evaluate("canvas => [canvas.width, canvas.getAttribute('aria-label')]") == [240, "image/png"]
    await checked(page, frame, f"image, {theme}", tmp_path / "image.png")

    frame = await open_app(page, "reset_sales", {"region": "north"})
    await expect(frame.locator(".jmcp-waiting-text")).to_have_text("for the notebook user's approval", timeout=WAIT)
    await checked(page, frame, f"approval, {theme}", tmp_path / "approval.png")
    server.pending[0].allow(via="panel")
    await expect(frame.locator(".jmcp-outcome")).to_contain_text("north reset", timeout=WAIT)

    RELEASE.clear()
    frame = await open_app(page, "train", {"epochs": "8"})
    await expect(frame.locator(".jmcp-app-status .jmcp-badge-task")).to_be_visible(timeout=WAIT)
    await expect(frame.locator(".jmcp-app-status")).to_contain_text("3/8 · epoch 3, loss 0.41")
    await checked(page, frame, f"task, {theme}", tmp_path / "task.png")
    RELEASE.set()
    await expect(frame.locator(".jmcp-outcome")).to_contain_text("0.12", timeout=WAIT)


async def test_the_rerun_button_calls_through_the_inspector(server: NotebookServer, page: Page) -> None:
    frame = await open_app(page, "find_cities", {"query": "o"})
    await expect(frame.locator(".jmcp-records tbody tr")).to_have_count(2, timeout=WAIT)
    before = len(server.history)
    await frame.locator("summary", has_text="Run again").click()
    await frame.locator("[data-field=query]").fill("Berg")
    await frame.get_by_role("button", name="Run again").click()
    await expect(frame.locator(".jmcp-records tbody tr")).to_have_count(1, timeout=WAIT)
    new = list(server.history)[before:]
    assert [(r.tool, r.arguments["query"], r.source) for r in new] == [("find_cities", "Berg", "client")]
    assert new[0].client_name is not None
    assert new[0].client_name.startswith("mcp-inspector") or "inspector" in new[0].client_name.lower()
