"""An export installed as a user installs it: a fresh venv with the built wheel and the export, nothing else.

The demo notebook and the quickstart run in real kernels, keep calls and export themselves; both
exports go into one fresh venv (select with ``-m wheel``: the wheel is built once per run). Their
commands serve over stdio and HTTP the same tools/list the kernels serve, and their generated tests
pass there, against server.py and against the live kernels.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import http_client
from tests.export.conftest import NOTEBOOKS, endpoint, generated_tests, live_listing, open_notebook, passed
from tests.harness import Kernel
from tests.wheels import JUPYTER_STACK, fresh_venv, installed, run, wheel_in

pytestmark = [pytest.mark.wheel, pytest.mark.timeout(1500)]

NOTEBOOK_SIDE = JUPYTER_STACK | {"anywidget", "jupyterlab", "notebook", "nbclient", "pytest-jupyter"}


@dataclass
class Export:
    kernel: Kernel
    directory: Path
    script: str


@dataclass
class Installed:
    bin_dir: Path
    env: dict[str, str]
    exports: dict[str, Export]


def export_from_kernel(work: Path, runtime: Path, notebook: str, calls: list[str], script: str) -> Export:
    path = work / notebook
    path.write_bytes((NOTEBOOKS / notebook).read_bytes())
    kernel = open_notebook(runtime, path)
    for code in calls:
        kernel.run(code)
    numbers = [line.split()[0][1:] for line in kernel.run("%mcp history 100").stdout.splitlines() if line[:1] == "#"]
    kernel.run(f"%mcp keep {' '.join(numbers)}")
    said = kernel.run(f"%mcp export {script} --tagged").stdout
    assert "differs from the notebook" not in said, said
    return Export(kernel, work / script, script)


@pytest.fixture(scope="module")
def installed_exports(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    work = tmp_path_factory.mktemp("exports")
    runtime = work / "runtime"
    runtime.mkdir()
    exports = {
        "demo": export_from_kernel(
            work,
            runtime,
            "02-demo-tools.ipynb",
            [
                'await server.call("to_fahrenheit", {"celsius": -40})',
                'await server.call("count_primes", {"limit": 50})',
            ],
            "demo-tools-server",
        ),
        "quickstart": export_from_kernel(work, runtime, "01-quickstart.ipynb", [], "quickstart-server"),
    }
    try:
        bin_dir, env = fresh_venv(tmp_path_factory.mktemp("export-venv") / "venv")
        wanted = [str(wheel_in(dist)), *(f"{e.directory}[test]" for e in exports.values())]
        run(bin_dir / "python", "-m", "pip", "install", "-q", *wanted, cwd=work, env=env)
        yield Installed(bin_dir, env, exports)
    finally:
        for export in exports.values():
            export.kernel.shutdown()


def test_an_export_installs_without_the_notebook_side(installed_exports: Installed) -> None:
    packages = installed(installed_exports.bin_dir, installed_exports.env)
    assert {"jupyter-live-mcp", "demo-tools-server", "quickstart-server", "pytest"} <= packages
    assert not packages & NOTEBOOK_SIDE


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_serves_what_the_kernel_serves(installed_exports: Installed, mode: str) -> None:
    export = installed_exports.exports["demo"]
    command = str(installed_exports.bin_dir / export.script)
    params = StdioServerParameters(command=command, env=installed_exports.env, cwd="/")
    async with Client(params, mode=mode) as client:
        tools = (await client.list_tools()).tools
        listing = [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]
        assert (await client.call_tool("to_fahrenheit", {"celsius": 100})).structured_content == {"result": 212.0}
    assert listing == await live_listing(export.kernel, mode)


async def test_http_serves_what_the_kernel_serves(installed_exports: Installed) -> None:
    export = installed_exports.exports["quickstart"]
    command = [str(installed_exports.bin_dir / export.script), "--transport", "http", "--port", "0", "--token", "t0k"]
    with serving(command, installed_exports.env) as url:
        for mode in ("legacy", "auto"):
            async with http_client(url, "t0k", mode=mode) as client:
                tools = (await client.list_tools()).tools
                found = await client.call_tool("find_items", {"query": "mug"})
            listing = [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]
            assert listing == await live_listing(export.kernel, mode)
            assert found.structured_content == {"result": [{"sku": "C-3", "name": "mug", "stock": 31, "price": 8.0}]}


@contextmanager
def serving(command: list[str], env: dict[str, str]) -> Iterator[str]:
    """The command serving HTTP; yields the URL it printed."""
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True, cwd="/")
    try:
        said = ""
        while "Stop with Ctrl-C." not in said:
            line = process.stderr.readline() if process.stderr else ""
            assert line, f"the server exited ({process.wait()}): {said}"
            said += line
        found = re.search(r"at (http://\S+/mcp)", said)
        assert found is not None, said
        yield found[1]
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.parametrize(("name", "count"), [("demo", 4), ("quickstart", 5)])
def test_the_generated_tests_pass_there(installed_exports: Installed, name: str, count: int) -> None:
    export = installed_exports.exports[name]
    python = installed_exports.bin_dir / "python"
    assert passed(generated_tests(export.directory, python=python)) == count
    url, token = endpoint(export.kernel)
    reset: dict[str, Any] = {"quickstart": "inventory[1]['stock'] = 0"}  # restock ran in the kernel
    if name in reset:
        export.kernel.run(reset[name])
    assert passed(generated_tests(export.directory, "--jupyter-mcp-url", url, "--token", token, python=python)) == count
