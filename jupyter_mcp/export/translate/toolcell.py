"""``%%mcp_tool`` cells in exported code: the function gets ``@server.tool(...)``; a cell-as-tool becomes a function.

The options come from the magic line through the same flags the kernel parses (``syntax.flags``).
``%%mcp_resource`` / ``%%mcp_prompt`` cells follow this shape (``registration.decorator`` with their kind).
"""

from __future__ import annotations

import argparse
import ast
import shlex
from typing import Any, NoReturn

from jupyter_mcp.export.translate.code import translate_code
from jupyter_mcp.export.translate.findings import Site
from jupyter_mcp.export.translate.linemagics import Untranslatable
from jupyter_mcp.export.translate.registration import add_call, decorator, exported_tool_options
from jupyter_mcp.syntax.cellfunc import (
    SignatureError,
    defined_functions,
    function_source,
    parse_header,
    pick_function,
    split_signature,
)
from jupyter_mcp.syntax.flags import add_flags, tool_options


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise Untranslatable(f"%%mcp_tool: {message}")


def translate_tool_cell(line: str, body: str, site: Site) -> str:
    """The Python for a ``%%mcp_tool`` cell whose magic line (after ``%%mcp_tool``) is ``line``."""
    try:
        signature, option_text = split_signature(line)
        args = _parse(option_text)
        if signature is not None and args.name:
            raise Untranslatable("give either a signature or NAME, not both")
        options, note = exported_tool_options(tool_options(args))
    except (SignatureError, Untranslatable) as exc:
        site.problem(1, str(exc))
        return body
    if note:
        site.note(1, note)
    comment = f"# {note}\n" if note else ""
    code_site = site.at(1)
    if signature is not None:
        return comment + _cell_function(signature, body, options, code_site)
    return _function_cell(args.name, body, options, code_site, comment)


def _parse(text: str) -> argparse.Namespace:
    parser = add_flags(_Parser(prog="%%mcp_tool", add_help=False))
    parser.add_argument("name", nargs="?")
    try:
        return parser.parse_args(shlex.split(text))
    except ValueError as exc:
        raise Untranslatable(f"%%mcp_tool: cannot parse the options: {exc}") from None


def _cell_function(signature: str, body: str, options: dict[str, Any], site: Site) -> str:
    try:
        parse_header(signature)
    except SignatureError as exc:
        site.at(0).problem(1, str(exc))
        return body
    python = translate_code(body, site, top_level=False)
    try:
        source = function_source(signature, python)
    except SyntaxError:
        return python  # reported by translate_code
    return f"{decorator('tool', options)}\n{source}"


def _function_cell(name: str | None, body: str, options: dict[str, Any], site: Site, comment: str) -> str:
    python = translate_code(body, site)
    defined = defined_functions(python)
    if name is not None and name not in defined:
        return f"{python.rstrip()}\n{comment}{add_call('tool', name, options)}\n"  # a function from an earlier cell
    try:
        chosen = pick_function(defined, name)
    except ValueError as exc:
        site.at(0).problem(1, str(exc))
        return python
    return _decorate(python, chosen, f"{comment}{decorator('tool', options)}")


def _decorate(python: str, name: str, text: str) -> str:
    """``python`` with ``text`` above the (last) top-level definition of ``name``, outside its decorators."""
    tree = ast.parse(python)
    (*_, node) = (n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name)
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    lines = python.splitlines(keepends=True)
    lines.insert(first - 1, text + "\n")
    return "".join(lines)
