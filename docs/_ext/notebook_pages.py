"""The ``notebooks/`` series as pages, executed while the docs are built (MyST-NB then renders the outputs).

The notebooks are stored without outputs, so the pages would show only code. MyST-NB's own
execution runs each notebook beside its file with the build's environment; these notebooks need a
little more, so they run here, before MyST-NB reads them (``source-read``):

- each in a copy of its folder in a temporary directory: ``%mcp keep`` writes a file beside the
  notebook and ``%mcp export`` reads the saved notebook (``JPY_SESSION_NAME`` names the copy), and
  neither may touch the repository;
- with their own Jupyter runtime directory, so their discovery files never meet anyone else's
  (other notebooks, a test run, the user's own Jupyter).

A cell that raises is a build warning naming the notebook and the cell (``-W`` makes it an error).
``-D jupyter_mcp_execute_notebooks=0`` shows the notebooks unexecuted, for a quick build.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)
CELL_TIMEOUT = 300  # seconds; the slowest cell (07's exported tests, run by pytest) takes a few


def execute(source: Path, text: str) -> tuple[str, list[str]]:
    """Run the notebook ``text`` (read from ``source``) in a copy of its folder; the executed notebook
    and one line per cell that raised (or why the notebook stopped, with the kernel's own log)."""
    notebook = nbformat.reads(text, as_version=4)
    with tempfile.TemporaryDirectory(prefix="jupyter-mcp-docs-") as scratch:
        folder = Path(scratch) / source.parent.name
        shutil.copytree(source.parent, folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "*.mcp-calls.json"))
        runtime = Path(scratch) / "runtime"
        runtime.mkdir()
        env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime), "JPY_SESSION_NAME": str(folder / source.name)}
        client = NotebookClient(
            notebook,
            timeout=CELL_TIMEOUT,
            kernel_name=notebook.metadata.get("kernelspec", {}).get("name", "python3"),
            allow_errors=True,
            store_widget_state=False,  # the pages show the widgets' static snapshots
            resources={"metadata": {"path": str(folder)}},
        )
        kernel_log = Path(scratch) / "kernel.log"
        # The kernel's stderr (ipykernel's startup warnings) goes to a file, shown only if the run fails.
        with kernel_log.open("w") as log:
            try:
                client.execute(env=env, stderr=log)
            except Exception as error:  # any failure (a dead kernel, a cell timeout) is the page's build warning
                return text, [f"stopped: {type(error).__name__}: {error}\n{kernel_log.read_text()[-3000:]}"]
    return nbformat.writes(notebook), errors_in(notebook)


def with_ipython_lexer(text: str) -> str:
    """An unexecuted notebook's ``language_info`` names no lexer: name IPython's, which knows ``%%magics``
    (an executed one gets it from its kernel)."""
    notebook = nbformat.reads(text, as_version=4)
    notebook.metadata.setdefault("language_info", {"name": "python"}).setdefault("pygments_lexer", "ipython3")
    return nbformat.writes(notebook)


def errors_in(notebook: Any) -> list[str]:
    return [
        f"cell {index + 1} raised {output['ename']}: {output['evalue']}"
        for index, cell in enumerate(notebook.cells)
        for output in cell.get("outputs", [])
        if output["output_type"] == "error"
    ]


def on_source_read(app: Sphinx, docname: str, content: list[str]) -> None:
    source = Path(app.env.doc2path(docname))
    if source.suffix != ".ipynb":
        return
    if not app.config.jupyter_mcp_execute_notebooks:
        content[0] = with_ipython_lexer(content[0])
        return
    started = time.monotonic()
    content[0], errors = execute(source, content[0])
    logger.info("executed %s in %.1f s", docname, time.monotonic() - started)
    for error in errors:
        logger.warning("%s: %s", docname, error, location=docname)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("jupyter_mcp_execute_notebooks", True, "env", types=(bool, int))
    app.connect("source-read", on_source_read)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
