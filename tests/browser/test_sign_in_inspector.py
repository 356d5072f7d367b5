"""The MCP Inspector's own OAuth flow against sign-in with Jupyter: its web UI (pinned in ``tests/node``),
given only the URL of ``/mcp``, gets the 401, discovers the metadata, registers, and sends Chromium to the
consent page; the user logs in to Jupyter and clicks Allow, the Inspector gets its token and connects."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import async_playwright, expect

from tests.browser.inspector import running_inspector
from tests.browser.lab import JupyterLab
from tests.browser.test_sign_in_in_lab import WHOAMI
from tests.browser.ui import CHROMIUM, CHROMIUM_ARGS, SLOW

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

NOTEBOOK = "signin/inspected.ipynb"


async def test_the_inspector_signs_in_with_jupyter_and_connects(lab: JupyterLab, tmp_path: Path) -> None:
    kernel = lab.serving(NOTEBOOK, [WHOAMI])
    try:
        with running_inspector(lab.url("mcp", token=False), None, tmp_path) as inspector:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    page = await browser.new_page(viewport={"width": 1400, "height": 1000})
                    await page.goto(inspector)
                    await page.get_by_role("switch", name="Connect or disconnect").click(force=True)
                    await page.locator("#password_input").fill(lab.token, timeout=SLOW)
                    await page.locator("#login_submit").click()
                    await expect(page.locator("main.jp-mcp-consent")).to_be_visible(timeout=SLOW)
                    await page.get_by_role("button", name="Allow").click()
                    await expect(page.get_by_text("Connected", exact=True)).to_be_visible(timeout=SLOW)
                    await page.get_by_text("Tools", exact=True).first.click()
                    await expect(page.get_by_text("inspected_whoami").first).to_be_visible(timeout=SLOW)
                finally:
                    await browser.close()
        apps = lab.api("GET", "api/mcp/apps").json()
        assert any("inspector" in app["client_name"].lower() for app in apps), apps
    finally:
        kernel.client.stop_channels()
        lab.close_sessions(NOTEBOOK)
