"""``jupyter-mcp config claude --mcpb``: an MCP Bundle that the official tool (``mcpb``, pinned in tests/node)
validates and packs, whose command starts as Claude Desktop would start it and answers ``tools/list`` with each
tool's MCP App, in both eras, through ``jupyter-mcp connect``."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from jupyter_mcp.discovery import ServerInfo
from tests.cli.conftest import SYSTEM_PATH, cli
from tests.cli.test_config import live  # noqa: F401  (a live server in the discovery files)
from tests.harness import Kernel
from tests.tools.apps.test_apps import APPS

MCPB = Path(__file__).resolve().parents[1] / "node" / "node_modules" / ".bin" / "mcpb"


def mcpb(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    if not MCPB.exists():
        pytest.fail(f"{MCPB} is missing: run ./dev.sh test (it installs tests/node)")
    return subprocess.run(
        [str(MCPB), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def unpacked(bundle: Path, into: Path) -> dict[str, Any]:
    with zipfile.ZipFile(bundle) as archive:
        assert sorted(archive.namelist()) == ["manifest.json", "server/bridge.py"]
        archive.extractall(into)
    manifest: dict[str, Any] = json.loads((into / "manifest.json").read_text())
    return manifest


def test_the_bundle_validates_and_packs(live: ServerInfo, runtime_dir: Path, tmp_path: Path) -> None:  # noqa: F811
    result = cli("config", "claude", "--mcpb", runtime=runtime_dir, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    bundle = tmp_path / "jupyter-my-analysis.mcpb"
    assert result.stdout == f"Wrote {bundle.name}: open it (double-click) to install 'my-analysis' in Claude Desktop.\n"
    manifest = unpacked(bundle, tmp_path / "unpacked")
    assert manifest["server"] == {
        "type": "python",
        "entry_point": "server/bridge.py",
        "mcp_config": {
            "command": str(Path(sys.executable).absolute()),
            "args": ["${__dirname}/server/bridge.py"],
            "env": {"JUPYTER_RUNTIME_DIR": str(runtime_dir)},
        },
    }
    assert (manifest["manifest_version"], manifest["name"]) == ("0.3", "jupyter-my-analysis")
    checked = mcpb("validate", tmp_path / "unpacked" / "manifest.json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Manifest schema validation passes" in checked.stdout
    packed = mcpb("pack", tmp_path / "unpacked", tmp_path / "repacked.mcpb", cwd=tmp_path)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    info = mcpb("info", bundle, cwd=tmp_path)
    assert info.returncode == 0, info.stdout + info.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["config", "vscode", "--mcpb"],
            "--install, --mcpb, --config-file and --command are for the claude client only",
        ),
        (["config", "claude", "-o", "x.mcpb"], "--output goes with --mcpb"),
        (
            ["config", "claude", "--mcpb", "--install"],
            "--mcpb and --install are two ways to add the server: choose one",
        ),
        (["config", "claude", "--mcpb", "-o", "x.zip"], "--output x.zip: a bundle's file name ends in .mcpb"),
    ],
)
def test_bad_bundle_options_are_one_line_errors(
    live: ServerInfo,  # noqa: F811
    runtime_dir: Path,
    tmp_path: Path,
    args: list[str],
    message: str,
) -> None:
    result = cli(*args, runtime=runtime_dir, cwd=tmp_path)
    assert result.returncode != 0
    assert result.stderr.startswith(f"jupyter-mcp: {message}"), result.stderr


async def test_the_bundles_command_starts_and_lists_the_tools_with_their_apps(
    notebook_kernel: Kernel, runtime_dir: Path, notebook_path: str, tmp_path: Path, mode: str
) -> None:
    bundle = tmp_path / "analysis.mcpb"
    result = cli("config", "claude", notebook_path, "--mcpb", "-o", str(bundle), runtime=runtime_dir, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    home, where = tmp_path / "home", tmp_path / "installed"
    home.mkdir()
    config = unpacked(bundle, where)["server"]["mcp_config"]
    args = [arg.replace("${__dirname}", str(where)) for arg in config["args"]]
    # As a desktop client starts it: nothing from this shell but what the manifest says.
    env = ["-i", f"PATH={SYSTEM_PATH}", f"HOME={home}", *(f"{k}={v}" for k, v in config["env"].items())]
    params = StdioServerParameters(command="/usr/bin/env", args=[*env, config["command"], *args], cwd="/")
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode=mode, extensions=[APPS]) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            document = await client.read_resource("ui://jupyter-mcp/tool/add")
    assert {"add", "crunch"} <= set(tools)
    assert (tools["add"].meta or {})["ui"] == {"resourceUri": "ui://jupyter-mcp/tool/add"}
    assert document.contents[0].mime_type == "text/html;profile=mcp-app"
