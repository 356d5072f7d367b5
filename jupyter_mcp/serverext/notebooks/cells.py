"""Cells as the notebook tools see them: a plain form read from the live document or a file, and versions.

A cell's ``version`` is a short hash of its type, source, outputs and execution count, so it changes
whenever one of them does and needs no table of its own: a client that read version ``v`` may change
the cell only while it still hashes to ``v``. The live document (pycrdt) and the file (nbformat) say
the same things in slightly different forms (a text as a list of lines, a count as a float); both are
brought to one form first, so a cell has the same version however it was read.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson

from jupyter_mcp.shapes.notebooks import CellType

VERSION_CHARS = 12
_CELL_TYPES = ("code", "markdown", "raw")
_RANGE = re.compile(r"^\s*(-?\d*)\s*:\s*(-?\d*)\s*$")


@dataclass(frozen=True)
class Cell:
    """One cell in the one plain form, and its position."""

    id: str
    index: int
    cell_type: CellType
    source: str
    execution_count: int | None
    outputs: list[dict[str, Any]]

    @property
    def version(self) -> str:
        return version_of(self.cell_type, self.source, self.outputs, self.execution_count)


def version_of(cell_type: str, source: str, outputs: list[dict[str, Any]], execution_count: int | None) -> str:
    data = orjson.dumps([cell_type, source, outputs, execution_count], option=orjson.OPT_SORT_KEYS)
    return hashlib.blake2b(data, digest_size=VERSION_CHARS // 2).hexdigest()


class Cells:
    """A notebook's cells as they are now: their ids at once, each cell's whole content only when asked for
    (a shared document's cell comes out of pycrdt on demand: reading all 200 of a notebook to touch one
    would cost more than the edit).

    ``Cells.live(document)`` for a ``jupyter_ydoc.YNotebook``, ``Cells.of(raw)`` for a file's cells.
    """

    def __init__(self, ids: list[str], fetch: Callable[[int], dict[str, Any]]) -> None:
        self.ids = ids
        self._fetch = fetch
        self._cells: dict[int, Cell] = {}

    @classmethod
    def live(cls, document: Any) -> Cells:
        ycells = document.ycells
        ids = [str(ycell.get("id") or f"cell-{index}") for index, ycell in enumerate(ycells)]
        return cls(ids, lambda index: dict(ycells[index].to_py()))

    @classmethod
    def of(cls, raw: Sequence[dict[str, Any]]) -> Cells:
        return cls([str(cell.get("id") or f"cell-{index}") for index, cell in enumerate(raw)], lambda i: raw[i])

    def __len__(self) -> int:
        return len(self.ids)

    def at(self, index: int) -> Cell:
        cell = self._cells.get(index)
        if cell is None:
            cell = self._cells[index] = plain_cell(self._fetch(index), index)
        return cell

    def find(self, cell_id: str) -> Cell | None:
        """The cell with this id (the first, should a notebook hold two), if there is one."""
        try:
            return self.at(self.ids.index(cell_id))
        except ValueError:
            return None


def plain_cells(raw: Iterable[dict[str, Any]]) -> list[Cell]:
    """Cells in the plain form, from the live document's ``to_py()`` or a notebook file's cells."""
    return [plain_cell(cell, index) for index, cell in enumerate(raw)]


def plain_cell(cell: dict[str, Any], index: int) -> Cell:
    cell_type = str(cell.get("cell_type", "code"))
    count = cell.get("execution_count")
    return Cell(
        id=str(cell.get("id") or f"cell-{index}"),
        index=index,
        cell_type=cast(CellType, cell_type if cell_type in _CELL_TYPES else "raw"),
        source=joined(cell.get("source", "")),
        execution_count=int(count) if isinstance(count, int | float) else None,
        outputs=[plain_output(output) for output in cell.get("outputs") or []] if cell_type == "code" else [],
    )


def plain_output(output: dict[str, Any]) -> dict[str, Any]:
    """An output with its texts as strings and its counts as integers (as nbformat writes them)."""
    plain: dict[str, Any] = {}
    for key, value in output.items():
        if key == "text":
            plain[key] = joined(value)
        elif key == "data" and isinstance(value, dict):
            plain[key] = {mime: joined(item) if _texty(mime, item) else item for mime, item in value.items()}
        elif key == "execution_count" and isinstance(value, float):
            plain[key] = int(value)
        else:
            plain[key] = value
    return plain


def _texty(mime: str, value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value) and not mime.endswith("json")


def joined(value: Any) -> str:
    """A notebook text: a string, or a list of lines (nbformat's multiline strings)."""
    if isinstance(value, list):
        return "".join(str(item) for item in value)
    return "" if value is None else str(value)


class BadSelection(ValueError):
    """``cells`` names no cells it could (its message says what it takes)."""


def select(cells: Cells, wanted: list[str] | str | None) -> list[Cell]:
    """The cells ``wanted`` names: ids (in the order asked), an index range ``"start:stop"`` (Python's slice
    rules, negative counts from the end), or every cell."""
    indexes = list(range(len(cells)))
    if wanted is None:
        return [cells.at(index) for index in indexes]
    if isinstance(wanted, str):
        match = _RANGE.match(wanted)
        if match is None:
            raise BadSelection(f"cells={wanted!r}: give a list of cell ids or an index range like '0:20' or '-5:'")
        start, stop = (int(part) if part else None for part in match.groups())
        return [cells.at(index) for index in indexes[start:stop]]
    by_id = {cell_id: index for index, cell_id in reversed(list(enumerate(cells.ids)))}
    missing = [cell_id for cell_id in wanted if cell_id not in by_id]
    if missing:
        raise BadSelection(f"no cell with id {', '.join(map(repr, missing))} (read the notebook for its cells' ids)")
    return [cells.at(by_id[cell_id]) for cell_id in wanted]
