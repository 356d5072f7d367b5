"""``GET /api/mcp/config`` (what the sidebar's copy buttons copy), used exactly as printed, when the
Jupyter server's token is one a command line misreads."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import anyio
import pytest
from traitlets.config import Config

from tests.cli.conftest import JUPYTER_MCP, ODD_TOKENS, client_from_config, inspector
from tests.conftest import header_client
from tests.serverext.conftest import Notebook
from tests.serverext.test_proxy import TOOLS


@pytest.fixture(params=ODD_TOKENS)
def jupyter_token(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def jp_server_config(mcp_settings: dict[str, Any], jupyter_token: str) -> Config:
    return Config(
        {
            "ServerApp": {"jpserver_extensions": {"jupyter_mcp": True}},
            "IdentityProvider": {"token": jupyter_token},
            "MCPExtensionApp": mcp_settings,
        }
    )


async def config_of(jp_fetch: Any, client: str, notebook: str) -> dict[str, Any]:
    reply = await jp_fetch("api", "mcp", "config", params={"client": client, "notebook": notebook})
    return dict(json.loads(reply.body)["config"])


async def test_every_config_reaches_the_notebook(
    jp_fetch: Any, notebook: Notebook, jupyter_token: str, tmp_path: Path
) -> None:
    await notebook.run(TOOLS)
    await notebook.run("x = 'configured'")

    (claude,) = (await config_of(jp_fetch, "claude", notebook.path))["mcpServers"].values()
    assert claude["command"] == JUPYTER_MCP  # the Jupyter server's own, by absolute path
    assert jupyter_token not in claude["args"]
    assert claude["env"] == {"JUPYTER_MCP_TOKEN": jupyter_token}
    home = tmp_path / "client-home"  # pytest-jupyter uses tmp_path/home
    home.mkdir()
    with (tmp_path / "stderr.txt").open("w") as errlog:
        async with client_from_config(claude, home, errlog) as client:
            assert (await client.call_tool("get_var", {"name": "x"})).structured_content == {"result": "'configured'"}

    vscode = (await config_of(jp_fetch, "vscode", notebook.path))["servers"]
    cursor = (await config_of(jp_fetch, "cursor", notebook.path))["mcpServers"]
    for entry in (*vscode.values(), *cursor.values()):
        assert entry["headers"] == {"Authorization": f"token {jupyter_token}"}
        async with header_client(entry["url"], entry["headers"], mode="auto") as client:
            assert [t.name for t in (await client.list_tools()).tools] == ["get_var"]

    command = shlex.split((await config_of(jp_fetch, "inspector", notebook.path))["command"])
    listed = await _inspector(command[3:], tmp_path)
    assert [t["name"] for t in listed["tools"]] == ["get_var"]


async def _inspector(args: list[str], cwd: Path) -> Any:
    """The Inspector in a worker thread: the Jupyter server it talks to runs on this test's loop."""
    result = await anyio.to_thread.run_sync(lambda: inspector(*args, cwd=cwd))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
