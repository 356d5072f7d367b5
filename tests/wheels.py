"""Building the release artifacts and installing them in fresh venvs, shared by the tests that need them.

``dist`` (session-scoped: one build per run) is registered as a plugin in tests/conftest.py;
the helpers run commands, make Node-free venvs and list what they installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Build from the sources only: no installed node_modules, no earlier build output.
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", ".yarn", "lib", "labextension", "build", "dist", "*.egg-info",
    "__pycache__", ".*_cache", ".ci", "tsconfig.tsbuildinfo", "*.pyc",
    "static",  # jupyter_mcp/widgets/static: the build must make the widgets' front end itself
)  # fmt: skip
SOURCES = ["pyproject.toml", "README.md", "jupyter_mcp", "labextension", "jupyter-config"]
JUPYTER_STACK = {"ipykernel", "ipython", "ipywidgets", "jupyter-server", "jupyter-client", "nbformat", "tornado"}
NOTEBOOK_EXTRA = 'pip install "jupyter-live-mcp[notebook]"'


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


def nodeless_env(bin_dir: Path, home: Path) -> dict[str, str]:
    """This process's environment (pip's index settings) with ``bin_dir`` alone on PATH, and a new HOME.

    SHELL names the machine's shell by its full path, as a login session does: a notebook's ``!command``
    runs through ``$SHELL`` (IPython falls back to ``sh`` looked up on PATH, which holds only ``bin_dir``).
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "VIRTUAL_ENV", "PYTHON"))}
    shell = shutil.which(os.environ.get("SHELL") or "sh") or shutil.which("sh")
    assert shell, "no shell on this machine's PATH"
    env.update(PATH=str(bin_dir), HOME=str(home), SHELL=shell)
    assert shutil.which("node", path=env["PATH"]) is None
    return env


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel built from it, by a build that finds no Node on PATH (once per test run)."""
    work = tmp_path_factory.mktemp("build")
    copy_sources(work / "src")
    (work / "empty-bin").mkdir()
    env = nodeless_env(work / "empty-bin", Path.home())  # the user's caches (pip, yarn) keep it quick
    run(sys.executable, "-m", "build", "--outdir", work / "dist", work / "src", cwd=work, env=env)
    return work / "dist"


def wheel_in(dist: Path) -> Path:
    (wheel,) = dist.glob("jupyter_live_mcp-*.whl")
    return wheel


def fresh_venv(path: Path) -> tuple[Path, dict[str, str]]:
    """A new venv beside a new HOME; returns its bin directory and the Node-free env to run it with."""
    run(sys.executable, "-m", "venv", path, cwd=path.parent)
    (path.parent / "home").mkdir()
    return path / "bin", nodeless_env(path / "bin", path.parent / "home")


def installed(bin_dir: Path, env: dict[str, str]) -> set[str]:
    listed = subprocess.run(
        [bin_dir / "python", "-m", "pip", "list", "--format", "json"], env=env, capture_output=True, check=True
    )
    return {re.sub(r"[-_.]+", "-", entry["name"]).lower() for entry in json.loads(listed.stdout)}
