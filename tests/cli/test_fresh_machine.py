"""First contact on a fresh machine: the installed ``jupyter-mcp`` launched the way MCP clients launch it.

Every command runs as ``env -i HOME=<new empty dir> PATH=/usr/bin:/bin``, from ``/``, by absolute
path: no JUPYTER_* variables, no activated venv, no Jupyter runtime directory yet. Stdio clients
(``mcp.Client``, the MCP Inspector) add only the variables their SDKs pass on.
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import venv
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.cli.conftest import ADD_TOOL, JUPYTER_MCP, inspector, read_until, write_notebook
from tests.conftest import http_client

SYSTEM_PATH = "/usr/bin:/bin"
THIS_PYTHON = f"kernel: this Python ({sys.executable}, "


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A brand-new, empty home directory: Jupyter has never run for this user."""
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def notebook(tmp_path: Path) -> Path:
    return write_notebook(tmp_path / "work" / "fresh.ipynb", [("%load_ext jupyter_mcp", []), (ADD_TOOL, [])])


def runtime_of(home: Path) -> Path:
    return home / ".local" / "share" / "jupyter" / "runtime"


def bare_env(home: Path, path: str = SYSTEM_PATH) -> dict[str, str]:
    """What ``env -i HOME=... PATH=...`` leaves."""
    return {"HOME": str(home), "PATH": path}


def run_bare(*args: str, home: Path, stdin: Any = None) -> subprocess.CompletedProcess[str]:
    """``jupyter-mcp ARGS`` to completion; stdin is an empty pipe unless given."""
    return subprocess.run(
        [JUPYTER_MCP, *args],
        env=bare_env(home),
        cwd="/",
        input="" if stdin is None else None,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@asynccontextmanager
async def stdio_session(args: list[str], env: dict[str, str], mode: str, stderr: Path) -> AsyncIterator[Client]:
    """``mcp.Client`` starting ``jupyter-mcp ARGS`` as a desktop client does (its SDK adds USER, SHELL, ...)."""
    params = StdioServerParameters(command=JUPYTER_MCP, args=args, env=env, cwd="/")
    with stderr.open("w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
            yield client


def assert_private_runtime_dir(home: Path) -> None:
    runtime = runtime_of(home)
    assert runtime.is_dir()
    assert stat.S_IMODE(runtime.stat().st_mode) & 0o777 == 0o700


@contextmanager
def serving_http_bare(notebook: Path, home: Path) -> Iterator[tuple[str, str, str]]:
    """``serve --transport http`` under ``env -i``; yields URL, token and everything said on stderr."""
    process = subprocess.Popen(
        [JUPYTER_MCP, "serve", str(notebook), "--transport", "http"],
        env=bare_env(home),
        cwd="/",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        announced = read_until(process, "Stop with Ctrl-C.")
        url = announced.split("URL:", 1)[1].split()[0]
        token = announced.split("Authorization: Bearer ", 1)[1].split()[0]
        yield url, token, announced
    finally:
        process.terminate()
        process.wait(60)


def python_without_jupyter_mcp(directory: Path) -> Path:
    """A real Python interpreter that has neither jupyter_mcp nor ipykernel (a bare venv)."""
    venv.create(directory, with_pip=False, symlinks=True)
    python = directory / "bin" / "python"
    probe = subprocess.run([python, "-c", "import jupyter_mcp"], env={}, cwd="/", capture_output=True, check=False)
    assert probe.returncode != 0
    return python


def user_kernelspec(home: Path, name: str, python: Path) -> None:
    """A user-level kernelspec for ``python``, as ``python -m ipykernel install --user --name NAME`` makes."""
    spec = home / ".local" / "share" / "jupyter" / "kernels" / name
    spec.mkdir(parents=True)
    argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": name, "language": "python"}))


# ---- serve ---------------------------------------------------------------------------------------------------


async def test_serve_over_stdio(home: Path, notebook: Path, tmp_path: Path, mode: str) -> None:
    assert not runtime_of(home).exists()
    stderr = tmp_path / "stderr.txt"
    async with stdio_session(["serve", str(notebook)], bare_env(home), mode, stderr) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["add"]
        assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
    assert_private_runtime_dir(home)
    assert THIS_PYTHON in stderr.read_text()


async def test_serve_over_http_then_list_and_connect(home: Path, notebook: Path, tmp_path: Path, mode: str) -> None:
    with serving_http_bare(notebook, home) as (url, token, announced):
        assert THIS_PYTHON in announced
        assert_private_runtime_dir(home)
        async with http_client(url, token, mode=mode) as direct:
            assert (await direct.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}

        listed = run_bare("list", home=home)
        assert listed.returncode == 0, listed.stderr
        assert str(notebook) in listed.stdout

        stderr = tmp_path / "connect-stderr.txt"
        async with stdio_session(["connect", notebook.name], bare_env(home), mode, stderr) as bridged:
            assert [t.name for t in (await bridged.list_tools()).tools] == ["add"]
            assert (await bridged.call_tool("add", {"a": 20, "b": 22})).structured_content == {"result": 42}


def test_the_mcp_inspector_drives_serve_over_stdio(home: Path, notebook: Path) -> None:
    # The Inspector itself starts bare too; its stdio transport passes on only HOME, PATH, USER, ...
    called = inspector(
        JUPYTER_MCP, "serve", str(notebook), "--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=40",
        cwd=Path("/"), env=bare_env(home),
    )  # fmt: skip
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["structuredContent"] == {"result": 42}
    assert_private_runtime_dir(home)


# ---- the kernel serve starts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("user_first", [False, True], ids=["venv-install", "user-install"])
async def test_serve_runs_its_own_python_whatever_kernelspecs_say(home: Path, tmp_path: Path, user_first: bool) -> None:
    """User-level ``python3`` and the notebook's own kernel point at a Python without jupyter_mcp."""
    other = python_without_jupyter_mcp(tmp_path / "other-python")
    user_kernelspec(home, "python3", other)
    user_kernelspec(home, "elsewhere", other)
    notebook = write_notebook(tmp_path / "saved-elsewhere.ipynb", [("%load_ext jupyter_mcp", []), (ADD_TOOL, [])])
    document = json.loads(notebook.read_text())
    document["metadata"]["kernelspec"]["name"] = "elsewhere"
    notebook.write_text(json.dumps(document))
    env = bare_env(home, path=f"{other.parent}:{SYSTEM_PATH}")  # `python` on PATH is the other one too
    if user_first:
        # What jupyter_core decides outside a venv (pip install --user): user kernelspecs win over the env's.
        env["JUPYTER_PREFER_ENV_PATH"] = "0"
    stderr = tmp_path / "stderr.txt"
    async with stdio_session(["serve", str(notebook)], env, "auto", stderr) as client:
        assert (await client.call_tool("add", {"a": 1, "b": 1})).structured_content == {"result": 2}
    said = stderr.read_text()
    assert THIS_PYTHON in said
    assert "(the notebook was saved with kernel 'elsewhere'; --kernel elsewhere starts that one)" in said


def test_kernel_names_a_kernelspec_and_says_so(home: Path, notebook: Path, tmp_path: Path) -> None:
    other = python_without_jupyter_mcp(tmp_path / "other-python")
    user_kernelspec(home, "elsewhere", other)
    chosen = run_bare("serve", str(notebook), "--kernel", "elsewhere", home=home)
    assert chosen.returncode == 1
    assert f"[jupyter-mcp] kernel: 'elsewhere' ({other})\n" in chosen.stderr
    assert "jupyter-mcp: the kernel did not start: Kernel died before replying to kernel_info\n" in chosen.stderr
    unknown = run_bare("serve", str(notebook), "--kernel", "nope", home=home)
    assert (unknown.returncode, unknown.stderr) == (
        1,
        "jupyter-mcp: no kernel named 'nope' is installed (see: jupyter kernelspec list)\n",
    )


# ---- list and connect before anything runs -----------------------------------------------------------------


def test_list_makes_the_runtime_dir(home: Path) -> None:
    listed = run_bare("list", home=home)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == f"No notebook is serving MCP tools (no live discovery file in {runtime_of(home)}).\n"
    assert_private_runtime_dir(home)


async def test_connect_waits_on_a_fresh_machine(home: Path, notebook: Path, tmp_path: Path) -> None:
    stderr = tmp_path / "stderr.txt"
    async with stdio_session(["connect", str(notebook)], bare_env(home), "auto", stderr) as client:
        assert (await client.list_tools()).tools == []
        early = await client.call_tool("add", {"a": 1, "b": 2})
        assert early.is_error
        assert f"(no matching discovery file in {runtime_of(home)})" in str(early.content[0])
        assert_private_runtime_dir(home)
        with serving_http_bare(notebook, home):
            with anyio.fail_after(30):
                while (await client.call_tool("add", {"a": 1, "b": 2})).structured_content != {"result": 3}:
                    await anyio.sleep(0.2)


def test_stdin_from_dev_null_ends_a_stdio_server(home: Path, notebook: Path) -> None:
    """As a shell (``< /dev/null``) or a service manager starts it: EOF at once, so it stops at once."""
    served = run_bare("serve", str(notebook), home=home, stdin=subprocess.DEVNULL)
    assert served.returncode == 0, served.stderr
    assert served.stdout == ""
    bridged = run_bare("connect", "--url", "http://127.0.0.1:9/mcp", home=home, stdin=subprocess.DEVNULL)
    assert (bridged.returncode, bridged.stdout) == (0, "")
