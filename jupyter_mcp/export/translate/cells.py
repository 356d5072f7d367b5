"""A notebook's cells, in order, as the body of the exported module (or every problem that stops it).

``CELL_MAGICS`` maps a cell magic to its translator; a cell starting with any other ``%%magic``
is reported. ``%%mcp_resource`` and ``%%mcp_prompt`` join the table (``registration.decorator``
with ``"resource"`` / ``"prompt"``) when resources and prompts reach the magics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from jupyter_mcp.export.translate.code import translate_code
from jupyter_mcp.export.translate.findings import ExportError, Finding, Site
from jupyter_mcp.export.translate.toolcell import translate_tool_cell
from jupyter_mcp.notebookfile import Cell, Notebook

CellTranslator = Callable[[str, str, Site], str]
"""``(magic line after the name, cell body, site) -> Python``."""

CELL_MAGICS: dict[str, CellTranslator] = {
    "mcp_tool": translate_tool_cell,
}


@dataclass(frozen=True)
class TranslatedCell:
    cell: Cell
    code: str


@dataclass(frozen=True)
class Translation:
    """The cells as Python, the ``from __future__`` names they import, and what was translated or dropped."""

    cells: list[TranslatedCell]
    futures: frozenset[str]
    notes: list[Finding]


def translate_notebook(notebook: Notebook) -> Translation:
    """Every cell translated; ``ExportError`` lists every problem in the notebook at once."""
    site_of = {cell.number: Site(cell) for cell in notebook.cells}
    cells = [TranslatedCell(cell, translate_cell(cell, site_of[cell.number])) for cell in notebook.cells]
    problems = _in_order(p for site in site_of.values() for p in site.problems)
    if problems:
        raise ExportError(notebook.path.name, problems)
    futures = frozenset(name for site in site_of.values() for name in site.futures)
    return Translation(cells, futures, _in_order(note for site in site_of.values() for note in site.notes))


def _in_order(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda finding: (finding.cell, finding.line))


def translate_cell(cell: Cell, site: Site) -> str:
    """One cell as Python; problems and notes go to ``site``."""
    first, _, body = cell.source.partition("\n")
    if not first.startswith("%%"):
        return translate_code(cell.source, site)
    name, _, line = first[2:].partition(" ")
    translate = CELL_MAGICS.get(name.strip())
    if translate is None:
        site.problem(1, f"%%{name} is an IPython cell magic; a plain Python server has no equivalent")
        return ""
    return translate(line.strip(), body, site)
