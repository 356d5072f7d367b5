"""``./dev.sh run`` serves copies of the notebooks: JupyterLab's autosave never writes into the repository."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from tests.harness import free_port

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
READY = 300.0
"""Seconds for both demo servers to start (the headless one runs a whole notebook first)."""


def digests() -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(NOTEBOOKS.glob("*.ipynb"))}


def lab_server(runtime: Path, process: subprocess.Popen[str], log: Path) -> dict[str, str]:
    """JupyterLab's server file, once ``dev.sh run`` says it is ready."""
    deadline = time.monotonic() + READY
    while time.monotonic() < deadline:
        assert process.poll() is None, f"./dev.sh run exited with {process.returncode}:\n{log.read_text()[-3000:]}"
        files = list(runtime.glob("jpserver-*.json"))
        if files:
            with contextlib.suppress(ValueError):
                server: dict[str, str] = json.loads(files[0].read_text())
                if httpx.get(f"{server['url']}api/status", params={"token": server["token"]}, timeout=5).is_success:
                    return server
        time.sleep(0.5)
    raise TimeoutError(f"./dev.sh run was not ready in {READY:.0f} s")


def test_dev_sh_run_serves_copies_so_autosave_leaves_the_repository_alone(tmp_path: Path) -> None:
    before = digests()
    env = {
        **os.environ,
        "CI": "1",
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
        "JUPYTER_MCP_DEMO_PORT": str(free_port()),
    }
    process = subprocess.Popen(
        [str(ROOT / "dev.sh"), "run"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "dev.log").open("w"),
        text=True,
        start_new_session=True,
    )
    try:
        server = lab_server(tmp_path / "runtime", process, tmp_path / "dev.log")
        assert Path(server["root_dir"]) == ROOT / ".venv" / "demo"
        # What JupyterLab's autosave does with the open quickstart: save it, outputs and all.
        address = f"{server['url']}api/contents/01-quickstart.ipynb"
        headers = {"Authorization": f"token {server['token']}"}
        model = httpx.get(address, headers=headers, timeout=30).json()
        model["content"]["cells"][0]["source"] = "edited in the lab"
        saved = httpx.put(address, headers=headers, json={"type": "notebook", "content": model["content"]}, timeout=30)
        assert saved.is_success, saved.text
        assert "edited in the lab" in (ROOT / ".venv" / "demo" / "01-quickstart.ipynb").read_text()
        assert digests() == before
    finally:
        with contextlib.suppress(ProcessLookupError):  # it may have exited (and said why) already
            os.killpg(process.pid, signal.SIGINT)  # one Ctrl-C: dev.sh stops both servers
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
