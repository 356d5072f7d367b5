"""A notebook's code cells, as ``serve`` runs them and ``export`` translates them: all, or those tagged ``mcp``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyter_mcp.jsonlimits import DEPTH_CEILING, JSONRefused, load

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

    Any file is read or refused with one sentence (``NotebookError``): not JSON, nested too deeply,
    an older format nbformat cannot convert, or cells that are not what a notebook's cells are.

    Example::

        notebook = read(Path("analysis.ipynb"), tagged=True)
        [cell.number for cell in notebook.cells]
    """
    if path.suffix != ".ipynb":
        raise NotebookError(f"{path} is not a notebook (.ipynb)")
    if not path.exists():
        raise NotebookError(f"no such notebook: {path}")
    try:
        document = _document(path)
        cells = [
            Cell(number, _source(cell, number))
            for number, cell in enumerate(document["cells"], start=1)
            if cell["cell_type"] == "code" and (not tagged or TAG in _tags(cell))
        ]
    except NotebookError as refused:
        raise NotebookError(f"cannot read {path} as a notebook: {refused}") from None
    cells = [cell for cell in cells if cell.source.strip()]
    if tagged and not cells:
        raise NotebookError(f"--tagged: no code cell in {path} is tagged {TAG!r}")
    kernelspec = _mapping(_mapping(document.get("metadata")).get("kernelspec"))
    name = kernelspec.get("name")
    return Notebook(path, cells, name if isinstance(name, str) else None)


_MAX_BYTES = 1 << 30
"""A notebook's size is the user's business (outputs can be large); this only bounds memory."""


def _document(path: Path) -> dict[str, Any]:
    """The notebook's JSON as format 4, its cells checked to be objects with a text ``cell_type``."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise NotebookError("no such file") from None
    except OSError as exc:
        raise NotebookError(exc.strerror or str(exc)) from None
    try:
        document = load(data, max_bytes=_MAX_BYTES, max_depth=DEPTH_CEILING)
    except JSONRefused as refused:
        raise NotebookError(str(refused)) from None
    if not isinstance(document, dict):
        raise NotebookError("it is not a JSON object")
    notebook: dict[str, Any] = document if document.get("nbformat") == 4 else _converted(document)
    cells = notebook.get("cells")
    if not isinstance(cells, list):
        raise NotebookError('it has no "cells" list')
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise NotebookError(f"cell {number} is not a cell (an object with a cell_type)")
    return notebook


def _converted(document: dict[str, Any]) -> dict[str, Any]:
    """An older format converted to 4 by nbformat."""
    import jsonschema
    import nbformat

    version = document.get("nbformat")
    if version is None:
        raise NotebookError('it has no "nbformat" version')
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version < 4:
        raise NotebookError(f"nbformat {version!r} is not a notebook format this reads (1 to 4)")
    try:
        converted: dict[str, Any] = nbformat.convert(nbformat.from_dict(document), 4)  # type: ignore[no-untyped-call]
        return converted
    # nbformat's converters trust an older notebook's shape (some fields are checked with assert): a
    # malformed one fails with whatever its first wrong field causes, and all of it means one thing here.
    except (ValueError, KeyError, TypeError, AttributeError, AssertionError, jsonschema.ValidationError) as exc:
        raise NotebookError(f"its nbformat {version} could not be converted ({exc})") from None


def _source(cell: dict[str, Any], number: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    if not isinstance(source, str):
        raise NotebookError(f"cell {number}'s source is not text")
    return source


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _tags(cell: dict[str, Any]) -> list[str]:
    tags = _mapping(cell.get("metadata")).get("tags", [])
    return tags if isinstance(tags, list) else []
