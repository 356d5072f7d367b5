"""Our MCP App hosted by the official ``AppBridge`` (``apphost.py``), in Chromium, against a notebook's server:
a structured result, an image, an error, a task's progress and a wait for the notebook user's approval, in
light and dark, each checked for geometry and contrast; the re-run button makes a real call the notebook's
history records, and opening the app records nothing."""

from __future__ import annotations

import asyncio
import io
import os
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import mcp_types as mt
import pytest
import pytest_asyncio
from PIL import Image as PILImage
from playwright.async_api import Browser, FrameLocator, Page, async_playwright, expect

from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools import Context, Image, ToolError
from tests.browser.apphost import open_app
from tests.browser.layout import layout_problems
from tests.browser.ui import CHROMIUM, CHROMIUM_ARGS, keep
from tests.conftest import http_client
from tests.tasks_client import TERMINAL, CreatedTask, TasksClient, start, wait_for
from tests.tools.apps.test_apps import APPS

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

WAIT = 20_000
HOST_CLIENT = mt.Implementation(name="apphost-test", version="1.0.0")
"""The host page's MCP client; the task scenario's caller has the same identity (a host's own call)."""
RELEASE = threading.Event()
CITIES = [
    {"city": "Oslo", "country": "Norway", "population": 709_000},
    {"city": "Bergen", "country": "Norway", "population": 291_000},
    {"city": "Stockholm", "country": "Sweden", "population": 984_000},
]


def register(server: NotebookServer) -> None:
    @server.tool(annotations={"readOnlyHint": True}, tags={"geo"})
    def find_cities(query: str, limit: int = 3) -> list[dict[str, Any]]:
        """Cities whose name contains the query.

        Args:
            query: Text the name must contain.
            limit: At most this many cities.
        """
        if query == "none":
            raise ToolError(f"no city matches {query!r}")
        return [c for c in CITIES if query.lower() in c["city"].lower()][:limit]

    @server.tool
    def chart(width: int = 240) -> Image:
        """A bar chart of the cities' populations."""
        image = PILImage.new("RGB", (width, 120), "white")
        for i, city in enumerate(CITIES):
            bar = PILImage.new("RGB", (50, city["population"] // 10_000), ("steelblue", "teal", "orange")[i])
            image.paste(bar, (20 + 70 * i, 120 - bar.height))
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return Image(data=buffer.getvalue(), format="png")

    @server.tool(annotations={"destructiveHint": True}, confirm=True)
    def reset_sales(region: str) -> str:
        """Clear a region's figures for the quarter."""
        return f"{region} reset"

    @server.tool(task=True)
    def train(epochs: int, ctx: Context) -> dict[str, Any]:
        """Trains for a while, reporting each epoch; a task for clients that support tasks."""
        ctx.report_progress(3, epochs, "epoch 3, loss 0.41")
        RELEASE.wait(30)
        return {"epochs": epochs, "loss": 0.12}


@contextmanager
def serving(runtime: Path) -> Iterator[NotebookServer]:
    """A notebook server with the tools above, its discovery file in ``runtime``; stopped after."""
    before = os.environ.get("JUPYTER_RUNTIME_DIR")
    os.environ["JUPYTER_RUNTIME_DIR"] = str(runtime)
    notebook = NotebookServer()
    try:
        register(notebook)
        yield notebook
    finally:
        RELEASE.set()
        notebook.stop()
        if before is None:
            os.environ.pop("JUPYTER_RUNTIME_DIR", None)
        else:
            os.environ["JUPYTER_RUNTIME_DIR"] = before


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NotebookServer]:
    with serving(tmp_path_factory.mktemp("runtime")) as notebook:
        yield notebook


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser: Browser) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport={"width": 820, "height": 900})
    shown = await context.new_page()
    errors: list[str] = []
    shown.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield shown
    finally:
        await context.close()
    assert not errors, errors


async def checked(page: Page, frame: FrameLocator, where: str, shot: Path, name: str | None = None) -> None:
    """No geometry or contrast problem in the app; a screenshot of the frame as the host shows it."""
    app = frame.locator(".jmcp-app")
    await app.evaluate("el => el.querySelectorAll('details').forEach(d => { d.open = true })")
    await page.wait_for_timeout(150)  # the host resizes the frame to the app's new height
    problems = await layout_problems(app)
    await page.locator("iframe#app").screenshot(path=shot)
    if name:
        keep(shot, name)
    assert not problems, f"{where}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_results_images_and_errors(server: NotebookServer, page: Page, theme: str, tmp_path: Path) -> None:
    assert server.url is not None
    frame, opened = await open_app(page, server.url, server.token, "find_cities", theme=theme)
    assert opened["resourceMeta"] == {"ui": {"prefersBorder": True}}
    assert 20_000 < opened["bytes"] < 300_000
    await page.evaluate("host.call({query: 'o'})")
    await expect(frame.locator(".jmcp-records")).to_be_visible(timeout=WAIT)
    await expect(frame.locator(".jmcp-records tbody tr")).to_have_count(2)
    await expect(frame.locator(".jmcp-call-text")).to_have_text("find_cities(query='o')")
    await checked(page, frame, f"structured, {theme}", tmp_path / "structured.png", f"app-structured-{theme}.png")
    await page.evaluate("host.call({query: 'none'})")
    await expect(frame.locator(".jmcp-error-text")).to_have_text("no city matches 'none'", timeout=WAIT)
    await checked(page, frame, f"error, {theme}", tmp_path / "error.png")

    await page.goto("about:blank")
    frame, _ = await open_app(page, server.url, server.token, "chart", theme=theme, mode="legacy")
    await page.evaluate("host.call({})")
    image = frame.locator("img.jmcp-img")
    await expect(image).to_be_visible(timeout=WAIT)
    assert await image.evaluate("img => img.decode().then(() => img.naturalWidth)") == 240
    await checked(page, frame, f"image, {theme}", tmp_path / "image.png", f"app-image-{theme}.png")


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_an_approval_wait_and_a_tasks_progress(
    server: NotebookServer, page: Page, theme: str, tmp_path: Path
) -> None:
    assert server.url is not None
    frame, _ = await open_app(page, server.url, server.token, "reset_sales", theme=theme)
    await page.evaluate("() => { window.waiting = host.call({region: 'north'}) }")
    await expect(frame.locator(".jmcp-waiting-text")).to_have_text("for the notebook user's approval", timeout=WAIT)
    await expect(frame.locator(".jmcp-app-status")).to_have_text("◔ waiting for the notebook user's approval")
    await checked(page, frame, f"approval, {theme}", tmp_path / "approval.png", f"app-approval-{theme}.png")
    server.pending[0].allow(via="panel")
    await page.evaluate("window.waiting")
    await expect(frame.locator(".jmcp-outcome")).to_contain_text("north reset", timeout=WAIT)

    RELEASE.clear()
    await page.goto("about:blank")
    frame, _ = await open_app(page, server.url, server.token, "train", theme=theme)
    async with http_client(
        server.url, server.token, mode="auto", extensions=[TasksClient(), APPS], client_info=HOST_CLIENT
    ) as caller:
        created = await start(caller, "train", {"epochs": 8})
        assert isinstance(created, CreatedTask)
        await page.evaluate("args => host.input(args)", {"epochs": 8})
        await expect(frame.locator(".jmcp-app-status .jmcp-badge-task")).to_be_visible(timeout=WAIT)
        await expect(frame.locator(".jmcp-app-status")).to_contain_text("3/8 · epoch 3, loss 0.41")
        assert await frame.locator(".jmcp-app-status [role=progressbar]").get_attribute("aria-valuenow") == "38"
        await checked(page, frame, f"task, {theme}", tmp_path / "task.png", f"app-task-{theme}.png")
        RELEASE.set()
        done = await wait_for(caller.session, created.task_id, TERMINAL)
    assert done.status == "completed"
    await page.evaluate("result => host.result(result)", done.result)
    await expect(frame.locator(".jmcp-outcome")).to_contain_text("0.12", timeout=WAIT)


async def test_the_rerun_button_makes_a_real_call_and_opening_records_nothing(
    server: NotebookServer, page: Page
) -> None:
    assert server.url is not None
    before = len(server.history)
    frame, _ = await open_app(page, server.url, server.token, "find_cities", mode="legacy")
    await page.evaluate("host.call({query: 'o'})")
    await expect(frame.locator(".jmcp-records tbody tr")).to_have_count(2, timeout=WAIT)
    await asyncio.sleep(1.5)  # the app asked for the call's status meanwhile: none of that is a call
    assert [(r.tool, r.arguments) for r in list(server.history)[before:]] == [("find_cities", {"query": "o"})]

    await frame.locator("summary", has_text="Run again").click()
    limit = frame.locator("[data-field=limit]")
    await expect(limit).to_have_value("3")
    await expect(frame.locator("[data-field=query]")).to_have_value("o")
    await limit.fill("1")
    await frame.get_by_role("button", name="Run again").click()
    await expect(frame.locator(".jmcp-records tbody tr")).to_have_count(1, timeout=WAIT)
    await expect(frame.locator(".jmcp-call-text")).to_have_text("find_cities(query='o', limit=1)")
    await expect(frame.locator(".jmcp-app-status")).to_contain_text("a new call, in the notebook’s history")
    records = list(server.history)[before:]
    assert [(r.tool, r.arguments, r.client_name, r.source) for r in records] == [
        ("find_cities", {"query": "o"}, "apphost-test", "client"),
        ("find_cities", {"query": "o", "limit": 1}, "apphost-test", "client"),
    ]
    told = await page.evaluate("host.state.modelContext.map(c => c.content[0].text)")
    assert told[-1] == 'The user ran it again from the card: find_cities({"query":"o","limit":1}) returned 1 item(s).'
