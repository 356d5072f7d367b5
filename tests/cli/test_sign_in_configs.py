"""``jupyter-mcp config CLIENT --sign-in``: configs with the URL only, for clients that sign in with Jupyter; and the
one for Claude Desktop run as it would be: ``mcp-remote`` (pinned in ``tests/node``) signs in, its "browser" opens the
authorization URL, the user allows it, and the client lists and calls tools through it (a real ``jupyter lab``)."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.browser.lab import JupyterLab
from tests.cli.conftest import cli
from tests.harness import NODE, free_port
from tests.oauth import Consent

pytestmark = pytest.mark.timeout(300)

MCP_REMOTE = Path(__file__).resolve().parents[1] / "node" / "node_modules" / "mcp-remote" / "dist" / "proxy.js"
TOOLS = '''%%mcp_tool
def whoami() -> str:
    """Say which notebook answers."""
    return NOTEBOOK
'''


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterLab]:
    with JupyterLab.started(tmp_path_factory.mktemp("lab"), base_url="/signed/") as running:
        kernel = running.serving("sales.ipynb", [TOOLS])
        try:
            yield running
        finally:
            kernel.client.stop_channels()


def test_sign_in_configs_carry_the_url_and_nothing_secret(lab: JupyterLab) -> None:
    url = f"http://127.0.0.1:{lab.port}/signed/mcp"
    printed = {
        kind: cli("config", kind, "--sign-in", runtime=lab.runtime_dir) for kind in ("vscode", "cursor", "claude")
    }
    assert all(done.returncode == 0 for done in printed.values()), {k: d.stderr for k, d in printed.items()}
    assert json.loads(printed["vscode"].stdout) == {"servers": {"jupyter-notebooks": {"type": "http", "url": url}}}
    assert json.loads(printed["cursor"].stdout) == {"mcpServers": {"jupyter-notebooks": {"url": url}}}
    assert json.loads(printed["claude"].stdout) == {
        "mcpServers": {"jupyter-notebooks": {"command": "npx", "args": ["-y", "mcp-remote", url]}}
    }
    inspector = cli("config", "inspector", "--sign-in", runtime=lab.runtime_dir).stdout.strip()
    assert inspector == f"npx @modelcontextprotocol/inspector --web --transport http --server-url {url}"
    for done in printed.values():
        assert lab.token not in done.stdout
    hub = "https://hub.example.org/user/alice/mcp"
    assert (
        json.loads(cli("config", "vscode", "--sign-in", hub, runtime=lab.runtime_dir).stdout)["servers"][
            "jupyter-notebooks"
        ]["url"]
        == hub
    )
    refused = cli("config", "vscode", "--sign-in", "sales.ipynb", runtime=lab.runtime_dir)
    assert refused.returncode != 0
    assert "--sign-in takes the URL of an MCP route" in refused.stderr


def recording_browser(folder: Path) -> tuple[Path, Path]:
    """A "browser" that only writes down each URL it is asked to open (mcp-remote's opener runs it)."""
    seen = folder / "opened.txt"
    script = folder / "browser.sh"
    script.write_text(f'#!/bin/sh\necho "$1" >> "{seen}"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, seen


def first_line(path: Path) -> str:
    return path.read_text().split("\n", 1)[0].strip() if path.exists() else ""


async def opened(seen: Path) -> str:
    """The first URL the browser was asked to open (waiting for it)."""
    async with asyncio.timeout(60):
        while not (url := await asyncio.to_thread(first_line, seen)):
            await asyncio.sleep(0.1)
    return url


async def test_mcp_remote_signs_in_as_claude_desktop_would_run_it(lab: JupyterLab, tmp_path: Path, mode: str) -> None:
    entry = json.loads(cli("config", "claude", "--sign-in", runtime=lab.runtime_dir).stdout)["mcpServers"]
    url = entry["jupyter-notebooks"]["args"][-1]
    browser, seen = recording_browser(tmp_path)
    callback_port = str(free_port())
    env = {
        **os.environ,
        "BROWSER": str(browser),
        "MCP_REMOTE_CONFIG_DIR": str(tmp_path / "auth"),
        "HOME": str(tmp_path),
    }
    params = StdioServerParameters(command=str(NODE), args=[str(MCP_REMOTE), url, callback_port], env=env)
    consent = Consent(lab.token)

    async def user() -> None:
        """The user's part: the page mcp-remote opened, Allow, and the browser coming back to mcp-remote."""
        location = await consent.visit(await opened(seen))
        async with httpx2.AsyncClient(timeout=30) as http:
            assert (await http.get(location)).status_code == 200

    with (tmp_path / "mcp-remote.log").open("w") as errlog:
        acting = asyncio.ensure_future(user())
        async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
            await acting
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {name for name in names if not name.startswith("jupyter_")} == {"sales_whoami"}
            answer = await client.call_tool("sales_whoami", {})
            assert answer.structured_content == {"result": "sales.ipynb"}
    assert "mcp-remote" in consent.pages[0].lower() or "Registered itself" in consent.pages[0]
    apps = lab.api("GET", "api/mcp/apps").json()
    assert any(app["resource"] == url for app in apps)
