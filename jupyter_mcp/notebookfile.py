"""A notebook's code cells, as ``serve`` runs them and ``export`` translates them: all, or those tagged ``mcp``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

TAG = "mcp"


class NotebookError(ValueError):
    """The notebook cannot be read (or has no cell to use); the message is one sentence."""


@dataclass(frozen=True)
class Cell:
    """A code cell; ``number`` is its 1-based position among all the notebook's cells."""

    number: int
    source: str

    @property
    def first_line(self) -> str:
        return next((line for line in self.source.splitlines() if line.strip()), "")


@dataclass(frozen=True)
class Notebook:
    path: Path
    cells: list[Cell]
    kernel_name: str | None


def read(path: Path, *, tagged: bool) -> Notebook:
    """The notebook at ``path`` with its non-empty code cells (only those tagged ``mcp`` when ``tagged``).

    Example::

        notebook = read(Path("analysis.ipynb"), tagged=True)
        [cell.number for cell in notebook.cells]
    """
    import nbformat

    if path.suffix != ".ipynb":
        raise NotebookError(f"{path} is not a notebook (.ipynb)")
    try:
        document = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    except FileNotFoundError:
        raise NotebookError(f"no such notebook: {path}") from None
    except (OSError, ValueError, nbformat.reader.NotJSONError) as exc:
        raise NotebookError(f"cannot read {path} as a notebook: {exc}") from None
    cells = [
        Cell(number, cell.source)
        for number, cell in enumerate(document.cells, start=1)
        if cell.cell_type == "code" and cell.source.strip() and (not tagged or TAG in _tags(cell))
    ]
    if tagged and not cells:
        raise NotebookError(f"--tagged: no code cell in {path} is tagged {TAG!r}")
    return Notebook(path, cells, document.metadata.get("kernelspec", {}).get("name"))


def _tags(cell: Any) -> list[str]:
    tags = cell.get("metadata", {}).get("tags", [])
    return tags if isinstance(tags, list) else []
