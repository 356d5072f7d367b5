"""The wheel from ``python -m build`` carries the built labextension and the auto-enable config, and
works in a fresh venv on a machine without node (select with ``-m wheel``; a few minutes)."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.harness import free_port

ROOT = Path(__file__).resolve().parents[2]
# Build from the sources only: no installed node_modules, no earlier build output.
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", ".yarn", "lib", "labextension", "build", "dist", "*.egg-info",
    "__pycache__", ".*_cache", ".ci", "tsconfig.tsbuildinfo", "*.pyc",
)  # fmt: skip
SOURCES = ["pyproject.toml", "README.md", "jupyter_mcp", "labextension", "jupyter-config"]


def run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 900) -> str:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)  # without terminal colours


def copy_sources(target: Path) -> None:
    target.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, target / name, ignore=NOT_SOURCES)
        else:
            shutil.copy2(ROOT / name, target / name)


def nodeless_env(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "VIRTUAL_ENV", "PYTHON"))}
    env["PATH"] = str(venv / "bin")
    assert shutil.which("node", path=env["PATH"]) is None
    return env


@pytest.mark.wheel
@pytest.mark.timeout(1500)
def test_built_wheel_installs_and_works_without_node(tmp_path: Path) -> None:
    source = tmp_path / "src"
    copy_sources(source)
    run(sys.executable, "-m", "build", "--outdir", tmp_path / "dist", source, cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("jupyter_mcp-*.whl")

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    env = nodeless_env(venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, "jupyterlab>=4.2,<5", cwd=tmp_path, env=env)

    labextensions = run(venv / "bin" / "jupyter", "labextension", "list", cwd=tmp_path, env=env)
    assert re.search(r"jupyter-mcp v\S+ enabled .*OK", labextensions), labextensions
    server_extensions = run(venv / "bin" / "jupyter", "server", "extension", "list", cwd=tmp_path, env=env)
    assert re.search(r"jupyter_mcp enabled", server_extensions), server_extensions
    assert re.search(r"jupyter_mcp \S+ OK", server_extensions), server_extensions

    check_lab_serves_the_extension(venv, tmp_path, env)


def check_lab_serves_the_extension(venv: Path, workdir: Path, env: dict[str, str]) -> None:
    """JupyterLab from the fresh venv loads the prebuilt extension, and the REST API answers."""
    token = secrets.token_hex(8)
    port = free_port()
    env = {**env, "JUPYTER_RUNTIME_DIR": str(workdir / "runtime"), "JUPYTER_CONFIG_DIR": str(workdir / "config")}
    args = [f"--port={port}", f"--IdentityProvider.token={token}", "--no-browser", "--allow-root"]
    lab = subprocess.Popen([str(venv / "bin" / "jupyter"), "lab", *args], cwd=workdir, env=env)
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
            assert servers.json() == []
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
