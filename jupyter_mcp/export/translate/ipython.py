"""IPython syntax as Python: IPython's own transformer turns ``%magic`` / ``!cmd`` / ``x?`` into
``get_ipython()`` calls, which ``ipython_call`` then recognizes in the syntax tree."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Literal

Kind = Literal["run_line_magic", "run_cell_magic", "system", "getoutput"]
_KINDS = ("run_line_magic", "run_cell_magic", "system", "getoutput")


def to_python(source: str) -> str:
    """``source`` with IPython's escapes rewritten as ``get_ipython()`` calls (what a kernel runs)."""
    from IPython.core.inputtransformer2 import TransformerManager

    python: str = TransformerManager().transform_cell(source)  # type: ignore[no-untyped-call]
    return python


@dataclass(frozen=True)
class IPythonCall:
    """A ``get_ipython().<kind>(...)`` call: a line or cell magic (``name``, ``line``), or a shell command."""

    kind: Kind
    name: str
    line: str

    def __str__(self) -> str:
        if self.kind == "run_line_magic":
            return f"%{self.name} {self.line}".strip() if self.name != "pinfo" else f"{self.line}?"
        if self.kind == "run_cell_magic":
            return f"%%{self.name} {self.line}".strip()
        return f"!{self.line}" if self.kind == "system" else f"!{self.line} (its output)"


def ipython_call(node: ast.AST) -> IPythonCall | None:
    """The IPython call ``node`` is, if it is one (``None`` for any other node)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_get_ipython(node.func.value)):
        return None
    kind = node.func.attr
    texts = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
    if kind not in _KINDS or len(texts) != len(node.args) or not texts:
        return None
    if kind in ("system", "getoutput"):
        return IPythonCall(kind, "", texts[0])  # type: ignore[arg-type]
    return IPythonCall(kind, texts[0], texts[1] if len(texts) > 1 else "")  # type: ignore[arg-type]


def _is_get_ipython(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "get_ipython"
