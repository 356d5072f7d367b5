"""Driving JupyterLab's UI with Playwright (async API): open a notebook, run cells, switch theme.

The selectors are JupyterLab 4's own DOM classes and ARIA roles, kept in this one place.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from pathlib import Path
from urllib.parse import quote

from playwright.async_api import FloatRect, Locator, Page, expect

from tests.browser.lab import JupyterLab

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium (``apt-get install chromium chromium-driver``; ``./dev.sh test`` does it). Never
``playwright install``: tests use the system browser, nothing is downloaded."""
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SLOW = 60_000
"""Milliseconds to wait for things a kernel or JupyterLab does (a bound on hangs, not a speed test)."""
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def keep(path: Path, name: str) -> None:
    """With ``JUPYTER_MCP_UPDATE_SCREENSHOTS=1``, copy a screenshot to ``docs/screenshots/NAME``."""
    if os.environ.get("JUPYTER_MCP_UPDATE_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOCS / name)


class LabPage:
    """A Playwright page showing JupyterLab, with the few actions notebook tests need."""

    def __init__(self, page: Page, lab: JupyterLab) -> None:
        self.page = page
        self.lab = lab
        self.notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").first
        """The notebook panel in front (the one ``open_notebook`` opened)."""

    async def open_notebook(self, path: str) -> Locator:
        """Open ``path`` (relative to the lab root) alone; returns its panel once its kernel is idle.

        ``?reset`` drops the workspace the shared server remembers, so notebooks earlier tests
        opened do not open again next to this one.
        """
        await self.page.goto(self.lab.url(f"lab/tree/{quote(path)}?reset"))
        await expect(self.notebook).to_be_visible(timeout=SLOW)
        await expect(self.page.locator(".jp-NotebookPanel")).to_have_count(1)
        await self.wait_idle()
        return self.notebook

    async def wait_idle(self) -> None:
        """Wait until the notebook's kernel is connected and idle (the status bar says so)."""
        await expect(self.page.locator("#jp-main-statusbar")).to_contain_text("| Idle", timeout=SLOW)

    async def kernel_connected(self, path: str) -> None:
        """Wait until this page's kernel for notebook ``path`` has its websocket open.

        Notebook 7's execution indicator says ``idle`` before any kernel exists, and "Run All"
        clicked then runs nothing; the server's own count of the kernel's connections is the signal.
        """
        deadline = asyncio.get_running_loop().time() + SLOW / 1000
        while asyncio.get_running_loop().time() < deadline:
            sessions = (await asyncio.to_thread(self.lab.api, "GET", "api/sessions")).json()
            kernels = [s["kernel"] for s in sessions if s["path"] == path]
            if kernels and kernels[0]["connections"] > 0 and kernels[0]["execution_state"] == "idle":
                return
            await asyncio.sleep(0.2)
        raise TimeoutError(f"no connected, idle kernel for {path} in {SLOW / 1000:.0f}s: {sessions}")

    async def menu(self, *path: str) -> None:
        """Click through the main menu: ``await ui.menu("Run", "Run All Cells")``."""
        bar = self.page.locator("#jp-MainMenu")
        await bar.get_by_role("menuitem", name=path[0], exact=True).click()
        for label in path[1:]:
            # Submenus and checkable items are not role=menuitem, so match the label itself.
            exact = self.page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(label)}$"))
            item = self.page.locator(".lm-Menu:visible .lm-Menu-item").filter(has=exact).last
            await expect(item).not_to_have_class(re.compile(r"\blm-mod-disabled\b"))
            await item.click()

    async def run_all(self, *, status_bar: bool = True) -> None:
        """Run every cell and wait until each has its execution count (Notebook 7: ``status_bar=False``).

        A cell left without one fails with every cell's text and output, so a CI log says why.
        """
        await self.menu("Run", "Run All Cells")
        pending = self.notebook.locator(".jp-InputPrompt").filter(has_text=re.compile(r"\[[ *]\]"))
        try:
            await expect(pending).to_have_count(0, timeout=SLOW)
        except AssertionError as error:
            cells = "\n---\n".join(await self.notebook.locator(".jp-Cell").all_inner_texts())
            raise AssertionError(f"Run All left cells unrun:\n{cells}") from error
        if status_bar:
            await self.wait_idle()

    async def widgets_front_end(self) -> dict[str, object]:
        """How this page draws the notebook widgets: the version of the front end the JupyterLab extension
        offers (``None`` without it), how many kernel bundles the page imported, and how many copies of
        the bundle's stylesheet it holds (``labextension/src/widgets/offer.ts``, ``loader.ts``)."""
        found: dict[str, object] = await self.page.evaluate(
            """() => ({
              offered: globalThis[Symbol.for('jupyter-mcp.front-end')]?.version ?? null,
              imported: globalThis[Symbol.for('jupyter-mcp.front-ends-imported')]?.size ?? 0,
              stylesheets: document.querySelectorAll('#jupyter-mcp-ui-style').length,
            })"""
        )
        return found

    async def set_theme(self, name: str) -> None:
        """Switch to ``JupyterLab Light`` or ``JupyterLab Dark``, and wait until the shell is drawn again.

        JupyterLab marks the body with the new theme once its CSS is loaded, then hides the whole shell
        for one animation frame (to force a redraw) behind its splash: nothing in it has a box until then.
        """
        await self.menu("Settings", "Theme", name)
        await expect(self.page.locator(f"body[data-jp-theme-name='{name}']")).to_be_attached(timeout=SLOW)
        await expect(self.page.locator("#jupyterlab-splash")).to_have_count(0, timeout=SLOW)
        await expect(self.page.locator("#main")).to_be_visible(timeout=SLOW)

    async def screenshot(self, target: Page | Locator, path: Path) -> Path:
        """Save a PNG of the page or of one element, whole (scrolled into view)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(target, Page):
            await target.screenshot(path=path, full_page=True)
            return path
        viewport = self.page.viewport_size
        assert viewport is not None
        box = await _box(target)
        if box["height"] + 200 <= viewport["height"]:
            await self._shoot(target, path)
            return path
        # The notebook scrolls inside a fixed-size page: only a taller window shows a tall element whole.
        await self.page.set_viewport_size({"width": viewport["width"], "height": int(box["height"]) + 400})
        try:
            await self.page.wait_for_timeout(300)  # let JupyterLab lay out the new size
            await self._shoot(target, path)
        finally:
            await self.page.set_viewport_size(viewport)
        return path

    async def _shoot(self, target: Locator, path: Path, margin: int = 8) -> None:
        """The element plus a small margin of what surrounds it."""
        await target.scroll_into_view_if_needed()
        box = await _box(target)
        clip = {
            "x": max(0.0, box["x"] - margin),
            "y": max(0.0, box["y"] - margin),
            "width": box["width"] + 2 * margin,
            "height": box["height"] + 2 * margin,
        }
        await self.page.screenshot(path=path, clip=clip)  # type: ignore[arg-type]


async def _box(target: Locator) -> FloatRect:
    """The element's box once it is visible: a panel that re-renders every second (the MCP sidebar)
    can be between two renders when asked, so ask again for a while before failing."""
    for _ in range(50):
        await expect(target).to_be_visible(timeout=SLOW)
        box = await target.bounding_box()
        if box is not None:
            return box
        await target.page.wait_for_timeout(100)
    raise AssertionError(f"{target} stayed without a box for 5 s: only a visible element can be photographed")
