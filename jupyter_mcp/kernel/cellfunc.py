"""Cell-as-tool in the kernel: compile ``def <signature>: <cell>`` into the user's namespace.

The rules (signature, docstring, the last expression returns) are ``syntax.cellfunc``'s. The
function is compiled against the cell's source so tracebacks show its lines.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from typing import Any

from jupyter_mcp.syntax.cellfunc import (
    SignatureError,
    defined_functions,
    parse_header,
    pick_function,
    returns_last,
    split_signature,
)

__all__ = ["SignatureError", "build_function", "defined_functions", "pick_function", "split_signature"]


def build_function(
    signature: str, body: str, namespace: dict[str, Any], filename: str, *, bind: bool = True
) -> Callable[..., Any]:
    """Define ``def <signature>: <body>`` with ``namespace`` as its globals and return the function.

    ``bind=False`` leaves the function's name out of ``namespace`` (it must not shadow a variable).
    """
    header = parse_header(signature)
    for child in ast.walk(header):
        # The header is synthetic: put it on the cell's first line so tracebacks stay aligned.
        if hasattr(child, "lineno"):
            child.lineno = child.end_lineno = 1  # type: ignore[attr-defined]
    try:
        tree = ast.parse(body, filename=filename)
    except SyntaxError:
        raise  # shown as a normal syntax error, with the cell's line
    header.body = _as_function_body(tree.body)
    module = ast.Module(body=[header], type_ignores=[])
    ast.fix_missing_locations(module)
    defined: dict[str, Any] = namespace if bind else {}
    exec(compile(module, filename, "exec"), namespace, defined)  # noqa: S102 - this is the user's own cell
    function: Callable[..., Any] = defined[header.name]
    return function


def _as_function_body(statements: list[ast.stmt]) -> list[ast.stmt]:
    body = list(statements)
    if not body:
        return [ast.Pass()]
    last = body[-1]
    if returns_last(body) and isinstance(last, ast.Expr):
        returned = ast.Return(value=copy.deepcopy(last.value))
        body[-1] = ast.copy_location(returned, last)
    return body
