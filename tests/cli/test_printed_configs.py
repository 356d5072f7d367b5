"""Every client config the kernel, its panel and ``jupyter-mcp config`` print, used exactly as printed.

Stdio entries are started as a desktop client starts them (command + args + env under
``env -i PATH=/usr/bin:/bin HOME=<new dir>``); HTTP entries send their headers as given; the
Inspector command line runs. The kernel's token is a command-line troublemaker each time.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import sysconfig
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp.clientconfig import CLIENTS, stdio_command
from tests.cli.conftest import (
    ADD_TOOL,
    JUPYTER_MCP,
    ODD_TOKENS,
    cli,
    client_from_config,
    inspector,
    start_notebook_kernel,
)
from tests.conftest import header_client
from tests.harness import Kernel

INSPECTOR_PREFIX = ["npx", "@modelcontextprotocol/inspector", "--cli"]


@pytest.fixture(params=ODD_TOKENS)
def pinned_kernel(request: pytest.FixtureRequest, runtime_dir: Path, notebook_path: str) -> Iterator[Kernel]:
    kernel = start_notebook_kernel(runtime_dir, notebook_path, [ADD_TOOL], {"JUPYTER_MCP_TOKEN": request.param})
    try:
        yield kernel
    finally:
        kernel.shutdown()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The empty home a desktop client's server starts in."""
    path = tmp_path / "home"
    path.mkdir()
    return path


async def lists_add(entry: dict[str, Any], home: Path, errlog: Path) -> None:
    """Start a stdio entry as a client does; it must list and call ``add``."""
    with errlog.open("w") as log:
        async with client_from_config(entry, home, log) as client:
            assert [t.name for t in (await client.list_tools()).tools] == ["add"]
            assert (await client.call_tool("add", {"a": 20, "b": 22})).structured_content == {"result": 42}


async def use_all(configs: dict[str, Any], token: str, home: Path, tmp_path: Path) -> None:
    """Use each client's config as that client would; no token on any stdio command line."""
    (claude,) = configs["claude"]["mcpServers"].values()
    assert token not in json.dumps(claude)  # connect TARGET reads it from the discovery file
    await lists_add(claude, home, tmp_path / "claude-stderr.txt")
    for entry in (*configs["vscode"]["servers"].values(), *configs["cursor"]["mcpServers"].values()):
        assert entry["headers"] == {"Authorization": f"Bearer {token}"}
        async with header_client(entry["url"], entry["headers"], mode="auto") as client:
            assert [t.name for t in (await client.list_tools()).tools] == ["add"]
    command = shlex.split(configs["inspector"]["command"])
    assert command[:3] == INSPECTOR_PREFIX
    listed = inspector(*command[3:], cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert [t["name"] for t in json.loads(listed.stdout)["tools"]] == ["add"]


async def test_the_kernels_and_its_panels_configs_work(pinned_kernel: Kernel, home: Path, tmp_path: Path) -> None:
    pinned_kernel.run("from jupyter_mcp.widgets.connection import config_text")
    token = pinned_kernel.value("server.token")
    configs = {client: pinned_kernel.value(f"server.client_config({client!r})") for client in CLIENTS}
    for client in CLIENTS:  # the panel shows (and copies) exactly these
        shown = pinned_kernel.value(f"config_text(server, {client!r})")
        assert shown == (configs[client]["command"] if client == "inspector" else json.dumps(configs[client], indent=2))
    (claude,) = configs["claude"]["mcpServers"].values()
    assert claude["command"] == JUPYTER_MCP  # next to the kernel's Python, by absolute path
    await use_all(configs, token, home, tmp_path)


async def test_the_cli_configs_work(pinned_kernel: Kernel, runtime_dir: Path, home: Path, tmp_path: Path) -> None:
    token = pinned_kernel.value("server.token")
    printed = {client: cli("config", client, runtime=runtime_dir) for client in CLIENTS}
    assert all(result.returncode == 0 for result in printed.values()), {c: r.stderr for c, r in printed.items()}
    configs = {client: json.loads(result.stdout) for client, result in printed.items() if client != "inspector"}
    configs["inspector"] = {"command": printed["inspector"].stdout.strip()}
    await use_all(configs, token, home, tmp_path)


# ---- no jupyter-mcp script next to the interpreter: python -m jupyter_mcp -------------------------------


def python_without_script(directory: Path) -> Path:
    """A venv whose Python imports this jupyter_mcp (a .pth adds our site-packages) but has no jupyter-mcp script."""
    venv.create(directory, with_pip=False, symlinks=True)
    python = directory / "bin" / "python"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    pth = directory / "lib" / version / "site-packages" / "_ours.pth"
    pth.write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    assert not (directory / "bin" / "jupyter-mcp").exists()
    return python


def python_m(python: Path, *args: str, runtime: Path) -> subprocess.CompletedProcess[str]:
    """``PYTHON -m jupyter_mcp ARGS`` to completion."""
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime)}
    command = [str(python), "-m", "jupyter_mcp", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_stdio_command_is_the_script_next_to_the_interpreter_else_python_m(tmp_path: Path) -> None:
    assert stdio_command() == (JUPYTER_MCP,)
    assert stdio_command(sys.executable) == (JUPYTER_MCP,)
    lone = tmp_path / "bin" / "python3"
    assert stdio_command(str(lone)) == (str(lone), "-m", "jupyter_mcp")


@pytest.mark.parametrize("pinned_kernel", ODD_TOKENS[:1], indirect=True)
async def test_python_m_jupyter_mcp_prints_and_serves_a_config(
    pinned_kernel: Kernel, runtime_dir: Path, home: Path, tmp_path: Path
) -> None:
    python = python_without_script(tmp_path / "scriptless")
    printed = python_m(python, "config", "claude", runtime=runtime_dir)
    assert printed.returncode == 0, printed.stderr
    (entry,) = json.loads(printed.stdout)["mcpServers"].values()
    notebook = pinned_kernel.value("server.notebook_path")
    assert entry == {
        "command": str(python),
        "args": ["-m", "jupyter_mcp", "connect", notebook],
        "env": {"JUPYTER_RUNTIME_DIR": str(runtime_dir)},
    }
    await lists_add(entry, home, tmp_path / "stderr.txt")
