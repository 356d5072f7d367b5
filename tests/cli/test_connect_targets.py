"""``jupyter-mcp connect`` without a kernel to reach: bad options and targets it cannot find, one sentence each."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jupyter_mcp import discovery
from jupyter_mcp.discovery import ServerInfo
from tests.cli.conftest import (
    cli,
)


def fake_server(runtime: Path, kernel_id: str, notebook: str | None) -> ServerInfo:
    info = ServerInfo("http://127.0.0.1:9/mcp", "t", os.getpid(), kernel_id, notebook, [], 1.0)
    discovery.write(info, runtime)
    return info


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--token", "t"], "--token goes with --url (a TARGET's token comes from its discovery file)"),
        (["x.ipynb", "--url", "http://127.0.0.1:1/mcp"], "give either TARGET or --url, not both"),
        (["--url", "ftp://example.com/mcp"], "--url: not an http(s) URL: 'ftp://example.com/mcp'"),
        (["--url", "http://127.0.0.1:99999/mcp"], "--url: bad port in URL 'http://127.0.0.1:99999/mcp'"),
    ],
)
def test_connect_refuses_bad_options(runtime_dir: Path, args: list[str], message: str) -> None:
    result = cli("connect", *args, runtime=runtime_dir)
    assert (result.returncode, result.stderr, result.stdout) == (1, f"jupyter-mcp: {message}\n", "")


def test_connect_needs_a_target_it_can_find(runtime_dir: Path) -> None:
    nothing = cli("connect", runtime=runtime_dir)
    assert nothing.returncode == 1
    assert nothing.stderr.startswith("jupyter-mcp: no notebook is serving MCP tools right now")
    fake_server(runtime_dir, "aaaa1111", "/n/a.ipynb")
    fake_server(runtime_dir, "bbbb2222", None)
    several = cli("connect", runtime=runtime_dir)
    assert several.returncode == 1
    assert several.stderr == (
        "jupyter-mcp: 2 notebooks serve tools; name one as TARGET:\n"
        "  /n/a.ipynb (kernel aaaa1111)  http://127.0.0.1:9/mcp\n"
        "  kernel bbbb2222  http://127.0.0.1:9/mcp\n"
    )
    unknown = cli("connect", "cccc", runtime=runtime_dir)
    assert unknown.returncode == 1
    assert unknown.stderr.startswith("jupyter-mcp: no live server matches kernel cccc. Live servers:\n")
