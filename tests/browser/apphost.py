"""The MCP Apps host page of the browser tests (``apphost/host.js``: the official ``AppBridge`` and MCP
client), bundled once per session with the esbuild pinned in ``tests/node``, and served at the MCP
server's own origin through Playwright's routing (the page then reaches ``/mcp`` without CORS).

``await open_app(page, url, token, tool, theme=..., mode=...)`` opens a tool's app and returns the
frame's locator root; ``page.evaluate("host.call(args)")`` and the others drive it (see host.js).
"""

from __future__ import annotations

import functools
import subprocess
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import FrameLocator, Page, Route

HERE = Path(__file__).resolve().parent
NODE = HERE.parent / "node"
PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>MCP Apps host</title><style>
:root { color-scheme: light; }
body { margin: 0; padding: 16px; font-family: 'DejaVu Sans', sans-serif; background: light-dark(#fafafa, #0a0a0a); }
#chat { max-width: 760px; }
</style></head><body><div id="chat"></div><script>%s</script></body></html>"""


@functools.cache
def bundle() -> str:
    """host.js with AppBridge and the MCP client, as one script (built into a temporary directory)."""
    esbuild = NODE / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        raise RuntimeError(f"{esbuild} is missing: run ./dev.sh test (it installs tests/node)")
    with tempfile.TemporaryDirectory() as out:
        target = Path(out) / "host.js"
        subprocess.run(
            [
                str(esbuild),
                str(HERE / "apphost" / "host.js"),
                "--bundle",
                "--format=iife",
                "--platform=browser",
                f"--outfile={target}",
                "--log-level=warning",
            ],
            check=True,
            cwd=NODE,
            env={"NODE_PATH": str(NODE / "node_modules"), "PATH": str(NODE / "node_modules" / ".bin")},
            timeout=120,
        )
        return target.read_text()


async def open_app(
    page: Page, url: str, token: str, tool: str, *, theme: str = "light", mode: str = "auto"
) -> tuple[FrameLocator, dict[str, Any]]:
    """Open ``tool``'s app on a host page at the server's origin; returns its frame and what was read."""
    parts = urlsplit(url)
    host_url = f"{parts.scheme}://{parts.netloc}/apphost-{tool}"
    html = PAGE % bundle().replace("</script", "<\\/script")

    async def serve(route: Route) -> None:
        await route.fulfill(status=200, content_type="text/html", body=html)

    await page.route(host_url, serve)
    await page.goto(host_url)
    await page.evaluate("theme => { document.documentElement.style.colorScheme = theme }", theme)
    opened: dict[str, Any] = await page.evaluate(
        "options => host.open(options)", {"url": url, "token": token, "mode": mode, "tool": tool, "theme": theme}
    )
    return page.frame_locator("iframe#app"), opened
