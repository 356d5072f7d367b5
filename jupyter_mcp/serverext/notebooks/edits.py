"""``jupyter_edit``'s operations: checked against the cells as they are, applied all or nothing as one change.

Ops run in order, each on the notebook as the ones before it left it: ``insert`` (``after`` a cell id,
or at the start), ``replace`` (``source`` and/or ``cell_type``), ``delete``, ``move`` (``after``). An
op that names a cell carries the ``version`` the client read (``move`` may); a cell that changed since
makes the whole batch a ``StaleCell`` error, with the cell as it is now, and nothing is applied.

``plan`` checks a batch without touching the document (what an approval shows: ``describe``);
``apply`` checks it again and applies it inside one transaction of the shared document, so no other
change (a user typing, another agent) can slip between the check and the edit, and every open tab
receives the batch as one update.
"""

from __future__ import annotations

import difflib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from jupyter_mcp.serverext.notebooks.cells import Cell, Cells
from jupyter_mcp.shapes.notebooks import CellType, NotebookCell, TouchedCell
from jupyter_mcp.tools.errors import ToolError

_CLOSED = ConfigDict(extra="forbid")


class Insert(BaseModel):
    """Insert a new cell after the cell ``after`` (null or absent: at the start of the notebook)."""

    model_config = _CLOSED
    op: Literal["insert"]
    after: str | None = Field(None, description="The id of the cell to insert after; null: at the start.")
    cell_type: CellType = "code"
    source: str = ""


class Replace(BaseModel):
    """Replace a cell's source and/or change its type (its id stays)."""

    model_config = _CLOSED
    op: Literal["replace"]
    id: str
    version: str = Field(description="The cell's version as you read it; the edit is refused if it changed since.")
    source: str | None = None
    cell_type: CellType | None = None

    @model_validator(mode="after")
    def _says_what(self) -> Replace:
        if self.source is None and self.cell_type is None:
            raise ValueError("a replace op needs source, cell_type or both")
        return self


class Delete(BaseModel):
    """Delete a cell."""

    model_config = _CLOSED
    op: Literal["delete"]
    id: str
    version: str = Field(description="The cell's version as you read it; the edit is refused if it changed since.")


class Move(BaseModel):
    """Move a cell after the cell ``after`` (null: to the start)."""

    model_config = _CLOSED
    op: Literal["move"]
    id: str
    after: str | None = Field(None, description="The id of the cell to move it after; null: to the start.")
    version: str | None = Field(None, description="If given, the move is refused when the cell changed since.")


Op = Annotated[Insert | Replace | Delete | Move, Field(discriminator="op")]


class StaleCell(ToolError):
    """A cell an op names changed (or is gone) since the client read it: nothing was applied."""


@dataclass
class _Working:
    """The notebook's cell order as a batch changes it, and what each cell is at the start."""

    order: list[str]
    start: Cells
    new: dict[str, Insert] = field(default_factory=dict)

    def index(self, cell_id: str, step: int) -> int:
        try:
            return self.order.index(cell_id)
        except ValueError:
            raise StaleCell(
                f"op {step}: no cell with id {cell_id!r} in the notebook (deleted since you read it, or never there); "
                "nothing was applied. Read the notebook again and retry."
            ) from None

    def position_after(self, after: str | None, step: int) -> int:
        return 0 if after is None else self.index(after, step) + 1


@dataclass(frozen=True)
class Step:
    """One op as planned: its kind, the cell it touches, where it lands."""

    op: Insert | Replace | Delete | Move
    cell_id: str
    index: int


def plan(cells: Cells, ops: Sequence[Insert | Replace | Delete | Move]) -> list[Step]:
    """The batch checked against ``cells``: ``StaleCell`` or ``ToolError`` (saying which op) when it cannot apply."""
    if not ops:
        raise ToolError("ops is empty: give at least one operation")
    working = _Working(list(cells.ids), cells)
    return [_step(working, op, number) for number, op in enumerate(ops, start=1)]


def _step(working: _Working, op: Insert | Replace | Delete | Move, number: int) -> Step:
    if isinstance(op, Insert):
        cell_id = _new_id(working)
        index = working.position_after(op.after, number)
        working.order.insert(index, cell_id)
        working.new[cell_id] = op
        return Step(op, cell_id, index)
    index = working.index(op.id, number)
    if op.version is not None:
        _check_version(working, op.id, op.version, number)
    if isinstance(op, Delete):
        working.order.pop(index)
    elif isinstance(op, Move):
        working.order.pop(index)
        index = working.position_after(op.after, number)
        working.order.insert(index, op.id)
    return Step(op, op.id, index)


def _check_version(working: _Working, cell_id: str, version: str, number: int) -> None:
    cell = working.start.find(cell_id) if cell_id not in working.new else None
    if cell is None or cell.version == version:
        return  # a cell this batch inserted has no version to check
    now = json.dumps(cell_view(cell), ensure_ascii=False)
    raise StaleCell(
        f"op {number}: cell {cell_id!r} changed since you read it (version {version!r}, now {cell.version!r}); "
        f"nothing was applied. Read it again and retry. The cell as it is now: {now}"
    )


def _new_id(working: _Working) -> str:
    while (cell_id := secrets.token_hex(4)) in working.start.ids or cell_id in working.new:
        pass
    return cell_id


def cell_view(cell: Cell) -> NotebookCell:
    """A cell as a client reads it, outputs left out (what a refusal shows)."""
    return {
        "id": cell.id,
        "index": cell.index,
        "cell_type": cell.cell_type,
        "source": cell.source,
        "execution_count": cell.execution_count,
        "version": cell.version,
        "outputs": [],
    }


# ---- applying ----------------------------------------------------------------------------------------


def apply(document: Any, ops: Sequence[Insert | Replace | Delete | Move], origin: object) -> list[TouchedCell]:
    """Check ``ops`` against the live document and apply them in one transaction tagged ``origin``."""
    with document.ydoc.transaction(origin=origin):
        steps = plan(Cells.live(document), ops)
        for step in steps:
            _apply(document, step)
        _keep_ids(document)
        after = Cells.live(document)
    return [_touched(step, after) for step in steps]


def _apply(document: Any, step: Step) -> None:
    ycells, op = document.ycells, step.op
    if isinstance(op, Insert):
        ycells.insert(step.index, document.create_ycell(_new_cell(step.cell_id, op.cell_type, op.source)))
        return
    index = _find(ycells, step.cell_id)
    if isinstance(op, Delete):
        del ycells[index]
    elif isinstance(op, Move):
        cell = ycells[index].to_py()
        del ycells[index]
        ycells.insert(step.index, document.create_ycell(cell))
    elif op.cell_type is not None and op.cell_type != ycells[index]["cell_type"]:
        cell = ycells[index].to_py()
        source = op.source if op.source is not None else str(cell.get("source", ""))
        retyped = {**_new_cell(step.cell_id, op.cell_type, source), "metadata": cell.get("metadata") or {}}
        document.set_ycell(index, document.create_ycell(retyped))
    elif op.source is not None:
        document.set_cell(index, source=op.source)


def _find(ycells: Any, cell_id: str) -> int:
    return next(index for index, ycell in enumerate(ycells) if ycell.get("id") == cell_id)


def _new_cell(cell_id: str, cell_type: str, source: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"id": cell_id, "cell_type": cell_type, "source": source, "metadata": {}}
    if cell_type == "code":
        cell.update(outputs=[], execution_count=None)
    return cell


def _keep_ids(document: Any) -> None:
    """Cell ids are saved only from nbformat 4.5 on: an older notebook is saved as 4.5 once an agent edits it,
    so the ids a client was given stay the cells' ids."""
    from pycrdt import Map

    meta = document.ydoc.get("meta", type=Map)
    if int(meta.get("nbformat", 4)) == 4 and int(meta.get("nbformat_minor", 5)) < 5:
        meta["nbformat_minor"] = 5


def _touched(step: Step, after: Cells) -> TouchedCell:
    cell = after.find(step.cell_id)
    kind = step.op.op
    return {
        "id": step.cell_id,
        "op": kind,
        "version": cell.version if cell is not None else None,
        "index": cell.index if cell is not None else None,
    }


# ---- what an approval shows ------------------------------------------------------------------------


def describe(cells: Cells, steps: Sequence[Step]) -> str:
    """The batch as a diff a person reads: each op, and the source lines it adds or removes."""
    return "\n".join(_described(step, cells) for step in steps)


def _described(step: Step, cells: Cells) -> str:
    op, old = step.op, cells.find(step.cell_id)
    if isinstance(op, Insert):
        where = f"after {op.after}" if op.after else "at the start"
        return _block(f"insert a {op.cell_type} cell {where}", "", op.source)
    label = f"{old.cell_type} cell {step.cell_id}" if old is not None else f"cell {step.cell_id}"
    if isinstance(op, Delete):
        return _block(f"delete the {label}", old.source if old is not None else "", "")
    if isinstance(op, Move):
        return f"@@ move the {label} {f'after {op.after}' if op.after else 'to the start'}"
    source = op.source if op.source is not None else (old.source if old is not None else "")
    retype = (
        f" (now {op.cell_type})"
        if op.cell_type is not None and old is not None and op.cell_type != old.cell_type
        else ""
    )
    return _block(f"replace the {label}{retype}", old.source if old is not None else "", source)


def _block(title: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=2)
    body = [line for line in lines if not line.startswith(("---", "+++"))]
    return "\n".join([f"@@ {title}", *[line for line in body if not line.startswith("@@")]])
