"""Cell-as-tool syntax: ``%%mcp_tool word_count(text: str) -> int`` makes the cell body a function.

A leading string is the docstring; the value of the last expression is the result, as ``Out[]``
would show it. The kernel compiles such a function (``kernel/cellfunc.py``); ``export`` writes it
out as source. Both use the rules here.
"""

from __future__ import annotations

import ast
import re

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


def def_line(signature: str) -> str:
    """``word_count(text: str) -> int`` -> ``def word_count(text: str) -> int:`` (``async def`` kept)."""
    is_async = signature.lstrip().startswith("async ")
    text = signature.lstrip().removeprefix("async").lstrip()
    return f"{'async ' if is_async else ''}def {text}:"


def parse_header(signature: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The function definition the signature declares (with an empty body); ``SignatureError`` if it is not one."""
    try:
        node = ast.parse(f"{def_line(signature)}\n    pass\n").body[0]
    except SyntaxError as exc:
        raise SignatureError(f"cannot parse the signature {signature!r}: {exc.msg}") from None
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    return node


def returns_last(statements: list[ast.stmt]) -> bool:
    """Whether the body's last statement is an expression whose value the function returns."""
    if not statements or not isinstance(statements[-1], ast.Expr):
        return False
    return not (len(statements) == 1 and is_docstring(statements[0]))


def is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def defined_functions(source: str) -> list[str]:
    """Names of the functions a cell defines at top level, in order."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def pick_function(defined: list[str], name: str | None, magic: str = "mcp_tool") -> str:
    """The function a ``%%mcp_tool [NAME]`` cell makes a tool; ``ValueError`` says why there is none.

    ``magic`` names the cell magic in the message that asks for a name.
    """
    if name is not None:
        if name not in defined:
            raise ValueError(
                f"{name!r} is not a function defined by this cell (defined: {', '.join(defined) or 'none'})"
            )
        return name
    public = [n for n in defined if not n.startswith("_")]
    if len(public) != 1:
        found = ", ".join(public) or "none"
        raise ValueError(f"this cell defines {len(public)} public functions ({found}); name one: %%{magic} NAME")
    return public[0]


def function_source(signature: str, body: str) -> str:
    """``def <signature>:`` with ``body`` indented under it and its last expression returned, as source.

    Lines inside multi-line strings keep their text (only a docstring's lines are indented, which
    ``inspect.getdoc`` reads the same); a body that raises ``SyntaxError`` is the caller's to report.
    """
    tree = ast.parse(body)
    lines = body.splitlines()
    if returns_last(tree.body):
        last = tree.body[-1]
        lines[last.lineno - 1] = _insert(lines[last.lineno - 1], last.col_offset, "return ")
    frozen = _string_continuations(body) - _docstring_lines(tree)
    indented = [line if not line.strip() or number in frozen else f"    {line}" for number, line in enumerate(lines, 1)]
    return "\n".join([def_line(signature), *(indented if tree.body else ["    pass"])])


def _insert(line: str, byte_column: int, text: str) -> str:
    raw = line.encode()
    return (raw[:byte_column] + text.encode() + raw[byte_column:]).decode()


def _string_continuations(source: str) -> set[int]:
    """Line numbers that start inside a multi-line string (indenting them would change the string)."""
    import io
    import tokenize

    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            lines.update(range(token.start[0] + 1, token.end[0] + 1))
    return lines


def _docstring_lines(tree: ast.Module) -> set[int]:
    if not tree.body or not is_docstring(tree.body[0]):
        return set()
    first = tree.body[0]
    return set(range(first.lineno + 1, (first.end_lineno or first.lineno) + 1))
