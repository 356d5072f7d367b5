"""Translate a cell's code (IPython syntax allowed) into Python for the exported module.

Line magics on their own line go through ``LINE_MAGICS``; ``jupyter_mcp.get_server()`` and
``jupyter_mcp.tool`` become the exported ``server``; ``from __future__`` imports move to the top.
What only a notebook can run is reported with its line: shell commands, other magics, ``display()``,
``get_ipython()``, IPython/ipywidgets imports, top-level ``await``, kernel-only ``server.<attr>``,
and a rebinding of the names the module reserves (``server``, ``main``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache

from jupyter_mcp.export.translate.edits import Edit, apply, indent_continuation
from jupyter_mcp.export.translate.findings import Site
from jupyter_mcp.export.translate.ipython import IPythonCall, ipython_call, to_python
from jupyter_mcp.export.translate.linemagics import Translation, Untranslatable, translate_line_magic
from jupyter_mcp.export.translate.registration import SERVER

RESERVED = (SERVER, "main")
NOTEBOOK_MODULES = ("IPython", "ipykernel", "ipywidgets", "anywidget", "matplotlib_inline", "google.colab")
KERNEL_SIDE = ("jupyter_mcp.kernel", "jupyter_mcp.widgets", "jupyter_mcp.serverext", "jupyter_mcp.cli")
NOTEBOOK_NAMES = {
    "get_ipython": "get_ipython() exists only in IPython",
    "display": "display() shows output in a notebook; a server has no cell to show it in (return the value instead)",
    "In": "In is IPython's list of cell inputs",
    "Out": "Out is IPython's dict of cell results",
}
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def translate_code(source: str, site: Site, *, top_level: bool = True) -> str:
    """``source`` as plain Python; problems and notes go to ``site`` (``top_level``: module code, not a body)."""
    python = to_python(source)
    try:
        tree = ast.parse(python)
    except SyntaxError as exc:
        site.problem(exc.lineno or 1, f"syntax error: {exc.msg}")
        return source
    return _Translator(python, tree, site, top_level).run()


@cache
def server_attributes() -> frozenset[str]:
    """What the exported ``ToolServer`` has (kernel-only ``server.<attr>`` uses are reported)."""
    from jupyter_mcp.tools import ToolServer

    return frozenset(dir(ToolServer)) | frozenset(vars(ToolServer("probe")))


class _Translator:
    def __init__(self, python: str, tree: ast.Module, site: Site, top_level: bool) -> None:
        self.python, self.tree, self.site, self.top_level = python, tree, site, top_level
        self.edits: list[Edit] = []
        self.replaced: list[Edit] = []
        self.modules = {"jupyter_mcp"} | _aliases_of(tree, "jupyter_mcp")
        self.in_functions = _function_descendants(tree)
        self.in_ipython_calls: set[int] = set()

    def run(self) -> str:
        for statement, block in _statements(self.tree.body):
            self._statement(statement, block)
        for node in ast.walk(self.tree):
            if not any(_within(node, edit) for edit in self.replaced):
                self._node(node)
        if self.top_level:
            self._check_bindings(self.tree.body)
        return apply(self.python, self.edits)

    # ---- statements replaced whole -----------------------------------------------------------

    def _statement(self, statement: ast.stmt, block: list[ast.stmt]) -> None:
        call = ipython_call(statement.value) if isinstance(statement, ast.Expr) else None
        if call is not None and call.kind == "run_line_magic" and call.name != "pinfo":
            try:
                self._replace(statement, translate_line_magic(call.name, call.line), alone=len(block) == 1)
            except Untranslatable as exc:
                self.site.problem(statement.lineno, str(exc))
                self._mark(statement)
        elif self._is_server_assignment(statement):
            note = f"{SERVER} = jupyter_mcp.get_server(): the exported module's ToolServer is {SERVER}"
            self._replace(statement, Translation(None, note), alone=len(block) == 1)
        elif isinstance(statement, ast.ImportFrom) and statement.module == "__future__" and block is self.tree.body:
            self.site.futures.update(alias.name for alias in statement.names)
            self._replace(statement, Translation(None, None), alone=False)

    def _replace(self, statement: ast.stmt, translation: Translation, *, alone: bool) -> None:
        lines = [f"# {translation.note}"] if translation.note else []
        if translation.code is not None:
            lines.append(translation.code)
        elif alone:
            lines.append("pass")
        if translation.note:
            self.site.note(statement.lineno, translation.note)
        text = indent_continuation("\n".join(lines), statement.col_offset)
        edit = Edit.of(statement, text)
        self.edits.append(edit)
        self.replaced.append(edit)

    def _mark(self, statement: ast.stmt) -> None:
        self.replaced.append(Edit.of(statement, ""))  # reported once; its parts are not checked again

    def _is_server_assignment(self, statement: ast.stmt) -> bool:
        return (
            isinstance(statement, ast.Assign)
            and [_name(t) for t in statement.targets] == [SERVER]
            and self._is_get_server(statement.value)
        )

    # ---- expressions -------------------------------------------------------------------------

    def _node(self, node: ast.AST) -> None:
        call = ipython_call(node)
        if call is not None:
            self._ipython(node, call)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in NOTEBOOK_NAMES:
            if id(node) not in self.in_ipython_calls:
                self.site.problem(node.lineno, NOTEBOOK_NAMES[node.id])
        elif isinstance(node, ast.Import | ast.ImportFrom):
            self._import(node)
        elif self._is_get_server(node):
            assert isinstance(node, ast.expr)
            self.edits.append(Edit.of(node, SERVER))
        elif isinstance(node, ast.Attribute):
            self._attribute(node)
        elif isinstance(node, ast.Await | ast.AsyncFor | ast.AsyncWith) and self._at_top(node):
            self.site.problem(
                node.lineno,
                "top-level await runs only in a notebook: move it into an async tool, or leave this cell out "
                "(tag the server's cells 'mcp' and export with --tagged)",
            )

    def _ipython(self, node: ast.AST, call: IPythonCall) -> None:
        self.in_ipython_calls.update(id(child) for child in ast.walk(node))
        line = getattr(node, "lineno", 1)
        if call.kind in ("system", "getoutput"):
            self.site.problem(line, f"{call} is a shell command; a server has no shell escape (use subprocess.run)")
        elif call.name == "pinfo":
            self.site.problem(line, "?/?? shows IPython help; a server has no use for it")
        else:
            self.site.problem(line, f"{call}: only a magic on its own line is translated (its value is used here)")

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        for module in modules:
            if _under(module, NOTEBOOK_MODULES):
                self.site.problem(
                    node.lineno, f"{module} is part of the notebook stack; the exported server runs without it"
                )
            elif _under(module, KERNEL_SIDE):
                self.site.problem(
                    node.lineno, f"{module} is jupyter_mcp's notebook side; the server uses jupyter_mcp.tools"
                )
        if isinstance(node, ast.ImportFrom) and node.module == "jupyter_mcp":
            for alias in node.names:
                if alias.name in ("get_server", "tool"):
                    self.site.problem(
                        node.lineno,
                        f"from jupyter_mcp import {alias.name}: write jupyter_mcp.{alias.name}, which the export "
                        f"turns into the exported {SERVER}",
                    )

    def _attribute(self, node: ast.Attribute) -> None:
        if _name(node.value) in self.modules and node.attr == "tool":
            self.edits.append(Edit.of(node, f"{SERVER}.tool"))
        elif (_name(node.value) == SERVER or self._is_get_server(node.value)) and node.attr not in server_attributes():
            self.site.problem(
                node.lineno,
                f"{SERVER}.{node.attr} belongs to the notebook's server; the exported server is a plain ToolServer",
            )

    def _is_get_server(self, node: ast.AST) -> bool:
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get_server"
            and _name(node.func.value) in self.modules
            and not node.args
            and not node.keywords
        )

    def _at_top(self, node: ast.AST) -> bool:
        return self.top_level and id(node) not in self.in_functions

    # ---- module-level names ------------------------------------------------------------------

    def _check_bindings(self, body: list[ast.stmt]) -> None:
        for statement, _block in _statements(body, into_functions=False):
            if any(_within(statement, edit) for edit in self.replaced):
                continue
            for name in sorted(_bound_names(statement) & set(RESERVED)):
                self.site.problem(
                    statement.lineno,
                    f"the exported module names its ToolServer {SERVER!r} and its entry point 'main': "
                    f"rename this {name!r}",
                )


def _statements(body: list[ast.stmt], *, into_functions: bool = True) -> Iterator[tuple[ast.stmt, list[ast.stmt]]]:
    """Every statement with the block holding it, depth first (function and class bodies too, unless told)."""
    for statement in body:
        yield statement, body
        if not into_functions and isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _statements(inner, into_functions=into_functions)
        for handler in getattr(statement, "handlers", []):
            yield from _statements(handler.body, into_functions=into_functions)
        for case in getattr(statement, "cases", []):
            yield from _statements(case.body, into_functions=into_functions)


def _bound_names(statement: ast.stmt) -> set[str]:
    """Names a statement binds in its own scope (not in the blocks it holds)."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {statement.name}
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in statement.names}
    targets: list[ast.AST] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
        targets = [statement.target]
    elif isinstance(statement, ast.With | ast.AsyncWith):
        targets = [item.optional_vars for item in statement.items if item.optional_vars is not None]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _function_descendants(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, _FUNCTIONS):
            inside.update(id(child) for child in ast.walk(node) if child is not node)
    return inside


def _aliases_of(tree: ast.AST, module: str) -> set[str]:
    return {
        alias.asname
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == module and alias.asname
    }


def _name(node: ast.AST) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _under(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(f"{p}.") for p in packages)


def _within(node: ast.AST, edit: Edit) -> bool:
    start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    end = (getattr(node, "end_lineno", 0), getattr(node, "end_col_offset", 0))
    return start[0] > 0 and edit.start <= start and end <= edit.end
