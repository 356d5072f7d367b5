"""Cell-as-tool: ``%%mcp_tool word_count(text: str) -> int`` makes the cell body a function.

A leading string is the docstring; the value of the last expression is the result, as ``Out[]``
would show it. The function is compiled against the cell's source so tracebacks show its lines.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable
from typing import Any

_SIGNATURE_START = re.compile(r"^\s*(async\s+)?[A-Za-z_][A-Za-z0-9_]*\s*\(")


class SignatureError(ValueError):
    """The magic line's signature does not parse; the message is one line for the user."""


def split_signature(line: str) -> tuple[str | None, str]:
    """``(signature, options)`` when the line starts with ``name(...)``, else ``(None, line)``."""
    if not _SIGNATURE_START.match(line):
        return None, line
    close = _matching_paren(line, line.index("("))
    rest = line[close + 1 :]
    annotation, options = _split_options(rest)
    signature = line[: close + 1].strip() + (f" {annotation.strip()}" if annotation.strip() else "")
    return signature, options


def _matching_paren(text: str, start: int) -> int:
    depth, quote = 0, ""
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            quote = "" if char == quote and text[index - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return index
    raise SignatureError("the signature's parentheses are not closed")


def _split_options(rest: str) -> tuple[str, str]:
    """Split ``' -> list[str] --read-only'`` into the annotation part and the options part."""
    match = re.search(r"(^|\s)--[A-Za-z]", rest)
    annotation, options = (rest[: match.start()], rest[match.start() :]) if match else (rest, "")
    annotation = annotation.strip()
    if annotation and not annotation.startswith("->"):
        raise SignatureError(f"expected '-> ReturnType' or options after the signature, got {annotation!r}")
    return annotation, options.strip()


def build_function(
    signature: str, body: str, namespace: dict[str, Any], filename: str, *, bind: bool = True
) -> Callable[..., Any]:
    """Define ``def <signature>: <body>`` with ``namespace`` as its globals and return the function.

    ``bind=False`` leaves the function's name out of ``namespace`` (it must not shadow a variable).
    """
    header = _parse_header(signature)
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


def _parse_header(signature: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    is_async = signature.lstrip().startswith("async ")
    text = signature.lstrip().removeprefix("async").lstrip()
    source = f"{'async ' if is_async else ''}def {text}:\n    pass\n"
    try:
        node = ast.parse(source).body[0]
    except SyntaxError as exc:
        raise SignatureError(f"cannot parse the signature {signature!r}: {exc.msg}") from None
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    for child in ast.walk(node):
        # The header is synthetic: put it on the cell's first line so tracebacks stay aligned.
        if hasattr(child, "lineno"):
            child.lineno = child.end_lineno = 1  # type: ignore[attr-defined]
    return node


def _as_function_body(statements: list[ast.stmt]) -> list[ast.stmt]:
    body = list(statements)
    if not body:
        return [ast.Pass()]
    docstring_only = len(body) == 1 and _is_docstring(body[0])
    last = body[-1]
    if isinstance(last, ast.Expr) and not docstring_only:
        returned = ast.Return(value=copy.deepcopy(last.value))
        body[-1] = ast.copy_location(returned, last)
    return body


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def defined_functions(source: str) -> list[str]:
    """Names of the functions a cell defines at top level (public ones first, in order)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
