"""Reference text generated from the code, so it cannot drift from it.

``{cli-help} list`` prints ``jupyter-mcp list --help`` (no argument: the top-level help), from the
parser itself. ``{shapes} jupyter_mcp.shapes.rest`` documents every ``TypedDict`` a module
defines: its docstring, then each key with its type and the docstring written under it.
``{help-table} dotted.path.MAPPING`` is a table of a ``{key: one sentence}`` mapping (the tool
options' help, which the magics' ``--help`` says too). ``{settings} dotted.path.Model`` is a table of
a settings record's fields (a pydantic model): name, type, default and the field's docstring.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import inspect
import re
from pathlib import Path
from typing import Any, get_type_hints

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from typing_extensions import is_typeddict

HELP_WIDTH = 100


def command_help(command: str | None) -> str:
    from jupyter_mcp.cli import build_parser

    parser = build_parser()
    if command is not None:
        (subparsers,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if command not in subparsers.choices:
            raise KeyError(f"jupyter-mcp has no command {command!r} (it has {', '.join(subparsers.choices)})")
        parser = subparsers.choices[command]
    # A fixed width: argparse would otherwise wrap to whatever terminal builds the docs.
    parser.formatter_class = functools.partial(parser.formatter_class, width=HELP_WIDTH)  # type: ignore[assignment]
    return parser.format_help()


class CliHelpDirective(SphinxDirective):
    """``{cli-help} [COMMAND]``: the help of ``jupyter-mcp [COMMAND]`` as a literal block."""

    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        command = self.arguments[0] if self.arguments else None
        try:
            text = command_help(command)
        except KeyError as error:
            raise self.error(str(error)) from error
        block = nodes.literal_block(text, text, language="text")
        return [block]


def key_docs(shape: type) -> dict[str, str]:
    """The docstring written under each key of a ``TypedDict`` class (``key: T`` then ``\"\"\"text\"\"\"``),
    its base classes' keys included."""
    docs: dict[str, str] = {}
    for base in getattr(shape, "__orig_bases__", ()):
        if is_typeddict(base):
            docs |= key_docs(base)
    return docs | _own_key_docs(shape)


def _own_key_docs(shape: type) -> dict[str, str]:
    (tree,) = ast.parse(inspect.cleandoc("\n" + inspect.getsource(shape))).body
    assert isinstance(tree, ast.ClassDef)
    docs: dict[str, str] = {}
    for statement, following in zip(tree.body, tree.body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


def type_text(annotation: Any) -> str:
    """``list[ToolEntry]``, ``str | None``: module paths left out."""
    text = inspect.formatannotation(annotation)
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*)", r"\1", text)


def prose(text: str) -> str:
    """Docstring text as markdown: code spans kept, ``<id>`` and ``*`` outside them shown as written."""
    parts = re.split(r"(`+[^`]+`+)", text)
    return "".join(part if part.startswith("`") else re.sub(r"([<>*\\])", r"\\\1", part) for part in parts)


def cell(text: str) -> str:
    """One table cell: one line, its pipes escaped (GFM splits cells on them, in code spans too)."""
    return " ".join(text.split()).replace("|", "\\|")


def type_cell(annotation: Any, shapes: set[str]) -> str:
    """The type as code, each shape of the same module in it a link to that shape's table."""
    parts = (
        re.split(r"\b(" + "|".join(sorted(shapes)) + r")\b", type_text(annotation))
        if shapes
        else [type_text(annotation)]
    )
    return "".join(f"{{ref}}`{part} <shape-{part}>`" if part in shapes else f"`{cell(part)}`" for part in parts if part)


def shape_lines(shape: type, shapes: set[str]) -> list[str]:
    docs = key_docs(shape)
    lines = [
        f"(shape-{shape.__name__})=",
        f"**{shape.__name__}**",
        "",
        prose(inspect.cleandoc(shape.__doc__ or "")),
        "",
    ]
    lines += ["| key | type | meaning |", "|---|---|---|"]
    for key, annotation in get_type_hints(shape).items():
        lines.append(f"| `{key}` | {type_cell(annotation, shapes)} | {cell(prose(docs.get(key, '')))} |")
    return [*lines, ""]


class ShapesDirective(SphinxDirective):
    """``{shapes} dotted.module [another.module …]``: every ``TypedDict`` the modules define, as a table
    of its keys (a shape named in a key's type links to its table)."""

    required_arguments = 1
    optional_arguments = 5

    def run(self) -> list[nodes.Node]:
        shapes: list[type] = []
        for name in self.arguments:
            module = importlib.import_module(name)
            defined = [v for v in vars(module).values() if is_typeddict(v) and v.__module__ == module.__name__]
            if not defined:
                raise self.error(f"{module.__name__} defines no TypedDict")
            self.env.note_dependency(str(Path(inspect.getfile(module))))
            shapes += defined
        names = {shape.__name__ for shape in shapes}
        lines = [line for shape in shapes for line in shape_lines(shape, names)]
        container = nodes.container(classes=["shapes"])
        self.state.nested_parse(StringList(lines, source=f"<{self.arguments[0]}>"), self.content_offset, container)
        return list(container.children)


class HelpTableDirective(SphinxDirective):
    """``{help-table} dotted.path.MAPPING``: a two-column table, each key and its help sentence."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module_name, _, name = self.arguments[0].rpartition(".")
        module = importlib.import_module(module_name)
        mapping = getattr(module, name, None)
        if not isinstance(mapping, dict) or not mapping:
            raise self.error(f"{self.arguments[0]} is not a mapping of keys to help sentences")
        self.env.note_dependency(str(Path(inspect.getfile(module))))
        lines = ["| key | |", "|---|---|"]
        lines += [f"| `{key}` | {cell(prose(str(text)))} |" for key, text in mapping.items()]
        container = nodes.container(classes=["help-table"])
        self.state.nested_parse(StringList(lines, source=f"<{self.arguments[0]}>"), self.content_offset, container)
        return list(container.children)


class SettingsDirective(SphinxDirective):
    """``{settings} dotted.path.Model``: each field of a settings record with its type, default and help."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module_name, _, name = self.arguments[0].rpartition(".")
        module = importlib.import_module(module_name)
        model = getattr(module, name, None)
        fields = getattr(model, "model_fields", None)
        if not fields:
            raise self.error(f"{self.arguments[0]} is not a pydantic model with fields")
        self.env.note_dependency(str(Path(inspect.getfile(module))))
        lines = ["| setting | type | default | |", "|---|---|---|---|"]
        for key, info in fields.items():
            help_text = " ".join((info.description or "").split())
            kind, default = cell(type_text(info.annotation)), cell(repr(info.default))
            lines.append(f"| `{key}` | `{kind}` | `{default}` | {cell(prose(help_text))} |")
        container = nodes.container(classes=["settings"])
        self.state.nested_parse(StringList(lines, source=f"<{self.arguments[0]}>"), self.content_offset, container)
        return list(container.children)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("cli-help", CliHelpDirective)
    app.add_directive("shapes", ShapesDirective)
    app.add_directive("help-table", HelpTableDirective)
    app.add_directive("settings", SettingsDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
