"""The component set in Chromium without JupyterLab: every view the notebook widgets draw, from the
state a real server publishes (``gallery.py``), drawn by the bundled front end
(``jupyter_mcp/widgets/static/widgets.js``) on JupyterLab's own theme stylesheets, in light and dark,
at the sidebar's width and a wide notebook's, each checked for geometry and contrast
(``layout_checks.js``); and the front end's logic (forms, tables, markdown) with its edge cases.

Fast (one page, no JupyterLab, no kernel): the checks in a real JupyterLab are in ``test_ui_in_lab.py``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, async_playwright

from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.widgets._view import bundle
from tests.browser.gallery import build_gallery
from tests.browser.layout import layout_problems
from tests.browser.ui import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

THEMES = Path(sys.prefix) / "share" / "jupyter" / "lab" / "themes" / "@jupyterlab"
THEME_CSS = {
    "JupyterLab Light": THEMES / "theme-light-extension" / "index.css",
    "JupyterLab Dark": THEMES / "theme-dark-extension" / "index.css",
}
SIDEBAR = 224
"""What JupyterLab's left sidebar at its default width (250 px) leaves for a notebook's section."""
WIDE = 1100
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style id="theme"></style><style>
body { margin: 0; background: var(--jp-layout-color1); color: var(--jp-ui-font-color1);
  font-family: var(--jp-ui-font-family); font-size: var(--jp-ui-font-size1); }
.frame { margin: 12px; }
</style></head><body><div id="views"></div></body></html>"""
DRAW = """async ([bundle, name, state, width]) => {
  if (!window.jmcp) {
    const url = URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' }));
    window.jmcp = await import(url);
    window.sent = [];
  }
  const frame = document.createElement('div');
  frame.className = 'frame';
  frame.dataset.view = name;
  frame.style.width = width + 'px';
  document.getElementById('views').append(frame);
  const model = { get: key => state[key], on() {}, off() {}, send: message => window.sent.push(message) };
  window.jmcp.default.render({ model, el: frame });
  return true;
}"""


@pytest.fixture(scope="module")
def gallery(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    runtime = tmp_path_factory.mktemp("runtime")
    before = os.environ.get("JUPYTER_RUNTIME_DIR")
    os.environ["JUPYTER_RUNTIME_DIR"] = str(runtime)
    server = NotebookServer()
    try:
        yield build_gallery(server)
    finally:
        server.stop()
        if before is None:
            os.environ.pop("JUPYTER_RUNTIME_DIR", None)
        else:
            os.environ["JUPYTER_RUNTIME_DIR"] = before


@pytest.fixture
async def page() -> AsyncIterator[Page]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context(viewport={"width": 1300, "height": 900})
            shown = await context.new_page()
            await shown.set_content(PAGE)
            yield shown
        finally:
            await browser.close()


async def set_theme(page: Page, theme: str) -> None:
    css = THEME_CSS[theme].read_text()
    light = "true" if "Light" in theme else "false"
    await page.evaluate(
        """([css, name, light]) => {
          document.getElementById('theme').textContent = css;
          document.body.dataset.jpThemeName = name;
          document.body.dataset.jpThemeLight = light;
        }""",
        [css, theme, light],
    )


async def draw(page: Page, name: str, state: dict[str, Any], width: int) -> Any:
    await page.evaluate(DRAW, [bundle(), name, state, width])
    view = page.locator(f".frame[data-view='{name}'] > .jmcp")
    await view.wait_for()
    return view


@pytest.mark.parametrize("theme", ["JupyterLab Light", "JupyterLab Dark"])
async def test_every_view_is_laid_out_and_readable(
    gallery: dict[str, dict[str, Any]], page: Page, theme: str, tmp_path: Path
) -> None:
    await set_theme(page, theme)
    problems: list[str] = []
    for width in (SIDEBAR, WIDE):
        for name, state in gallery.items():
            view = await draw(page, f"{name}-{width}", state, width)
            await view.evaluate("el => el.querySelectorAll('details').forEach(d => { d.open = true })")
            problems += [f"{name} at {width}px: {problem}" for problem in await layout_problems(view)]
    if problems:
        await page.screenshot(path=tmp_path / "gallery.png", full_page=True)
    assert not problems, f"{theme}:\n  " + "\n  ".join(problems)


# ---- the checks catch what issue 23 found ------------------------------------------------------------------

FOUND = {
    # 1. A task badge as a cell of its own shifted a card's call row by one column.
    "columns": """<div class="jmcp-calls"><div class="jmcp-call jmcp-calls-head">
        <span class="jmcp-cell" data-col="time">time</span><span class="jmcp-cell" data-col="status">status</span>
        <span class="jmcp-cell" data-col="client">client</span><span class="jmcp-cell" data-col="name">name</span>
        <span class="jmcp-cell" data-col="arguments">arguments</span><span class="jmcp-cell" data-col="duration">duration</span></div>
      <div class="jmcp-call"><span class="jmcp-cell" data-col="time">12:00</span>
        <span class="jmcp-cell" data-col="status">ok</span><span class="jmcp-cell" data-col="client">c</span>
        <span class="jmcp-cell" data-col="name">train</span><span class="jmcp-badge">task</span>
        <span class="jmcp-cell" data-col="arguments">epochs=8</span><span class="jmcp-cell" data-col="duration">1 s</span></div></div>""",
    # 2. "Resume tools" in a 63 px button: the label wrapped and spilled out.
    "one-line": '<div><button style="width:63px;height:32px;white-space:normal">Resume tools</button></div>',
    # 3. The sidebar broke a call mid-token.
    "word": '<div style="width:120px;overflow-wrap:anywhere"><code>reset_sales({"region":"north"})</code></div>',
    # 4. The dark theme's "destructive" badge at about 2.7:1.
    "contrast": '<div style="background:#424242"><span style="color:#d32f2f;font-size:11px">destructive</span></div>',
    # 6. The history filter bar: 29 px of content in a 28 px box that scrolls.
    "overflow": '<div style="height:28px;overflow:auto"><div style="height:29px">filters</div></div>',
    # 3. The reason field's placeholder cut off.
    "fits": '<div><input style="width:90px" placeholder="reason (the client sees it)"></div>',
    # 2. The wrapped label spilled over the stats line and the first tool row.
    "overlap": '<div><div style="height:20px">0 tools</div><div style="margin-top:-10px;height:20px">pause</div></div>',
    # 7. The URI cut ("data://ci…") while the arguments cell beside it is empty.
    "cut": """<div class="jmcp-calls"><div class="jmcp-call"><span class="jmcp-cell" data-col="time">12:00</span>
        <span class="jmcp-cell" data-col="status">ok</span><span class="jmcp-cell" data-col="client">c</span>
        <span class="jmcp-cell" data-col="name">data://cities/with/a/very/long/path/that/does/not/fit/in/the/name/column</span>
        <span class="jmcp-cell" data-col="arguments"></span><span class="jmcp-cell" data-col="duration">1 s</span></div></div>""",
}


async def test_the_checks_catch_what_the_issue_found(gallery: dict[str, dict[str, Any]], page: Page) -> None:
    await set_theme(page, "JupyterLab Dark")
    await draw(page, "css", gallery["tool-card"], WIDE)  # loads the stylesheet the snippets use
    for check, markup in FOUND.items():
        view = page.locator(f"[data-bad='{check}']")
        await page.evaluate(
            "([check, markup]) => { const el = document.createElement('div'); el.className = 'jmcp';"
            " el.style.width = '900px'; el.dataset.bad = check; el.innerHTML = markup;"
            " document.getElementById('views').append(el); }",
            [check, markup],
        )
        found = await layout_problems(view)
        assert any(problem.startswith(f"{check}:") for problem in found), (check, found)
