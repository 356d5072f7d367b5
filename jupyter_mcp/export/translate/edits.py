"""Text edits at AST positions (``ast`` columns count UTF-8 bytes), applied back to front."""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    """Replace the source from ``start`` to ``end`` (``(line, byte column)``, lines from 1) with ``text``."""

    start: tuple[int, int]
    end: tuple[int, int]
    text: str

    @classmethod
    def of(cls, node: ast.expr | ast.stmt, text: str) -> Edit:
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        return cls((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset), text)

    def inside(self, other: Edit) -> bool:
        return other.start <= self.start and self.end <= other.end


def apply(source: str, edits: list[Edit]) -> str:
    """``source`` with every edit made; an edit inside another is dropped (the outer one wins)."""
    outer = [e for e in edits if not any(e is not o and e.inside(o) for o in edits)]
    lines = [line.encode() for line in source.splitlines(keepends=True)] or [b""]
    for edit in sorted(outer, key=lambda e: e.start, reverse=True):
        (start_line, start_col), (end_line, end_col) = edit.start, edit.end
        head = lines[start_line - 1][:start_col]
        tail = lines[end_line - 1][end_col:]
        lines[start_line - 1 : end_line] = [head + edit.text.encode() + tail]
    return b"".join(lines).decode()


def indent_continuation(text: str, column: int) -> str:
    """Lines after the first of ``text`` indented to ``column`` (for code replacing an indented statement)."""
    first, *rest = text.split("\n")
    return "\n".join([first, *((" " * column + line) if line else line for line in rest)])
