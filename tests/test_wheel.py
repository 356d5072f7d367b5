"""The release artifacts, as a user gets them (select with ``-m wheel``; a few minutes).

``python -m build`` makes the sdist and, from it, the wheel, with no Node on PATH (Node comes
from PyPI into the build environment). Then each install in a fresh venv whose PATH has no
Node either: the core alone serves a ``ToolServer`` and leaves the Jupyter stack out; the
notebook extra runs the quickstart, serves the demo notebook, and the extensions report OK.
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from email.message import Message
from email.parser import Parser
from pathlib import Path

import httpx
import mcp_types as mt
import pytest
from mcp import Client, StdioServerParameters

from tests.harness import free_port
from tests.wheels import JUPYTER_STACK, NOTEBOOK_EXTRA, ROOT, fresh_venv, installed, run, wheel_in

pytestmark = [pytest.mark.wheel, pytest.mark.timeout(1500)]


@pytest.fixture(scope="module")
def core(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """``pip install jupyter-live-mcp`` (the wheel alone) in a fresh venv."""
    bin_dir, env = fresh_venv(tmp_path_factory.mktemp("core") / "venv")
    run(bin_dir / "python", "-m", "pip", "install", "-q", wheel_in(dist), cwd=bin_dir.parent, env=env)
    return bin_dir, env


@pytest.fixture(scope="module")
def full(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """``pip install "jupyter-live-mcp[notebook]" jupyterlab`` (from the wheel) in a fresh venv."""
    bin_dir, env = fresh_venv(tmp_path_factory.mktemp("full") / "venv")
    wanted = [f"{wheel_in(dist)}[notebook]", "jupyterlab>=4.2,<5"]
    run(bin_dir / "python", "-m", "pip", "install", "-q", *wanted, cwd=bin_dir.parent, env=env)
    return bin_dir, env


def test_the_sdist_carries_the_built_labextension(dist: Path) -> None:
    (sdist,) = dist.glob("jupyter_live_mcp-*.tar.gz")
    listed = run("tar", "-tzf", sdist, cwd=dist)
    assert "/jupyter_mcp/labextension/package.json" in listed
    assert "/jupyter_mcp/widgets/static/widgets.js" in listed
    assert "/labextension/src/index.ts" in listed
    assert "node_modules" not in listed


def test_the_wheel_carries_the_widgets_front_end(dist: Path) -> None:
    """The notebook widgets' front end and loader (built from labextension/src, gitignored) are in the wheel."""
    with zipfile.ZipFile(wheel_in(dist)) as wheel:
        bundle = wheel.read("jupyter_mcp/widgets/static/widgets.js").decode()
        loader = wheel.read("jupyter_mcp/widgets/static/loader.js").decode()
    assert "jupyter-mcp-ui-style" in bundle  # the module puts its own stylesheet in the page
    assert len(bundle) < 150_000
    assert "jupyter-mcp.front-end" in loader  # what each view carries: it finds the page's front end
    assert len(loader) < 2_000


def long_descriptions(dist: Path) -> list[Message]:
    """The metadata of the wheel (METADATA) and of the sdist (PKG-INFO), as PyPI reads them."""
    (sdist,) = dist.glob("jupyter_live_mcp-*.tar.gz")
    with zipfile.ZipFile(wheel_in(dist)) as wheel:
        (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = wheel.read(name).decode()
    with tarfile.open(sdist) as archive:
        (member,) = [m for m in archive.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")]
        extracted = archive.extractfile(member)
        assert extracted is not None
        pkg_info = extracted.read().decode()
    return [Parser().parsestr(metadata), Parser().parsestr(pkg_info)]


def test_the_pypi_description_is_written_for_pypi(dist: Path) -> None:
    """PyPI shows the long description: it starts with what the package does and `pip install`, without the
    repository's first lines (./dev.sh), and has no link or image that resolves only in a checkout."""
    wheel_metadata, sdist_metadata = long_descriptions(dist)
    body = wheel_metadata.get_payload()
    assert isinstance(body, str)
    assert sdist_metadata.get_payload() == body
    for metadata in (wheel_metadata, sdist_metadata):
        assert metadata["Description-Content-Type"] == "text/markdown"
        assert metadata.get_all("Project-URL") is None  # no public repository to point at
    assert body.startswith("# jupyter-live-mcp\n\n**A notebook as a live MCP tool server.** Mark a function")
    install = body.split("\n## ", 2)[1]
    assert install.startswith('Install\n\n```bash\npip install "jupyter-live-mcp[notebook]"')
    assert "dev.sh" not in body
    assert "<!--" not in body  # the pypi-start / pypi-end markers
    assert "## From the command line" in body
    assert "## Without a kernel" in body
    assert "## Development" not in body
    targets = re.findall(r"\]\(([^)\s]+)\)", body)
    assert targets, "no link found: the pattern is wrong"
    assert [t for t in targets if not t.startswith("https://")] == []
    assert "docs/screenshots" not in body
    (sdist,) = dist.glob("jupyter_live_mcp-*.tar.gz")
    checked = run(sys.executable, "-m", "twine", "check", "--strict", sdist, wheel_in(dist), cwd=dist)
    assert checked.count("PASSED") == 2, checked


def test_the_core_leaves_the_jupyter_stack_out(core: tuple[Path, dict[str, str]]) -> None:
    bin_dir, env = core
    assert "jupyter-live-mcp" in installed(bin_dir, env)
    assert not installed(bin_dir, env) & JUPYTER_STACK


async def test_the_core_serves_a_tool_server(core: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = core
    script = tmp_path / "server.py"
    shutil.copy(ROOT / "tests" / "fixtures" / "stdio_server.py", script)
    params = StdioServerParameters(command=str(bin_dir / "python"), args=[str(script)], env=env, cwd=str(tmp_path))
    async with Client(params, mode="auto") as client:
        assert "add" in [t.name for t in (await client.list_tools()).tools]
        assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}


def test_the_core_cli_and_what_the_notebook_side_says(core: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = core
    assert "No notebook is serving MCP tools" in run(bin_dir / "jupyter-mcp", "list", cwd=tmp_path, env=env)
    assert "jupyter-mcp 0." in run(bin_dir / "jupyter", "mcp", "--version", cwd=tmp_path, env=env)
    kernel_side = subprocess.run(
        [bin_dir / "python", "-c", "import jupyter_mcp; jupyter_mcp.get_server()"],
        env=env, cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert kernel_side.stderr.strip().splitlines()[-1] == (
        "ModuleNotFoundError: jupyter_mcp's notebook side (%load_ext jupyter_mcp, jupyter_mcp.get_server()) needs "
        f"IPython, ipykernel, ipywidgets, anywidget, which the core install leaves out: {NOTEBOOK_EXTRA}"
    )
    serve = subprocess.run(
        [bin_dir / "jupyter-mcp", "serve", "any.ipynb"], env=env, cwd=tmp_path, capture_output=True, text=True, check=False
    )  # fmt: skip
    assert (serve.returncode, serve.stderr) == (
        1,
        "jupyter-mcp: serve needs jupyter_client, nbformat, IPython, ipykernel, ipywidgets, anywidget, "
        f"which the core install leaves out: {NOTEBOOK_EXTRA}\n",
    )


def test_the_extensions_report_ok(full: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = full
    labextensions = run(bin_dir / "jupyter", "labextension", "list", cwd=tmp_path, env=env)
    assert re.search(r"jupyter-mcp v\S+ enabled .*OK.*\(python, jupyter-live-mcp\)", labextensions), labextensions
    server_extensions = run(bin_dir / "jupyter", "server", "extension", "list", cwd=tmp_path, env=env)
    assert re.search(r"jupyter_mcp enabled", server_extensions), server_extensions
    assert re.search(r"jupyter_mcp \S+ OK", server_extensions), server_extensions


def test_the_quickstart_runs(full: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = full
    run_quickstart(bin_dir, env, tmp_path)


async def test_serve_runs_the_demo_notebook(full: tuple[Path, dict[str, str]]) -> None:
    bin_dir, env = full
    await serve_the_demo(bin_dir, env)


def test_jupyterlab_serves_the_extension(full: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = full
    check_lab_serves_the_extension(bin_dir, tmp_path, env)


def run_quickstart(bin_dir: Path, env: dict[str, str], workdir: Path) -> None:
    """The quickstart notebook runs top to bottom in the installed package (no error output)."""
    shutil.copy(ROOT / "notebooks" / "01-quickstart.ipynb", workdir / "quickstart.ipynb")
    run(
        bin_dir / "jupyter", "nbconvert", "--to", "notebook", "--execute", "--output", "executed.ipynb",
        workdir / "quickstart.ipynb", cwd=workdir, env=env,
    )  # fmt: skip
    cells = json.loads((workdir / "executed.ipynb").read_text())["cells"]
    outputs = [output for cell in cells for output in cell.get("outputs", [])]
    assert [o for o in outputs if o["output_type"] == "error"] == []
    shown = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "MCP tool 'get_var(name)' live at http://127.0.0.1:" in shown


async def serve_the_demo(bin_dir: Path, env: dict[str, str]) -> None:
    """``jupyter-mcp serve`` from the wheel, launched as a desktop client launches it."""
    bare = {"HOME": env["HOME"], "PATH": "/usr/bin:/bin"}
    demo = ROOT / "notebooks" / "02-demo-tools.ipynb"
    params = StdioServerParameters(command=str(bin_dir / "jupyter-mcp"), args=["serve", str(demo)], env=bare, cwd="/")
    async with Client(params, mode="legacy") as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["city_facts", "to_fahrenheit", "count_primes"]
        result = await client.call_tool("to_fahrenheit", {"celsius": 100})
        assert result.structured_content == {"result": 212.0}
        assert isinstance(result.content[0], mt.TextContent)


def check_lab_serves_the_extension(bin_dir: Path, workdir: Path, env: dict[str, str]) -> None:
    """JupyterLab from the fresh venv loads the prebuilt extension, and the REST API answers."""
    token = secrets.token_hex(8)
    port = free_port()
    args = [f"--port={port}", f"--IdentityProvider.token={token}", "--no-browser", "--allow-root"]
    lab = subprocess.Popen([str(bin_dir / "jupyter"), "lab", *args], cwd=workdir, env=env)
    base = f"http://127.0.0.1:{port}/"
    try:
        with httpx.Client(headers={"Authorization": f"token {token}"}, timeout=30) as http:
            page = wait_for(http, base + "lab")
            config = json.loads(re.search(r'id="jupyter-config-data"[^>]*>\s*(\{.*?\})\s*</script>', page, re.S)[1])  # type: ignore[index]
            (extension,) = [e for e in config["federated_extensions"] if e["name"] == "jupyter-mcp"]
            entry = http.get(f"{base}lab/extensions/jupyter-mcp/{extension['load']}")
            assert entry.status_code == 200
            assert "jupyter-mcp" in entry.text
            servers = http.get(base + "api/mcp/servers")
            assert servers.status_code == 200
            # No notebook serves tools; the notebook tools (the server's own, read-only by default) are listed.
            assert [(s["kernel_id"], s["transport"]) for s in servers.json()] == [("notebook-tools", "server")]
    finally:
        lab.terminate()
        lab.wait(30)


def wait_for(http: httpx.Client, url: str) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            response = http.get(url)
            if response.status_code == 200:
                return response.text
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url} did not answer")
