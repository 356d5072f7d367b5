"""Resource and prompt cards in a real JupyterLab, in headless Chromium, with an outside client reading.

Screenshots land in ``.ci/artifacts/browser/<test>/`` (``docs/screenshots/`` has the ones
``test_ui_in_lab.py`` takes).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import expect

from tests.browser.lab import JupyterLab
from tests.browser.test_widgets_in_lab import CLIENT, SETUP, history_row, kernel_endpoint
from tests.browser.ui import SLOW, LabPage
from tests.conftest import http_client

pytestmark = pytest.mark.browser

NOTEBOOK = "resources.ipynb"

CITIES = """\
%%mcp_resource data://cities --mime-type application/json --description "The notebook's city table" --tags geo
def all_cities() -> list[dict]:
    return cities.to_dict("records")"""

BY_COUNTRY = '''\
%%mcp_resource data://cities/{country}{?limit}
def cities_in(country: str, limit: int = 10) -> list[dict]:
    """The cities of one country, biggest first."""
    found = cities[cities.country == country].sort_values("population", ascending=False)
    return found.head(limit).to_dict("records")'''

REVIEW = '''\
%%mcp_prompt --title "Review a table" --tags geo
def review_table(table: str, focus: Literal["quality", "bias", "gaps"] = "quality") -> list:
    """Ask for a review of one of the notebook's tables."""
    return [
        jupyter_mcp.Message(f"Please review the table {table} for {focus}."),
        jupyter_mcp.Message(f"I will read data://{table} first.", role="assistant"),
    ]'''


async def test_resource_and_prompt_cards_in_jupyterlab(lab: JupyterLab, lab_page: LabPage, artifacts: Path) -> None:
    lab.write_notebook(NOTEBOOK, [SETUP, CITIES, BY_COUNTRY, REVIEW, "%mcp"])
    try:
        await lab_page.open_notebook(NOTEBOOK)
        await lab_page.run_all()
        await check_cards(lab, lab_page, artifacts)
    finally:
        lab.close_sessions(NOTEBOOK)


async def check_cards(lab: JupyterLab, lab_page: LabPage, artifacts: Path) -> None:
    page = lab_page.page
    panel = page.locator(".jmcp-panel")

    # The resource card: URI, MIME type, and a live preview of what a client reads (a table).
    cities = page.locator(".jmcp-card[data-kind='resource']").filter(has_text="all_cities")
    await expect(cities).to_be_visible(timeout=SLOW)
    for text in ("all_cities", "live", "resource", "application/json", "#geo"):
        await expect(cities.locator(".jmcp-head").first).to_contain_text(text)
    await expect(cities.locator(".jmcp-uri").first).to_have_text("data://cities")
    preview = cities.locator(".jmcp-shown")
    await expect(preview.locator("table.jmcp-records")).to_contain_text("Stockholm", timeout=SLOW)

    # An outside client reads it: the card's recent reads and the panel's history show the client.
    url, token = kernel_endpoint(lab, NOTEBOOK)
    async with http_client(url, token, mode="legacy", client_info=CLIENT) as client:
        await client.read_resource("data://cities")
        got = await client.get_prompt("review_table", {"table": "cities", "focus": "gaps"})
        assert [m.role for m in got.messages] == ["user", "assistant"]
    await expect(cities.locator(".jmcp-call").filter(has_text="claude-desktop 0.9.2")).to_have_count(1, timeout=SLOW)
    await expect(history_row(panel, "resource", "data://cities", "claude-desktop")).to_have_count(1, timeout=SLOW)

    # The template's try-it reads one of its URIs; the preview shows it.
    template = page.locator(".jmcp-card[data-kind='resource']").filter(has_text="data://cities/{country}{?limit}")
    await expect(template.locator(".jmcp-head").first).to_contain_text("template")
    await template.locator("summary").filter(has_text="Try it").click()
    await template.locator(".jmcp-field").filter(has_text="country").locator("input").fill("Norway")
    await template.get_by_role("button", name="Read", exact=True).click()
    await expect(template.locator(".jmcp-tryit")).to_contain_text("✓ ok", timeout=SLOW)
    await expect(template.locator(".jmcp-shown")).to_contain_text("data://cities/Norway", timeout=SLOW)
    await expect(template.locator(".jmcp-shown table.jmcp-records")).to_contain_text("Bergen")
    await lab_page.screenshot(cities, artifacts / "resource-card.png")
    await lab_page.screenshot(template, artifacts / "template-card.png")

    # The prompt card: arguments, the client's rendered messages, try-it.
    prompt = page.locator(".jmcp-card[data-kind='prompt']")
    for text in ("review_table", "Review a table", "live", "#geo"):
        await expect(prompt.locator(".jmcp-head").first).to_contain_text(text)
    # Issue 23: a Literal argument's constraint read "completes" (its values are in its type).
    await expect(prompt.locator("table.jmcp-params")).to_contain_text("Literal['quality', 'bias', 'gaps']")
    await expect(prompt.locator("table.jmcp-params")).not_to_contain_text("completes")
    messages = prompt.locator(".jmcp-shown")
    await expect(messages).to_contain_text("Please review the table cities for gaps.", timeout=SLOW)
    await expect(messages.locator(".jmcp-role")).to_have_count(2)
    await prompt.locator("summary").filter(has_text="Try it").click()
    await prompt.locator(".jmcp-field").filter(has_text="table").locator("input").fill("sales")
    await prompt.get_by_role("button", name="Render").click()
    await expect(messages).to_contain_text("Please review the table sales for quality.", timeout=SLOW)
    await lab_page.screenshot(prompt, artifacts / "prompt-card.png")

    # The panel lists tools, resources and prompts; the history filters by kind.
    await expect(panel.locator("summary").filter(has_text="Resources (2)")).to_be_visible()
    await expect(panel.locator("summary").filter(has_text="Prompts (1)")).to_be_visible()
    await panel.locator(".jmcp-history select").first.select_option(label="prompts")
    await expect(history_row(panel, "resource")).to_have_count(0, timeout=SLOW)
    await expect(history_row(panel, "review_table")).to_have_count(2)
    await lab_page.screenshot(panel, artifacts / "server-panel.png")

    # The JupyterLab sidebar lists the notebook's resources and prompts in their own groups.
    await page.locator(".jp-MCP-status").click()
    sidebar = page.locator("#jupyter-mcp-tools .jp-MCP-server").filter(has_text=NOTEBOOK)
    await expect(sidebar.locator(".jp-MCP-resources .jmcp-item-name")).to_have_text(
        ["data://cities", "data://cities/{country}{?limit}"], timeout=SLOW
    )
    await expect(sidebar.locator(".jp-MCP-resources .jmcp-item").nth(1)).to_contain_text("template")
    await expect(sidebar.locator(".jp-MCP-prompts .jmcp-item-name")).to_have_text(["review_table(table, focus)"])
    # Issue 23: "1 get" / "0 gets" was jargon; a notebook with no tools had "0 tools" and a pause button.
    await expect(sidebar.locator(".jp-MCP-prompts")).to_contain_text("used twice")
    await expect(sidebar.locator(".jp-MCP-server-facts")).to_have_text("2 resources · 1 prompt · 0 clients · 5 calls")
    await expect(sidebar.get_by_role("button", name="Pause all tools")).to_have_count(0)
    await lab_page.screenshot(sidebar, artifacts / "sidebar.png")
