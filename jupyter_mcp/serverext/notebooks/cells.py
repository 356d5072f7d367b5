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
_ONE_BY_ONE = 8
"""Up to this many cells are read one by one; more all at once."""
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

    def __init__(
        self,
        count: int,
        fetch: Callable[[int], dict[str, Any]],
        fetch_ids: Callable[[], list[str]],
        fetch_all: Callable[[], list[dict[str, Any]]],
    ) -> None:
        self._count = count
        self._fetch = fetch
        self._fetch_ids = fetch_ids
        self._fetch_all = fetch_all
        self._ids: list[str] | None = None
        self._cells: dict[int, Cell] = {}

    @classmethod
    def live(cls, document: Any) -> Cells:
        # A shared type's str() is its JSON, made by Yrs in one pass: about 10x faster than to_py(), which
        # walks every map, text and array in Python (200 cells with outputs: 9 ms against 100 ms).
        ycells = document.ycells

        def ids() -> list[str]:
            return [_id(ycell.get("id"), index) for index, ycell in enumerate(ycells)]

        return cls(
            len(ycells), lambda i: dict(orjson.loads(str(ycells[i]))), ids, lambda: list(orjson.loads(str(ycells)))
        )

    @classmethod
    def of(cls, raw: Sequence[dict[str, Any]]) -> Cells:
        return cls(
            len(raw), lambda i: raw[i], lambda: [_id(c.get("id"), i) for i, c in enumerate(raw)], lambda: list(raw)
        )

    @property
    def ids(self) -> list[str]:
        """Every cell's id, in order."""
        if self._ids is None:
            if len(self._cells) == self._count:
                self._ids = [self._cells[index].id for index in range(self._count)]
            else:
                self._ids = self._fetch_ids()
        return self._ids

    def load_all(self) -> None:
        """Read every cell now, at once (before asking for many of them)."""
        if len(self._cells) < self._count:
            self._cells = {index: plain_cell(raw, index) for index, raw in enumerate(self._fetch_all())}

    def __len__(self) -> int:
        return self._count

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


def _id(value: Any, index: int) -> str:
    return str(value or f"cell-{index}")


def plain_cells(raw: Iterable[dict[str, Any]]) -> list[Cell]:
    """Cells in the plain form, from the live document's ``to_py()`` or a notebook file's cells."""
    return [plain_cell(cell, index) for index, cell in enumerate(raw)]


def plain_cell(cell: dict[str, Any], index: int) -> Cell:
    cell_type = str(cell.get("cell_type", "code"))
    count = cell.get("execution_count")
    return Cell(
        id=_id(cell.get("id"), index),
        index=index,
        cell_type=cast(CellType, cell_type if cell_type in _CELL_TYPES else "raw"),
        source=joined(cell.get("source", "")),
        execution_count=int(count) if isinstance(count, int | float) else None,
        outputs=[plain_output(output) for output in cell.get("outputs") or []] if cell_type == "code" else [],
    )


def plain_output(output: dict[str, Any]) -> dict[str, Any]:
    """An output with its texts as strings and its counts as integers (as nbformat writes them)."""
    if _plain_already(output):
        return output  # what the live document holds, nearly always: nothing to bring to the one form
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


def _plain_already(output: dict[str, Any]) -> bool:
    text, data = output.get("text"), output.get("data")
    return (
        (text is None or type(text) is str)
        and (data is None or (type(data) is dict and not any(type(v) is list for v in data.values())))
        and type(output.get("execution_count")) is not float
    )


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
    chosen = _indexes(cells, wanted)
    if len(chosen) > _ONE_BY_ONE:
        cells.load_all()
    return [cells.at(index) for index in chosen]


def _indexes(cells: Cells, wanted: list[str] | str | None) -> list[int]:
    indexes = list(range(len(cells)))
    if wanted is None:
        return indexes
    if isinstance(wanted, str):
        match = _RANGE.match(wanted)
        if match is None:
            raise BadSelection(f"cells={wanted!r}: give a list of cell ids or an index range like '0:20' or '-5:'")
        start, stop = (int(part) if part else None for part in match.groups())
        return indexes[start:stop]
    by_id = {cell_id: index for index, cell_id in reversed(list(enumerate(cells.ids)))}
    missing = [cell_id for cell_id in wanted if cell_id not in by_id]
    if missing:
        raise BadSelection(f"no cell with id {', '.join(map(repr, missing))} (read the notebook for its cells' ids)")
    return [by_id[cell_id] for cell_id in wanted]
