"""The documentation site builds as ``./dev.sh docs`` builds it, with every warning an error.

``-W --keep-going -n``: a broken link, a link to a missing heading, a reference to a missing setting,
a page in no toctree, a configurable class documented nowhere and a notebook cell that raises all
fail. The build executes the notebook series (a minute or so: a kernel per notebook) and reaches no
network.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from jupyter_mcp.kernel.config import JupyterMCP

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def sphinx_build(source: Path, out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html"]
    command += ["-c", str(DOCS), "-d", str(out / "doctrees"), *options, str(source), str(out / "html")]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("docs")
    built = sphinx_build(DOCS, out)
    assert built.returncode == 0, built.stderr[-6000:]
    return out / "html"


@pytest.mark.timeout(900)
def test_every_page_and_notebook_is_built(site: Path) -> None:
    pages = {p.relative_to(DOCS).with_suffix(".html") for p in DOCS.glob("*.md")}
    notebooks = {Path("notebooks", p.name).with_suffix(".html") for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert len(notebooks) >= 8
    assert [str(page) for page in sorted(pages | notebooks) if not (site / page).is_file()] == []


@pytest.mark.timeout(900)
def test_the_notebooks_are_shown_executed(site: Path) -> None:
    quickstart = (site / "notebooks" / "01-quickstart.html").read_text()
    assert "served at http://127.0.0.1:" in quickstart  # the tool card's static snapshot
    assert "not yet:" in quickstart  # the exercise's check cell ran, unsolved
    exported = (site / "notebooks" / "07-from-notebook-to-server.html").read_text()
    assert "4 passed" in exported  # the exported server's own tests ran


@pytest.mark.timeout(900)
def test_the_configuration_reference_lists_every_setting(site: Path) -> None:
    page = (site / "configuration.html").read_text()
    settings = JupyterMCP.class_traits(config=True)
    assert len(settings) >= 15
    assert [name for name in settings if f'id="confval-JupyterMCP.{name}"' not in page] == []
    assert 'id="confval-MCPExtensionApp.public_url"' in page
    assert 'id="confval-MCPExtensionApp.log_level"' not in page  # jupyter_server's own, not ours


@pytest.mark.timeout(900)
def test_the_command_reference_is_the_parsers_help(site: Path) -> None:
    page = (site / "cli.html").read_text()
    assert "usage: jupyter-mcp serve [-h]" in page
    assert "--no-confirm" in page


def test_a_broken_link_reference_or_page_fails_the_build(tmp_path: Path) -> None:
    """The same configuration on a small site with one mistake of each kind: each is reported."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "index.md").write_text(
        "# Index\n\n[a page](missing.md), [a heading](#no-such-heading), {confval}`JupyterMCP.no_such_setting`\n"
    )
    (source / "orphan.md").write_text("# In no toctree\n")
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# Raises"), nbformat.v4.new_code_cell("1 / 0")]
    )
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, source / "raises.ipynb")
    built = sphinx_build(source, tmp_path / "out")
    assert built.returncode != 0
    for expected in (
        "missing",
        "no-such-heading",
        "JupyterMCP.no_such_setting",
        "document isn't included in any toctree",
        "jupyter_mcp.kernel.config.JupyterMCP is documented on no page",
        "raises: cell 2 raised ZeroDivisionError: division by zero",
    ):
        assert expected in built.stderr, (expected, built.stderr)
