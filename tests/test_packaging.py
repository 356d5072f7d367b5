"""What the release is called and versioned as, everywhere it says so (``-m wheel`` builds it)."""

import json
import tomllib
from pathlib import Path

import jupyter_mcp

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_one_version() -> None:
    """``jupyter_mcp/_version.py`` is the version; npm insists on one in package.json, which must agree."""
    assert json.loads((ROOT / "labextension" / "package.json").read_text())["version"] == jupyter_mcp.__version__
    assert f"## {jupyter_mcp.__version__}" in (ROOT / "CHANGELOG.md").read_text()


def test_one_distribution_name() -> None:
    assert PROJECT["name"] == "jupyter-live-mcp"
    assert json.loads((ROOT / "labextension" / "install.json").read_text())["packageName"] == PROJECT["name"]
    assert f'pip install "{PROJECT["name"]}[notebook]"' in (ROOT / "README.md").read_text()


def test_the_core_needs_no_jupyter_stack() -> None:
    core = {requirement.split(">")[0].split("<")[0] for requirement in PROJECT["dependencies"]}
    assert not core & {"ipykernel", "ipython", "ipywidgets", "jupyter-server", "jupyter-client", "nbformat"}
    notebook = {requirement.split(">")[0].split("<")[0] for requirement in PROJECT["optional-dependencies"]["notebook"]}
    assert {"ipykernel", "ipython", "ipywidgets", "jupyter-server", "jupyter-client", "nbformat"} <= notebook
