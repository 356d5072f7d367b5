"""Reading the notebook ``serve`` runs (``jupyter_mcp.notebookfile``), with errors as ``CLIError``."""

from __future__ import annotations

from pathlib import Path

from jupyter_mcp.cli.errors import CLIError
from jupyter_mcp.notebookfile import TAG, Cell, Notebook, NotebookError, read

__all__ = ["TAG", "Cell", "Notebook", "load"]


def load(path: Path, *, tagged: bool) -> Notebook:
    """The notebook at ``path`` with the cells ``serve`` runs, or a ``CLIError`` that says what is wrong."""
    try:
        return read(path, tagged=tagged)
    except NotebookError as exc:
        raise CLIError(str(exc)) from None
