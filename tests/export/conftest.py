"""Export fixtures: notebooks run in real kernels (as JupyterLab runs them), and the generated tests run by pytest."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp.notebookfile import read
from tests.conftest import http_client
from tests.harness import Kernel
from tests.kernel.conftest import runtime_dir

__all__ = ["runtime_dir"]

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def open_notebook(runtime: Path, notebook: Path) -> Kernel:
    """A kernel for ``notebook`` (JPY_SESSION_NAME set, as Jupyter sets it) that has run all its code cells."""
    kernel = Kernel(
        env={"JUPYTER_RUNTIME_DIR": str(runtime), "JPY_SESSION_NAME": str(notebook)}, cwd=str(notebook.parent)
    )
    try:
        for cell in read(notebook, tagged=False).cells:
            kernel.run(cell.source, timeout=120)
        kernel.run("import jupyter_mcp\nserver = jupyter_mcp.get_server()")
    except BaseException:
        kernel.shutdown()
        raise
    return kernel


@pytest.fixture
def work(tmp_path: Path) -> Path:
    directory = tmp_path / "work"
    directory.mkdir()
    return directory


def copy_notebook(name: str, work: Path, as_name: str) -> Path:
    target = work / as_name
    shutil.copy(NOTEBOOKS / name, target)
    return target


@pytest.fixture
def notebook_kernel(request: pytest.FixtureRequest, runtime_dir: Path) -> Iterator[Any]:
    """Use as ``notebook_kernel(path)``: kernels opened this way shut down after the test."""
    opened: list[Kernel] = []

    def opener(notebook: Path) -> Kernel:
        opened.append(open_notebook(runtime_dir, notebook))
        return opened[-1]

    yield opener
    for kernel in opened:
        kernel.shutdown()


def endpoint(kernel: Kernel) -> tuple[str, str]:
    url, token = kernel.value("(server.url, server.token)")
    return str(url), str(token)


async def live_listing(kernel: Kernel, mode: str) -> list[dict[str, Any]]:
    """The kernel's tools/list as a real client over HTTP sees it."""
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode) as client:
        tools = (await client.list_tools()).tools
    return [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]


def generated_tests(directory: Path, *args: str, python: Path | str = sys.executable) -> str:
    """Run the export's own tests with ``python``; fail with their output unless they pass. Returns the summary."""
    done = subprocess.run(
        [str(python), "-m", "pytest", "-q", "--color=no", "-p", "no:cacheprovider", *args],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def passed(summary: str) -> int:
    found = re.match(r"(\d+) passed", summary)
    assert found is not None, summary
    assert "failed" not in summary, summary
    assert "error" not in summary, summary
    return int(found[1])
