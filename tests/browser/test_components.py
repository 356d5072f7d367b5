"""The component set in Chromium without JupyterLab: every view the notebook widgets draw, from the
state a real server publishes (``gallery.py``), drawn by the bundled front end
(``jupyter_mcp/widgets/static/widgets.js``) on JupyterLab's own theme stylesheets, in light and dark,
at the sidebar's width and a wide notebook's, each checked for geometry and contrast
(``layout_checks.js``); and the front end's logic (forms, tables, markdown) with its edge cases.

Fast (one page, no JupyterLab, no kernel): the checks in a real JupyterLab are in ``test_ui_in_lab.py``.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
import pytest_asyncio
from playwright.async_api import Locator, Page, async_playwright
from pydantic import BaseModel, Field

from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools import Tool
from jupyter_mcp.widgets.frontend import bundle
from tests.browser.gallery import build_gallery
from tests.browser.layout import layout_problems
from tests.browser.ui import CHROMIUM, CHROMIUM_ARGS, keep

# One browser and one page for the whole module (each test draws into it): a launch is most of the cost.
pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

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


@pytest_asyncio.fixture(scope="module", loop_scope="module")
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
            view = await draw(page, f"{name}-{width}-{theme}", state, width)
            await view.evaluate("el => el.querySelectorAll('details').forEach(d => { d.open = true })")
            problems += [f"{name} at {width}px: {problem}" for problem in await layout_problems(view)]
            if (name, width) == ("channel-panel", SIDEBAR):  # a kernel with no port: its connection section
                section = view.locator("details.jmcp-section").filter(has=page.locator(".jmcp-connection"))
                shot = tmp_path / f"channel-panel-{theme}.png"
                await section.screenshot(path=shot)
                keep(shot, "channel-panel-dark.png" if "Dark" in theme else "channel-panel.png")
    if problems:
        await page.screenshot(path=tmp_path / "gallery.png", full_page=True)
    assert not problems, f"{theme}:\n  " + "\n  ".join(problems)


# ---- every button, in every state --------------------------------------------------------------------------

KINDS = """([bundle, theme]) => (async () => {
  if (!window.jmcp) {
    const url = URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' }));
    window.jmcp = await import(url);
    window.sent = [];
  }
  const frame = document.createElement('div');
  frame.className = 'jmcp frame';
  frame.dataset.kinds = theme;
  for (const kind of window.jmcp.ui.BUTTON_KINDS) frame.append(window.jmcp.ui.button(`A ${kind} button`, kind, () => {}));
  document.getElementById('views').append(frame);
  return window.jmcp.ui.BUTTON_KINDS;
})()"""


async def button_problems(page: Page, button: Locator) -> list[str]:
    """Contrast (and geometry) of ``button`` at rest, hovered, focused from the keyboard and pressed."""
    label = (await button.inner_text()).strip()
    await page.mouse.move(0, 0)
    problems = [f"{label} at rest: {p}" for p in await layout_problems(button)]
    await button.hover()
    problems += [f"{label} hovered: {p}" for p in await layout_problems(button)]
    await page.keyboard.press("Shift")  # the last input a key's: focus() shows the keyboard's focus ring
    await button.focus()
    assert await button.evaluate("el => el.matches(':focus-visible')"), label
    problems += [f"{label} focused: {p}" for p in await layout_problems(button)]
    await button.evaluate("el => el.blur()")
    await button.hover()
    await page.mouse.down()  # pressed (:active); released elsewhere, so nothing is clicked
    problems += [f"{label} pressed: {p}" for p in await layout_problems(button)]
    await page.mouse.move(0, 0)
    await page.mouse.up()
    return problems


@pytest.mark.parametrize("theme", ["JupyterLab Light", "JupyterLab Dark"])
async def test_every_button_variant_reads_in_every_state(
    gallery: dict[str, dict[str, Any]], page: Page, theme: str
) -> None:
    # Issue 34: a hovered Allow, Run or Send read 4.41:1 (a brightness filter dimmed the label with its button).
    await set_theme(page, theme)
    kinds = await page.evaluate(KINDS, [bundle(), theme])
    assert set(kinds) == {"accept", "warn", "default"}
    buttons = [page.locator(f"[data-kinds='{theme}'] button")]
    for name, state in gallery.items():  # and every button a view draws, on the background it is drawn on
        view = await draw(page, f"buttons-{name}-{theme}", state, WIDE)
        await view.evaluate("el => el.querySelectorAll('details').forEach(d => { d.open = true })")
        buttons.append(view.locator("button:not(:disabled)"))
    problems: list[str] = []
    seen: set[str] = set()
    for group in buttons:
        for i in range(await group.count()):
            button = group.nth(i)
            look = await button.evaluate(
                "el => `${el.className} ${el.closest('[class*=jmcp-approval], .jmcp-question')?.className ?? ''}`"
            )
            if look in seen or not await button.is_visible():
                continue
            seen.add(look)
            problems += await button_problems(page, button)
    assert len(seen) >= len(kinds)
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
    # Issue 34: a hovered Allow dimmed by a brightness filter, its white label with it (4.41:1).
    "contrast#filter": '<div style="background:#fff"><button style="background:#1976d2;color:#fff;border:0;'
    'filter:brightness(0.92)">Allow</button></div>',
    # A control focused from the keyboard with no ring (checked on the focused element).
    "focus": '<div><button class="jmcp-test-focus" style="outline:none">Run</button></div>',
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
    for key, markup in FOUND.items():
        view = page.locator(f"[data-bad='{key}']")
        await page.evaluate(
            "([key, markup]) => { const el = document.createElement('div'); el.className = 'jmcp';"
            " el.style.width = '900px'; el.dataset.bad = key; el.innerHTML = markup;"
            " document.getElementById('views').append(el); }",
            [key, markup],
        )
        if key == "focus":
            await page.keyboard.press("Shift")
            await view.locator("button").focus()
        found = await layout_problems(view)
        check = key.split("#")[0]
        assert any(problem.startswith(f"{check}:") for problem in found), (key, found)


# ---- the front end's logic: forms, values, content ---------------------------------------------------------


class Mode(enum.Enum):
    FAST = "fast"
    SAFE = "safe"


class Point(BaseModel):
    x: int
    y: int = 0


def schema_for(annotation: Any, default: Any = ...) -> dict[str, Any]:
    """The input schema of a tool ``probe(value: annotation = default)``, as clients (and the form) get it."""

    def probe(value):  # type: ignore[no-untyped-def]
        return None

    probe.__annotations__ = {"value": annotation}
    if default is not ...:
        probe.__defaults__ = (default,)
    return Tool.from_function(probe).to_mcp(dereference_schemas=True).input_schema


FIELD = """([bundle, schema]) => (async () => {
  if (!window.jmcp) {
    const url = URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' }));
    window.jmcp = await import(url);
  }
  const [f] = window.jmcp.ui.fields(schema);
  const show = v => (typeof v === 'symbol' ? 'OMIT' : v);
  return { kind: f.kind, parseAs: f.parseAs, initial: show(f.initial), required: f.required, type: f.typeLabel,
           hint: f.hint, choices: f.choices.map(([label, value]) => [label, show(value)]) };
})()"""
COLLECT = """([bundle, schema, raw]) => (async () => {
  if (!window.jmcp) {
    const url = URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' }));
    window.jmcp = await import(url);
  }
  return window.jmcp.ui.collect(window.jmcp.ui.fields(schema), raw);
})()"""


@pytest.mark.parametrize(
    ("annotation", "default", "kind", "parse_as", "initial"),
    [
        (str, ..., "text", "str", ""),
        (str, "hi", "text", "str", "hi"),
        (str | None, None, "text", "str", ""),
        (int, ..., "integer", "int", ""),
        (int, 5, "integer", "int", "5"),
        (float, 0.5, "number", "float", "0.5"),
        (int | None, None, "text", "int", ""),
        (bool, True, "checkbox", "value", True),
        (bool | None, None, "choice", "value", None),
        (Literal["a", "b"], "b", "choice", "value", "b"),
        (Literal[1, 2], ..., "choice", "value", "OMIT"),
        (Mode, Mode.SAFE, "choice", "value", "safe"),
        (list[Literal["x", "y"]], ..., "choices", "value", []),
        (list[int], [1, 2], "json", "json", "[1,2]"),
        (Point, ..., "json", "json", ""),
        (int | str, 1, "json", "json", "1"),
    ],
)
async def test_each_parameter_gets_the_right_input(
    page: Page, annotation: Any, default: Any, kind: str, parse_as: str, initial: Any
) -> None:
    field = await page.evaluate(FIELD, [bundle(), schema_for(annotation, default)])
    assert (field["kind"], field["parseAs"], field["initial"]) == (kind, parse_as, initial)
    assert field["required"] is (default is ...)


async def test_choices_labels_and_hints_read_as_python(page: Page) -> None:
    literal = await page.evaluate(FIELD, [bundle(), schema_for(Literal["a", "b"], "a")])
    assert (literal["type"], literal["choices"]) == ("Literal['a', 'b']", [["'a'", "a"], ["'b'", "b"]])
    optional = await page.evaluate(FIELD, [bundle(), schema_for(bool | None, None)])
    assert optional["choices"] == [["True", True], ["False", False], ["None", None]]
    required = await page.evaluate(FIELD, [bundle(), schema_for(Literal[1, 2])])
    assert required["choices"][0] == ["(choose one)", "OMIT"]
    bounded = await page.evaluate(FIELD, [bundle(), schema_for(Annotated[int, Field(ge=0, le=9)], 3)])
    assert (bounded["type"], bounded["hint"]) == ("int", "≥ 0, ≤ 9")


def search(
    query: str, limit: int = 10, sort: Literal["relevance", "date"] = "relevance", tags: list[str] | None = None
) -> int:
    return 0


async def test_a_form_sends_what_differs_from_the_defaults_and_says_what_it_cannot_read(page: Page) -> None:
    schema = Tool.from_function(search).to_mcp(dereference_schemas=True).input_schema
    sent = await page.evaluate(
        COLLECT, [bundle(), schema, {"query": "cats", "limit": "10", "sort": "date", "tags": '["a"]'}]
    )
    assert sent == {"values": {"query": "cats", "sort": "date", "tags": ["a"]}, "errors": {}}
    bad = await page.evaluate(
        COLLECT, [bundle(), schema, {"query": "cats", "limit": "3", "sort": "relevance", "tags": "[oops"}]
    )
    assert bad["values"] == {"query": "cats", "limit": 3}
    assert list(bad["errors"]) == ["tags"]
    assert bad["errors"]["tags"].startswith("not valid JSON")
    count = schema_for(int | None, None)
    assert (await page.evaluate(COLLECT, [bundle(), count, {"value": "ten"}]))["errors"] == {
        "value": "not an integer: 'ten'"
    }
    need = schema_for(list[int])
    assert (await page.evaluate(COLLECT, [bundle(), need, {"value": ""}]))["errors"] == {"value": "required"}
    one = {"type": "object", "properties": {"n": {"type": "integer", "default": 1}}}
    assert (await page.evaluate(COLLECT, [bundle(), one, {"n": "1"}]))["values"] == {}  # its default: not sent


UI = """([bundle, call, args]) => (async () => {
  if (!window.jmcp) {
    const url = URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' }));
    window.jmcp = await import(url);
  }
  const value = window.jmcp.ui[call](...args);
  return value instanceof Node ? value.innerText : value;
})()"""


async def test_values_and_content_are_drawn_as_the_notebook_would(page: Page) -> None:
    rows = [{"city": "Oslo", "n": 1}, {"city": "Rome", "n": 2}]

    async def ui(call: str, *args: Any) -> Any:
        return await page.evaluate(UI, [bundle(), call, list(args)])

    assert await ui("records", {"result": rows}) == rows
    assert await ui("records", {"columns": ["city", "n"], "records": rows}) == rows
    assert await ui("records", [{"nested": {"a": 1}}]) is None
    assert await ui("records", []) is None
    assert await ui("splitMarkdownTable", "| a | b |\n|---|---|\n| 1 | x\\|y |\n\n(2 rows, first 1 shown)") == [
        [["a", "b"], ["1", "x|y"]],
        "(2 rows, first 1 shown)",
    ]
    assert await ui("splitMarkdownTable", "| just a pipe\nand text") is None
    assert await ui("parseCsv", 'a,b\n"x, y","say ""hi"""\n') == [["a", "b"], ["x, y", 'say "hi"']]
    assert await ui("repeats", {"type": "text", "text": "3"}, {"result": 3}) is True
    assert (
        await ui(
            "outputSummary",
            {"type": "object", "properties": {"result": {"type": "integer"}}, "x-jupyter-mcp-wrap-result": True},
        )
        == "int"
    )
    assert await ui("typeLabel", {"anyOf": [{"type": "null"}, {"type": "string"}]}) == "str | None"
    assert await ui("countsText", {"tools": 0, "resources": 4, "prompts": 2, "clients": 0, "calls": 8}) == (
        "4\u00a0resources\u00a0· 2\u00a0prompts\u00a0· 0\u00a0clients\u00a0· 8\u00a0calls"
    )
    assert await ui("usesText", 2, "prompt") == "used twice"
