"""``jupyter-mcp export``: the kept calls beside the notebook, images and dependencies, Docker, and refusals."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import JUPYTER_MCP, write_notebook
from tests.export.conftest import generated_tests, passed

pytestmark = pytest.mark.timeout(600)

PICTURE_CELLS = [
    ("%load_ext jupyter_mcp\nimport jupyter_mcp", []),
    ("import io\nfrom PIL import Image as PILImage\nsizes = {'small': 16}", []),
    ("def canvas(width, height):\n    return PILImage.new('RGB', (width, height), 'teal')", []),
    ("sizes['large'] = sizes['small'] * 4", []),
    (
        "%%mcp_tool --read-only\ndef swatch(size: str) -> jupyter_mcp.Image:\n"
        '    """A square swatch of a named size."""\n    side = sizes[size]\n    buffer = io.BytesIO()\n'
        "    canvas(side, side // 2).save(buffer, format='PNG')\n"
        "    return jupyter_mcp.Image(data=buffer.getvalue(), format='png')",
        [],
    ),
    ("%%mcp_tool side(size: str) -> int\nsizes[size]", []),
]


def export(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [JUPYTER_MCP, "export", *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_cli_replays_what_the_notebook_kept(tmp_path: Path, notebook_kernel: Any) -> None:
    notebook = write_notebook(tmp_path / "swatches.ipynb", PICTURE_CELLS)
    kernel = notebook_kernel(notebook)  # cells depend on earlier cells: 'large' exists only after cell 4
    kernel.run('await server.call("swatch", {"size": "large"})\nawait server.call("side", {"size": "large"})')
    kernel.run('await server.call("side", {"size": "huge"})')
    kernel.run("%mcp keep 1 2 3")  # saved beside the notebook, where the CLI finds them

    done = export("swatches.ipynb", "--dockerfile", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "swatches-server"
    assert "2 tool(s): swatch, side; 3 kept call(s) as tests" in done.stdout
    tests = (out / "tests" / "test_recorded_calls.py").read_text()
    assert 'content=[{"type": "image", "mimeType": "image/png", "width": 64, "height": 32}]' in tests
    assert 'check(result, structured={"result": 64})' in tests
    assert "check(result, error=" in tests
    pyproject = (out / "pyproject.toml").read_text()
    assert '"jupyter-live-mcp>=' in pyproject
    assert '"pillow>=' in pyproject.lower()
    assert 'swatches-server = "swatches_server:main"' in pyproject
    assert '"server.py" = "swatches_server.py"' in pyproject
    dockerfile = (out / "Dockerfile").read_text()
    assert "RUN pip install --no-cache-dir ." in dockerfile
    assert 'CMD ["swatches-server", "--transport", "http", "--host", "0.0.0.0", "--port", "8000"]' in dockerfile
    assert "EXPOSE 8000" in dockerfile
    assert passed(generated_tests(out)) == 4


def test_an_untranslatable_notebook_is_reported_and_nothing_written(tmp_path: Path) -> None:
    cells = [
        ("%load_ext jupyter_mcp", ["mcp"]),
        ("import time\n%timeit time.sleep(0)", []),
        ("!ls\n%%mcp_tool\ndef f() -> int:\n    return 1", []),
        ("%%bash\necho hi", []),
    ]
    write_notebook(tmp_path / "odd.ipynb", cells)
    done = export("odd.ipynb", "-o", "out", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "jupyter-mcp: odd.ipynb: 4 lines cannot run outside a notebook (nothing was written):",
        "  cell 2, line 2: %timeit time.sleep(0)",
        "    %timeit is an IPython magic; a plain Python server has no equivalent",
        "  cell 3, line 1: !ls",
        "    !ls is a shell command; a server has no shell escape (use subprocess.run)",
        "  cell 3, line 2: %%mcp_tool",
        "    %%mcp_tool is a cell magic, which works only on the first line of its cell",
        "  cell 4, line 1: %%bash",
        "    %%bash is an IPython cell magic; a plain Python server has no equivalent",
    ]
    assert not (tmp_path / "out").exists()
    tagged = export("odd.ipynb", "-o", "out", "--tagged", "--no-check", cwd=tmp_path)
    assert tagged.returncode == 0, tagged.stderr
    assert "tools not checked" in tagged.stdout


def test_it_writes_only_into_an_empty_directory_or_an_earlier_export(tmp_path: Path) -> None:
    write_notebook(tmp_path / "nb.ipynb", [('%%mcp_tool\ndef one() -> int:\n    """One."""\n    return 1', [])])
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    refused = export("nb.ipynb", "-o", "busy", "--no-check", cwd=tmp_path)
    assert (refused.returncode, refused.stderr) == (
        1,
        "jupyter-mcp: busy is not empty and holds no earlier export; choose another directory\n",
    )
    assert export("nb.ipynb", "-o", "again", "--no-check", cwd=tmp_path).returncode == 0
    (tmp_path / "again" / "server.py").write_text((tmp_path / "again" / "server.py").read_text() + "# edited\n")
    assert export("nb.ipynb", "-o", "again", "--no-check", cwd=tmp_path).returncode == 0
    assert "# edited" not in (tmp_path / "again" / "server.py").read_text()


def test_a_broken_export_says_why(tmp_path: Path) -> None:
    write_notebook(
        tmp_path / "nb.ipynb", [("import no_such_module_here", []), ("%%mcp_tool\ndef one() -> int:\n    return 1", [])]
    )
    done = export("nb.ipynb", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"jupyter-mcp: {tmp_path / 'nb-server' / 'server.py'} was written but fails when run: "
    )
    assert "ModuleNotFoundError: No module named 'no_such_module_here'" in done.stderr
