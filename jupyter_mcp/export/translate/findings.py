"""What translating a notebook found: problems (the export stops) and notes (what was translated or dropped)."""

from __future__ import annotations

from dataclasses import dataclass, field

from jupyter_mcp.notebookfile import Cell


@dataclass(frozen=True)
class Finding:
    """One line of a cell and what export says about it; ``line`` counts from 1 within the cell."""

    cell: int
    line: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"cell {self.cell}, line {self.line}: {self.text.strip()}\n    {self.message}"


class ExportError(Exception):
    """The notebook cannot be exported; ``problems`` lists every line that stops it (nothing was written)."""

    def __init__(self, source: str, problems: list[Finding]) -> None:
        self.problems = problems
        listed = "\n".join(f"  {problem}" for problem in problems)
        count = f"{len(problems)} line{'s' if len(problems) != 1 else ''}"
        super().__init__(f"{source}: {count} cannot run outside a notebook (nothing was written):\n{listed}")


@dataclass
class Site:
    """Where translation is in a cell (the cell line of code line 1), and what it collects on the way.

    ``futures`` are ``from __future__`` imports, which move to the top of the module.
    """

    cell: Cell
    offset: int = 0
    problems: list[Finding] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)
    futures: set[str] = field(default_factory=set)

    def at(self, offset: int) -> Site:
        """The same cell, for code whose line 1 is cell line ``offset + 1`` (what it collects is shared)."""
        return Site(self.cell, offset, self.problems, self.notes, self.futures)

    def problem(self, line: int, message: str) -> None:
        _add(self.problems, self._finding(line, message))

    def note(self, line: int, message: str) -> None:
        _add(self.notes, self._finding(line, message))

    def _finding(self, line: int, message: str) -> Finding:
        lines = self.cell.source.splitlines()
        number = min(max(self.offset + line, 1), max(len(lines), 1))
        text = lines[number - 1] if lines else ""
        return Finding(self.cell.number, number, text, message)


def _add(findings: list[Finding], finding: Finding) -> None:
    if finding not in findings:  # two uses on one line are one finding
        findings.append(finding)
