"""Without a TARGET while several notebooks serve: ``connect``, ``config`` and ``list`` use their Jupyter
server's ``/mcp`` (a real ``jupyter lab`` process, real kernels, the real ``jupyter-mcp`` command)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.lab import JupyterLab
from tests.cli.conftest import cli, stdio_client
from tests.conftest import NOTEBOOK_TOOLS, header_client

pytestmark = pytest.mark.timeout(300)

TOOLS = '''%%mcp_tool
def whoami() -> str:
    """Say which notebook answers."""
    return NOTEBOOK
'''
NOTEBOOKS = ("sales.ipynb", "ops/report.ipynb")
NAMES = {"sales_whoami", "report_whoami", *NOTEBOOK_TOOLS}
"""What a client at ``/mcp`` sees: each notebook's tool under its prefix, and the notebook tools."""


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterLab]:
    with JupyterLab.started(tmp_path_factory.mktemp("lab"), base_url="/my-lab/") as running:
        kernels = [running.serving(path, [TOOLS]) for path in NOTEBOOKS]
        try:
            yield running
        finally:
            for kernel in kernels:
                kernel.client.stop_channels()


def test_config_without_a_target_is_one_entry_for_every_notebook(lab: JupyterLab) -> None:
    done = cli("config", "vscode", runtime=lab.runtime_dir)
    assert done.returncode == 0, done.stderr
    ((name, entry),) = json.loads(done.stdout)["servers"].items()
    assert name == "jupyter-notebooks"
    assert entry["url"] == f"http://127.0.0.1:{lab.port}/my-lab/mcp"
    assert entry["headers"] == {"Authorization": f"token {lab.token}"}


async def test_the_printed_config_reaches_every_notebook(lab: JupyterLab, mode: str) -> None:
    entry: dict[str, Any] = json.loads(cli("config", "cursor", runtime=lab.runtime_dir).stdout)["mcpServers"][
        "jupyter-notebooks"
    ]
    async with header_client(entry["url"], entry["headers"], mode=mode) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == NAMES
        answer = await client.call_tool("report_whoami", {})
        assert answer.structured_content == {"result": "ops/report.ipynb"}


async def test_connect_without_a_target_bridges_to_every_notebook(lab: JupyterLab, mode: str) -> None:
    async with stdio_client(["connect"], lab.runtime_dir, mode) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == NAMES
        for path, name in (("sales.ipynb", "sales_whoami"), ("ops/report.ipynb", "report_whoami")):
            assert (await client.call_tool(name, {})).structured_content == {"result": path}


def test_claude_config_starts_connect_on_the_jupyter_route(lab: JupyterLab) -> None:
    done = cli("config", "claude", runtime=lab.runtime_dir)
    entry = json.loads(done.stdout)["mcpServers"]["jupyter-notebooks"]
    assert entry["args"][-3:-1] == ["connect", "--url"]
    assert entry["args"][-1].endswith("/mcp")
    assert entry["env"] == {"JUPYTER_MCP_TOKEN": lab.token}


def test_list_shows_the_names_clients_see(lab: JupyterLab) -> None:
    done = cli("list", runtime=lab.runtime_dir, env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    url = f"http://127.0.0.1:{lab.port}/my-lab/mcp"
    lines = {block.splitlines()[0]: block.splitlines() for block in done.stdout.strip().split("\n\n")}
    (sales,) = (block for title, block in lines.items() if title.endswith("/root/sales.ipynb"))
    (report,) = (block for title, block in lines.items() if title.endswith("/root/ops/report.ipynb"))
    assert "  at /mcp   sales_whoami" in sales  # the notebook's tools as clients of /mcp see them
    assert "  at /mcp   report_whoami" in report
    assert done.stdout.strip().endswith(
        f"Every notebook's tools at one address: {url} (jupyter-mcp config CLIENT prints its config)"
    )
    records = json.loads(cli("list", "--json", runtime=lab.runtime_dir).stdout)
    union_fields = {(r["union_prefix"], tuple(r["union_tools"]), r["union_url"]) for r in records}
    assert union_fields == {("sales", ("sales_whoami",), url), ("report", ("report_whoami",), url)}
