"""``jupyter-mcp config``: exact client configs, and a safe merge into Claude Desktop's file."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest

from jupyter_mcp import discovery
from jupyter_mcp.discovery import ServerInfo, ToolSummary
from tests.cli.conftest import BIN, JUPYTER_MCP, cli

NOTEBOOK = "/home/me/My Analysis.ipynb"
URL = "http://127.0.0.1:5001/mcp"


@pytest.fixture
def live(runtime_dir: Path) -> ServerInfo:
    info = ServerInfo(URL, "s3cret", os.getpid(), "1a2b3c4d-5e6f", NOTEBOOK, [ToolSummary("add")], 1.0)
    discovery.write(info, runtime_dir)
    return info


def test_claude_entry_starts_connect_with_the_notebook(live: ServerInfo, runtime_dir: Path) -> None:
    result = cli("config", "claude", runtime=runtime_dir)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"mcpServers": {"my-analysis": entry(runtime_dir, "connect", NOTEBOOK)}}


def test_claude_entry_for_a_notebook_that_is_not_running(runtime_dir: Path, tmp_path: Path) -> None:
    result = cli(
        "config",
        "claude",
        "later.ipynb",
        "--name",
        "later",
        "--command",
        "jupyter-mcp",
        runtime=runtime_dir,
        env={"PATH": f"{BIN}:/usr/bin:/bin"},
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    # --command found on PATH is printed by absolute path: the client's PATH is not this shell's.
    assert json.loads(result.stdout) == {
        "mcpServers": {"later": entry(runtime_dir, "connect", str(tmp_path / "later.ipynb"))}
    }


def test_command_must_be_found(runtime_dir: Path, tmp_path: Path) -> None:
    result = cli("config", "claude", "later.ipynb", "--command", "no-such-jupyter-mcp", runtime=runtime_dir)
    assert (result.returncode, result.stderr) == (
        1,
        "jupyter-mcp: --command: 'no-such-jupyter-mcp' is not an executable file (nor found on PATH)\n",
    )


def test_claude_entry_for_a_kernel_without_a_notebook(runtime_dir: Path) -> None:
    info = ServerInfo(URL, "s3cret", os.getpid(), "9f8e7d6c-0000", None, [], 1.0)
    discovery.write(info, runtime_dir)
    result = cli("config", "claude", "9f8e", runtime=runtime_dir)
    assert json.loads(result.stdout) == {
        "mcpServers": {"kernel-9f8e7d6c": entry(runtime_dir, "connect", "9f8e7d6c-0000")}
    }


def test_vscode_and_cursor_entries_carry_url_and_token(live: ServerInfo, runtime_dir: Path) -> None:
    vscode = cli("config", "vscode", "My Analysis.ipynb", runtime=runtime_dir)
    assert json.loads(vscode.stdout) == {
        "servers": {"my-analysis": {"type": "http", "url": URL, "headers": {"Authorization": "Bearer s3cret"}}}
    }
    cursor = cli("config", "cursor", "1a2b", runtime=runtime_dir)
    assert json.loads(cursor.stdout) == {
        "mcpServers": {"my-analysis": {"url": URL, "headers": {"Authorization": "Bearer s3cret"}}}
    }


def test_inspector_prints_a_command_line(live: ServerInfo, runtime_dir: Path) -> None:
    result = cli("config", "inspector", runtime=runtime_dir)
    assert shlex.split(result.stdout) == [
        "npx", "@modelcontextprotocol/inspector", "--cli", URL, "--transport", "http",
        "--header", "Authorization: Bearer s3cret", "--method", "tools/list",
    ]  # fmt: skip


def test_http_clients_need_a_live_server(runtime_dir: Path) -> None:
    result = cli("config", "vscode", "later.ipynb", runtime=runtime_dir)
    assert result.returncode == 1
    assert result.stderr.startswith("jupyter-mcp: no notebook is serving MCP tools right now")
    assert "HTTP clients need a live server's URL and token" in result.stderr
    assert "JUPYTER_MCP_PORT and JUPYTER_MCP_TOKEN" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["vscode", "--install"],
            "jupyter-mcp: --install, --mcpb, --config-file and --command are for the claude client only\n",
        ),
        (["claude", "--config-file", "x.json"], "jupyter-mcp: --config-file goes with --install\n"),
        (["claude", "notes.txt"], "jupyter-mcp: 'notes.txt' is not a notebook: a notebook target ends in .ipynb\n"),
    ],
)
def test_bad_options_get_a_specific_error(runtime_dir: Path, args: list[str], message: str) -> None:
    result = cli("config", *args, runtime=runtime_dir)
    assert (result.returncode, result.stderr) == (1, message)


def test_unknown_client_is_a_usage_error(runtime_dir: Path) -> None:
    result = cli("config", "emacs", runtime=runtime_dir)
    assert result.returncode == 2
    assert result.stderr.endswith(
        "error: argument CLIENT: invalid choice: 'emacs' (choose from 'claude', 'vscode', 'cursor', 'inspector')\n"
    )


# ---- --install --------------------------------------------------------------------------------------

OTHERS = {
    "globalShortcut": "Ctrl+Space",
    "mcpServers": {
        "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
        "weather": {"command": "uvx", "args": ["weather-mcp"], "env": {"API_KEY": "k"}},
    },
}


def entry(runtime: Path, *args: str) -> dict[str, object]:
    """A Claude Desktop entry: this jupyter-mcp by absolute path, the runtime dir its discovery files are in."""
    return {"command": JUPYTER_MCP, "args": list(args), "env": {"JUPYTER_RUNTIME_DIR": str(runtime)}}


def backups(config: Path) -> list[Path]:
    return sorted(config.parent.glob(f"{config.name}.*.bak"))


def test_install_merges_without_touching_other_servers(live: ServerInfo, runtime_dir: Path, tmp_path: Path) -> None:
    config = tmp_path / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir()
    config.write_text(json.dumps(OTHERS, indent=4))
    original = config.read_text()

    result = cli("config", "claude", "--install", "--config-file", str(config), runtime=runtime_dir)

    assert result.returncode == 0, result.stderr
    (backup,) = backups(config)
    assert backup.read_text() == original
    assert result.stdout == (
        f"Added server 'my-analysis' in {config} (backup: {backup}). Restart Claude Desktop to use it.\n"
    )
    merged = json.loads(config.read_text())
    assert merged == {
        **OTHERS,
        "mcpServers": {**OTHERS["mcpServers"], "my-analysis": entry(runtime_dir, "connect", NOTEBOOK)},
    }

    again = cli("config", "claude", "--install", "--config-file", str(config), runtime=runtime_dir)
    assert again.stdout == f"{config} already has this entry for 'my-analysis'; nothing to do.\n"
    assert len(backups(config)) == 1


@pytest.mark.parametrize(
    "stale",
    [
        {"command": "/old/venv/bin/jupyter-mcp", "args": ["connect", "/old/path.ipynb"]},
        {"command": "/old/venv/bin/python", "args": ["-m", "jupyter_mcp", "connect", "--url", "http://h/mcp"]},
    ],
    ids=["script", "python-m"],
)
def test_install_updates_its_own_entry(
    live: ServerInfo, runtime_dir: Path, tmp_path: Path, stale: dict[str, object]
) -> None:
    config = tmp_path / "claude.json"
    config.write_text(json.dumps({"mcpServers": {**OTHERS["mcpServers"], "my-analysis": stale}}))

    result = cli("config", "claude", "--install", runtime=runtime_dir, env={"JUPYTER_MCP_CLAUDE_CONFIG": str(config)})

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Updated server 'my-analysis' in {config} (backup: ")
    assert json.loads(config.read_text())["mcpServers"] == {
        **OTHERS["mcpServers"],
        "my-analysis": entry(runtime_dir, "connect", NOTEBOOK),
    }


def test_install_creates_a_missing_file(live: ServerInfo, runtime_dir: Path, tmp_path: Path) -> None:
    config = tmp_path / "fresh" / "Claude" / "claude_desktop_config.json"
    result = cli("config", "claude", "--install", "--config-file", str(config), runtime=runtime_dir)
    assert result.returncode == 0, result.stderr
    assert json.loads(config.read_text()) == {"mcpServers": {"my-analysis": entry(runtime_dir, "connect", NOTEBOOK)}}
    assert config.stat().st_mode & 0o777 == 0o600
    assert backups(config) == []


def test_install_never_clobbers_a_foreign_server(live: ServerInfo, runtime_dir: Path, tmp_path: Path) -> None:
    config = tmp_path / "claude.json"
    foreign = {"command": "python", "args": ["-m", "other_mcp", "connect"]}
    config.write_text(json.dumps({"mcpServers": {"my-analysis": foreign}}))
    before = config.read_text()

    result = cli("config", "claude", "--install", "--config-file", str(config), runtime=runtime_dir)

    assert result.returncode == 1
    assert "already has a server named 'my-analysis' that is not a jupyter-mcp entry" in result.stderr
    assert "--name" in result.stderr
    assert config.read_text() == before
    renamed = cli("config", "claude", "--install", "--name", "nb", "--config-file", str(config), runtime=runtime_dir)
    assert renamed.returncode == 0, renamed.stderr
    assert set(json.loads(config.read_text())["mcpServers"]) == {"my-analysis", "nb"}


def test_install_refuses_a_broken_config_file(live: ServerInfo, runtime_dir: Path, tmp_path: Path) -> None:
    config = tmp_path / "claude.json"
    config.write_text('{"mcpServers": {')
    result = cli("config", "claude", "--install", "--config-file", str(config), runtime=runtime_dir)
    assert result.returncode == 1
    assert result.stderr.startswith(f"jupyter-mcp: {config} is not valid JSON (")
    assert result.stderr.endswith("; fix it first, nothing was changed\n")
    assert config.read_text() == '{"mcpServers": {'
    assert backups(config) == []
