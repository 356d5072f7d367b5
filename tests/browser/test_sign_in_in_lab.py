"""Sign in with Jupyter in a real browser: the SDK's OAuth client knows only the URL of ``/mcp``; Chromium logs
in to Jupyter, the consent page (checked for layout and contrast, light and dark) gets Allow, the browser
lands on the client's loopback callback, and the client lists and calls tools. Then JupyterLab's MCP sidebar
shows it under Connected apps (checked the same way), and Revoke there cuts it off at once.

With ``JUPYTER_MCP_UPDATE_SCREENSHOTS=1`` the screenshots are copied to ``docs/screenshots/``
(``consent.png``, ``consent-dark.png``, ``connected-apps.png``).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx2
import pytest
from mcp.client.auth import OAuthClientProvider
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata
from playwright.async_api import Page, expect
from pydantic import AnyUrl

from tests.browser.lab import JupyterLab
from tests.browser.layout import assert_clean
from tests.browser.ui import SLOW, LabPage, keep
from tests.oauth import Callback, MemoryStorage, callback_server, oauth_client

pytestmark = pytest.mark.browser

NOTEBOOK = "signin/sales.ipynb"
WHOAMI = '''%%mcp_tool --read-only
def whoami() -> str:
    """Say which notebook answers."""
    return NOTEBOOK'''


def browser_provider(url: str, page: Page, callback: Callback, storage: MemoryStorage) -> OAuthClientProvider:
    """The SDK's OAuth client as a desktop app has it: the browser opens the authorization URL, and the
    code comes back to a loopback server."""

    async def open_browser(authorization_url: str) -> None:
        await page.goto(authorization_url)

    async def come_back() -> AuthorizationCodeResult:
        async with asyncio.timeout(SLOW / 1000):
            query = await callback.next()
        return AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))

    metadata = OAuthClientMetadata(client_name="Desk Agent", redirect_uris=[AnyUrl(callback.url)])
    return OAuthClientProvider(url, metadata, storage, redirect_handler=open_browser, callback_handler=come_back)


async def log_in_and_allow(lab_page: LabPage, lab: JupyterLab, artifacts: Path) -> None:
    """The user's part: Jupyter's login page (the browser has no session), then the consent page: Allow."""
    page = lab_page.page
    await page.locator("#password_input").fill(lab.token, timeout=SLOW)
    await page.locator("#login_submit").click()
    await expect(page.locator("main.jp-mcp-consent")).to_be_visible(timeout=SLOW)
    await expect(page.locator(".badge.unverified")).to_have_text("Registered itself: its name is not verified")
    await consent_checked(lab_page, artifacts)
    await page.get_by_role("button", name="Allow").click()


async def consent_checked(lab_page: LabPage, artifacts: Path) -> None:
    """The consent page, clean in light and dark (the page follows the browser's colour scheme)."""
    page = lab_page.page
    main = page.locator("main.jp-mcp-consent")
    await expect(main.get_by_role("heading")).to_have_text("Allow Desk Agent to use the tools of all your notebooks?")
    for scheme, name in (("dark", "consent-dark.png"), ("light", "consent.png")):
        await page.emulate_media(color_scheme=scheme)
        await assert_clean(main, f"consent page, {scheme}")
        keep(await lab_page.screenshot(page, artifacts / name), name)


async def test_a_browser_signs_a_client_in_and_connected_apps_revokes_it(
    lab: JupyterLab, lab_page: LabPage, artifacts: Path
) -> None:
    page = lab_page.page
    lab.api("POST", "api/mcp/notebook-tools", content=json.dumps({"mode": "read"}))  # what the consent page offers
    kernel = lab.serving(NOTEBOOK, [WHOAMI])
    url = lab.url("mcp", token=False)
    storage = MemoryStorage()
    try:
        with callback_server() as callback:
            # The client's first request gets a 401: it sends the browser to sign in, meanwhile the user acts.
            user = asyncio.ensure_future(log_in_and_allow(lab_page, lab, artifacts))
            provider = browser_provider(url, page, callback, storage)
            async with oauth_client(url, provider, mode="auto") as client:
                await user
                await expect(page.get_by_text("You can close this window.")).to_be_visible(timeout=SLOW)
                listed = await client.list_tools()
                assert {tool.name for tool in listed.tools if not tool.name.startswith("jupyter_")} == {"sales_whoami"}
                answer = await client.call_tool("sales_whoami", {})
                assert answer.structured_content == {"result": NOTEBOOK}

        # A fresh layout (the lab is shared: an earlier test's workspace may have the sidebar open, and a click on
        # its tab would then close it).
        await page.goto(lab.url("lab?reset"))
        tab = page.locator(".jp-SideBar [data-id='jupyter-mcp-tools']")
        await tab.wait_for(timeout=SLOW)
        if "lm-mod-current" not in (await tab.get_attribute("class") or ""):
            await tab.click(timeout=SLOW)
        apps = page.locator("#jupyter-mcp-tools .jp-MCP-connected")
        item = apps.locator(".jp-MCP-app").filter(has_text="Desk Agent")
        await expect(item).to_be_visible(timeout=SLOW)
        await expect(item.locator(".jp-MCP-app-grant")).to_have_text(
            "every tool\u00a0· every notebook\u00a0· notebook tools: read"
        )
        await expect(item.locator(".jp-MCP-app-use")).to_contain_text("used just now")
        for theme in ("JupyterLab Dark", "JupyterLab Light"):
            await lab_page.set_theme(theme)
            await expect(item).to_be_visible(timeout=SLOW)
            await assert_clean(apps, f"Connected apps, {theme}")
        keep(await lab_page.screenshot(apps, artifacts / "connected-apps.png"), "connected-apps.png")

        await item.get_by_role("button", name="Revoke").click()
        await page.locator(".jp-Dialog").get_by_role("button", name="Revoke").click()
        await expect(item).to_have_count(0, timeout=SLOW)
        assert storage.tokens is not None
        headers = {"Authorization": f"Bearer {storage.tokens.access_token}", "Accept": "application/json"}
        async with httpx2.AsyncClient() as http:
            refused = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=headers)
        assert refused.status_code == 401
    finally:
        kernel.client.stop_channels()
        lab.close_sessions(NOTEBOOK)
