"""``jupyter-mcp list``: live servers from the discovery files, exactly as printed."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import time
from pathlib import Path

from jupyter_mcp import discovery
from jupyter_mcp.cli.hub import HubServer
from jupyter_mcp.cli.listing import hub_table
from jupyter_mcp.discovery import PromptSummary, ResourceSummary, ServerInfo, ToolSummary
from tests.cli.conftest import BIN, cli
from tests.harness import Kernel

STARTED = 1_790_000_000.0


def live(kernel_id: str, notebook: str | None, port: int, tools: list[ToolSummary], started: float) -> ServerInfo:
    # Our own pid is alive, so readers keep the file.
    return ServerInfo(f"http://127.0.0.1:{port}/mcp", f"token-{port}", os.getpid(), kernel_id, notebook, tools, started)


def stamp(timestamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(timestamp))


def test_list_prints_live_servers_and_removes_stale_files(runtime_dir: Path) -> None:
    first = dataclasses.replace(
        live("1a2b3c4d-0000", "/home/me/analysis.ipynb", 5001, [ToolSummary("add"), ToolSummary("mul")], STARTED),
        resources=[ResourceSummary("data://cities", "cities"), ResourceSummary("data://t/{id}", "t", template=True)],
        prompts=[PromptSummary("review", enabled=False)],
    )
    second = live("9f8e7d6c-1111", None, 5002, [ToolSummary("peek", enabled=False)], STARTED + 60)
    for info in (first, second):
        discovery.write(info, runtime_dir)
    stale = ServerInfo("http://127.0.0.1:5003/mcp", "t", 2**22 + 12345, "deadbeef", None, [], STARTED)
    stale_file = discovery.write(stale, runtime_dir)

    result = cli("list", runtime=runtime_dir, env={"COLUMNS": "60"})

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "kernel 9f8e7d6c (no notebook)",
        "  url       http://127.0.0.1:5002/mcp",
        "  carrier   http",
        f"  kernel    9f8e7d6c, started {stamp(STARTED + 60)}",
        "  tools     peek (disabled)",
        "",
        "/home/me/analysis.ipynb",
        "  url       http://127.0.0.1:5001/mcp",
        "  carrier   http",
        f"  kernel    1a2b3c4d, started {stamp(STARTED)}",
        "  tools     add, mul",
        "  resources data://cities, data://t/{id}",
        "  prompts   review (disabled)",
    ]
    assert not stale_file.exists()


def test_list_fits_the_terminal(runtime_dir: Path) -> None:
    # Issue 23: `jupyter-mcp list` printed a table about 230 columns wide.
    tools = [ToolSummary(f"forecast_region_{i}") for i in range(20)]
    discovery.write(
        live("1a2b3c4d-0000", "/home/me/projects/quarterly sales/analysis.ipynb", 5001, tools, STARTED), runtime_dir
    )
    for columns in (40, 80):
        result = cli("list", runtime=runtime_dir, env={"COLUMNS": str(columns)})
        assert result.returncode == 0, result.stderr
        assert max(len(line) for line in result.stdout.splitlines()) <= columns, result.stdout
        assert "forecast_region_19" in result.stdout  # names are wrapped whole, never cut


def test_list_json_is_the_discovery_record_without_the_token(runtime_dir: Path) -> None:
    info = live("1a2b3c4d-0000", "/home/me/analysis.ipynb", 5001, [ToolSummary("add", "Add", "Adds.")], STARTED)
    discovery.write(info, runtime_dir)

    result = cli("list", "--json", runtime=runtime_dir)

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        {
            "url": "http://127.0.0.1:5001/mcp",
            "pid": os.getpid(),
            "kernel_id": "1a2b3c4d-0000",
            "notebook_path": "/home/me/analysis.ipynb",
            "tools": [
                {"name": "add", "title": "Add", "description": "Adds.", "enabled": True, "run_on": "worker", "tags": []}
            ],
            "started": STARTED,
            "version": "",
            "clients": 0,
            "calls": 0,
            "resources": [],
            "prompts": [],
            "name": None,
            "transport": "http",
        }
    ]
    assert "token-5001" not in result.stdout


def test_list_says_which_carrier_reaches_a_notebook(runtime_dir: Path) -> None:
    info = dataclasses.replace(live("5e6f7a8b-2222", "/home/me/pod.ipynb", 5004, [ToolSummary("add")], STARTED), url="")
    discovery.write(dataclasses.replace(info, transport="kernel"), runtime_dir)

    result = cli("list", runtime=runtime_dir, env={"COLUMNS": "80"})

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:4] == [
        "/home/me/pod.ipynb",
        "  url       none (the kernel opens no port)",
        "  route     <jupyter url>/mcp/notebooks/<path>",
        "  carrier   kernel",
    ]
    (record,) = json.loads(cli("list", "--json", runtime=runtime_dir).stdout)
    assert (record["transport"], record["url"]) == ("kernel", "")


def test_list_says_when_nothing_serves(runtime_dir: Path) -> None:
    result = cli("list", runtime=runtime_dir)
    assert result.returncode == 0
    assert result.stdout == f"No notebook is serving MCP tools (no live discovery file in {runtime_dir}).\n"
    assert json.loads(cli("list", "--json", runtime=runtime_dir).stdout) == []


def test_list_sees_a_real_kernel(runtime_dir: Path, notebook_kernel: Kernel, notebook_path: str) -> None:
    (record,) = json.loads(cli("list", "--json", runtime=runtime_dir).stdout)
    assert record["kernel_id"] == notebook_kernel.kernel_id
    assert record["notebook_path"] == notebook_path
    assert record["url"] == notebook_kernel.value("server.url")
    assert [t["name"] for t in record["tools"]] == ["add", "crunch"]


def test_jupyter_finds_the_mcp_subcommand(runtime_dir: Path) -> None:
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime_dir), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        [str(BIN / "jupyter"), "mcp", "list", "--json"],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def students(count: int) -> list[HubServer]:
    return [
        HubServer(
            user=f"student{i:02d}",
            notebook_path=f"stats/week {i}/exercises.ipynb",
            kernel_id=f"{i:08x}-0000",
            url=f"https://hub.example.org/user/student{i:02d}/mcp/notebooks/stats/week%20{i}/exercises.ipynb",
            tools=["load_dataset", "summarize_column", "plot_histogram", "fit_regression"][: 1 + i % 4],
            clients=i % 3,
            calls=17 * i,
        )
        for i in range(1, count + 1)
    ]


def test_list_hub_fits_an_80_column_terminal() -> None:
    # Issue 34: `jupyter-mcp list --hub` drew a table about 160 columns wide.
    servers = students(3)
    assert hub_table(servers, 80).splitlines()[:8] == [
        "USER       NOTEBOOK                      TOOLS              CLIENTS  CALLS",
        "student01  stats/week 1/exercises.ipynb  load_dataset,      1        17",
        "                                         summarize_column",
        "  https://hub.example.org/user/student01/mcp/notebooks/stats/week%201/exercises.ipynb",
        "student02  stats/week 2/exercises.ipynb  load_dataset,      2        34",
        "                                         summarize_column,",
        "                                         plot_histogram",
        "  https://hub.example.org/user/student02/mcp/notebooks/stats/week%202/exercises.ipynb",
    ]
    narrow = hub_table(servers, 64).splitlines()
    assert max(len(line) for line in narrow if not line.startswith("  https://")) <= 64, "\n".join(narrow)
    assert narrow[:3] == [  # a path breaks after a folder, never inside a name
        "USER       NOTEBOOK         TOOLS              CLIENTS  CALLS",
        "student01  stats/week 1/    load_dataset,      1        17",
        "           exercises.ipynb  summarize_column",
    ]
    wide = hub_table(servers, 240).splitlines()
    assert wide[0].split() == ["USER", "NOTEBOOK", "TOOLS", "CLIENTS", "CALLS", "URL"]
    assert len(wide) == 4  # a table that fits keeps one line per notebook


def test_plain_list_fits_an_80_column_terminal_with_a_kernel_carrier(runtime_dir: Path) -> None:
    tools = [ToolSummary(f"forecast_region_{i}") for i in range(8)]
    info = live("5e6f7a8b-2222", "/home/me/projects/quarterly sales/pod.ipynb", 5004, tools, STARTED)
    discovery.write(dataclasses.replace(info, url="", transport="kernel"), runtime_dir)
    result = cli("list", runtime=runtime_dir, env={"COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= 80, result.stdout
