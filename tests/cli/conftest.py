"""CLI fixtures: the real ``jupyter-mcp`` command, real kernels, real stdio clients."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import nbformat
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client as sdk_stdio_client

from tests.harness import NODE, Kernel
from tests.kernel.conftest import runtime_dir

__all__ = ["runtime_dir"]

BIN = Path(sys.executable).parent
JUPYTER_MCP = str(BIN / "jupyter-mcp")
INSPECTOR = Path(__file__).resolve().parents[1] / "node" / "node_modules" / ".bin" / "mcp-inspector"

ADD_TOOL = '''%%mcp_tool
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b
'''

PROGRESS_TOOL = '''%%mcp_tool
async def crunch(n: int, ctx: jupyter_mcp.Context) -> int:
    """Reports progress and logs."""
    for i in range(n):
        await ctx.report_progress(i + 1, n, f"step {i + 1}")
        await ctx.info(f"step {i + 1} of {n}")
    return n
'''


def cli(
    *args: str, runtime: Path, env: dict[str, str] | None = None, **options: Any
) -> subprocess.CompletedProcess[str]:
    """Run the real ``jupyter-mcp`` command to completion."""
    full_env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime), **(env or {})}
    return subprocess.run(
        [JUPYTER_MCP, *args], check=False, capture_output=True, text=True, env=full_env, timeout=120, **options
    )


def stdio_client(
    args: list[str],
    runtime: Path,
    mode: str,
    env: dict[str, str] | None = None,
    errlog: TextIO | None = None,
    **options: Any,
) -> Client:
    """A real ``mcp.Client`` that starts ``jupyter-mcp ARGS`` as its stdio server (its stderr to ``errlog``)."""
    params = StdioServerParameters(
        command=JUPYTER_MCP, args=args, env={"JUPYTER_RUNTIME_DIR": str(runtime), **(env or {})}
    )
    if errlog is not None:
        return Client(sdk_stdio_client(params, errlog=errlog), mode=mode, **options)
    return Client(params, mode=mode, **options)


SYSTEM_PATH = "/usr/bin:/bin"
ODD_TOKENS = ["-abcDEF_123-xyz", "--x", "k=v=-w"]
"""Tokens a command line misreads: dash-led (as one generated token in 64 used to be), and with "=" inside."""


def client_from_config(entry: dict[str, Any], home: Path, errlog: TextIO, mode: str = "auto") -> Client:
    """A real ``mcp.Client`` that starts a printed stdio config entry exactly as a desktop client does: its
    command, args and env under ``env -i PATH=/usr/bin:/bin HOME=<home>``, from ``/``."""
    assert Path(entry["command"]).is_absolute(), entry
    env = [f"{key}={value}" for key, value in entry.get("env", {}).items()]
    argv = ["-i", f"PATH={SYSTEM_PATH}", f"HOME={home}", *env, entry["command"], *entry["args"]]
    params = StdioServerParameters(command="/usr/bin/env", args=argv, cwd="/")
    return Client(sdk_stdio_client(params, errlog=errlog), mode=mode)


def start_notebook_kernel(runtime: Path, notebook: str, cells: list[str], env: dict[str, str] | None = None) -> Kernel:
    """A kernel as JupyterLab would start it for ``notebook`` (with ``env`` added), with ``cells`` run."""
    kernel = Kernel(env={"JUPYTER_RUNTIME_DIR": str(runtime), "JPY_SESSION_NAME": notebook, **(env or {})})
    try:
        kernel.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")
        for cell in cells:
            kernel.run(cell)
    except BaseException:
        kernel.shutdown()
        raise
    return kernel


@pytest.fixture
def notebook_path(tmp_path: Path) -> str:
    return str(tmp_path / "work" / "analysis.ipynb")


@pytest.fixture
def notebook_kernel(runtime_dir: Path, notebook_path: str) -> Iterator[Kernel]:
    """A kernel serving ``add`` and ``crunch`` for the notebook ``analysis.ipynb``."""
    kernel = start_notebook_kernel(runtime_dir, notebook_path, [ADD_TOOL, PROGRESS_TOOL])
    try:
        yield kernel
    finally:
        kernel.shutdown()


def write_notebook(path: Path, cells: list[tuple[str, list[str]]]) -> Path:
    """A notebook of code cells, each ``(source, tags)``."""
    notebook = nbformat.v4.new_notebook()
    for source, tags in cells:
        cell = nbformat.v4.new_code_cell(source)
        if tags:
            cell.metadata["tags"] = tags
        notebook.cells.append(cell)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


def inspector(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The MCP Inspector CLI (tests/node, on the venv's Node) with ``args``; stdout is its JSON answer."""
    assert INSPECTOR.exists(), f"{INSPECTOR} is missing: ./dev.sh test installs the node test tools (tests/node)"
    return subprocess.run(
        # A stdio server that starts a kernel and runs a notebook needs more than the Inspector's
        # default 15 s to answer initialize on a loaded 2-core box; the subprocess timeout still bounds it.
        [str(NODE), str(INSPECTOR), "--cli", "--connect-timeout", "90000", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )


def read_until(process: subprocess.Popen[str], marker: str) -> str:
    """What ``process`` wrote on stderr up to the line holding ``marker``."""
    assert process.stderr is not None
    seen = ""
    while marker not in seen:
        line = process.stderr.readline()
        if not line:
            raise AssertionError(f"exited ({process.wait()}) before {marker!r}:\n{seen}")
        seen += line
    return seen


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]
