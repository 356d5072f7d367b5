"""No other library's private parts are named outside ``jupyter_mcp/adapters`` (its five adapters).

ruff's ``SLF001`` refuses ``obj._name`` everywhere else; this finds what it cannot see: a private
name imported from another library (or a private module of it), ``getattr``-style access with a
private name, a string that names another library's private attribute, and a subclass of another
library's class that reads, writes or overrides that class's private parts (``self._x``,
``super()._x()``, ``def _x``).

"Another library's private names" are read from the sources of every library the package imports:
the single-underscore names they define (``obj._x = ...``, ``def _x``, ``class _X``, ``_x: T``,
``_x = ...``), less those the package defines itself outside the adapters.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "jupyter_mcp"
ADAPTERS = PACKAGE / "adapters"
_PRIVATE = re.compile(r"_[A-Za-z][A-Za-z0-9_]*")
_ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}


WIRE_KEYS = frozenset({"_meta"})
"""Strings that look private and are not: MCP's ``_meta`` is a key of its messages."""


def private(name: str) -> bool:
    """A single-underscore name: not a dunder, nor a protocol name such as IPython's ``_repr_png_``."""
    return bool(_PRIVATE.fullmatch(name)) and not name.endswith("_") and name not in WIRE_KEYS


def defined_private_names(tree: ast.AST) -> set[str]:
    """The private names a module of the package defines: its own attributes (``self._x``), functions,
    classes, fields, globals."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _is_self(node.value):
            found.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.alias):
            found.add((node.asname or node.name).split(".")[0])
    return {name for name in found if private(name)}


_DEFINED = re.compile(
    r"\.(_[A-Za-z]\w*)\s*(?::[^=\n]*)?=(?!=)"  # obj._x = / obj._x: T =
    r"|\b(?:def|class)\s+(_[A-Za-z]\w*)"  # def _x / class _X
    r"|^[ \t]*(_[A-Za-z]\w*)\s*(?::|=(?!=))",  # _x = / _x: T (a global or a class's field)
    re.MULTILINE,
)


def names_defined_in(text: str) -> set[str]:
    """The private names another library's source defines (a regular expression: thousands of files are read)."""
    return {name for match in _DEFINED.finditer(text) for name in match.groups() if name and private(name)}


def _sources(package_or_module: str) -> Iterator[Path]:
    spec = importlib.util.find_spec(package_or_module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return
    origin = Path(spec.origin)
    yield from origin.parent.rglob("*.py") if origin.name == "__init__.py" else [origin]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _parsed(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return None


@cache
def package_modules(root: Path = PACKAGE) -> dict[Path, ast.Module]:
    return {path: tree for path in sorted(root.rglob("*.py")) if (tree := _parsed(path)) is not None}


def imported_libraries(modules: Iterable[ast.Module]) -> set[str]:
    """The top-level names of every library the package imports (the standard library's too)."""
    found: set[str] = set()
    for tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found - {"jupyter_mcp", "__future__"}


def own_private_names() -> set[str]:
    """The private names the package defines for itself (the adapters' are the libraries')."""
    trees = [tree for path, tree in package_modules().items() if ADAPTERS not in path.parents]
    return set().union(*(defined_private_names(tree) for tree in trees))


@cache
def foreign_private_names() -> frozenset[str]:
    foreign: set[str] = set()
    for library in sorted(imported_libraries(package_modules().values())):
        for path in _sources(library):
            foreign |= names_defined_in(_read(path))
    return frozenset(foreign - own_private_names())


@dataclass(frozen=True)
class Finding:
    where: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.what}"


def findings(tree: ast.Module, where: str, foreign: frozenset[str]) -> list[Finding]:
    """Every place in ``tree`` that names another library's private part (see the module docstring)."""
    found: list[Finding] = []
    bases = _foreign_bases(tree)
    for node in ast.walk(tree):
        what = _imported_private(node) or _accessed_private(node, foreign) or _named_private(node, foreign)
        if what is not None:
            found.append(Finding(where, getattr(node, "lineno", 0), what))
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        found.extend(Finding(where, line, what) for line, what in _subclass_reaches(cls, bases))
    return found


def _imported_private(node: ast.AST) -> str | None:
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and not _ours(node.module):
        names = [alias.name for alias in node.names if private(alias.name)]
        if names or any(private(part) for part in node.module.split(".")):
            return f"imports {', '.join(names) or node.module} from {node.module}"
    if isinstance(node, ast.Import):
        hidden = [a.name for a in node.names if not _ours(a.name) and any(private(p) for p in a.name.split("."))]
        if hidden:
            return f"imports the private module {hidden[0]}"
    return None


def _accessed_private(node: ast.AST, foreign: frozenset[str]) -> str | None:
    if isinstance(node, ast.Attribute) and node.attr in foreign and not _is_self(node.value):
        return f"reads or writes {node.attr}"
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _ACCESSORS
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
        and private(node.args[1].value)
        and not _is_self(node.args[0])
    ):
        return f"{node.func.id}(..., {node.args[1].value!r})"
    return None


def _named_private(node: ast.AST, foreign: frozenset[str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in foreign:
        return f"names {node.value!r}"
    return None


def _foreign_bases(tree: ast.Module) -> dict[str, type]:
    """Names in ``tree`` bound to classes imported from other libraries."""
    bound: dict[str, type] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and not _ours(node.module):
            for alias in node.names:
                value = _resolve(node.module, alias.name)
                if inspect.isclass(value):
                    bound[alias.asname or alias.name] = value
    return bound


def _subclass_reaches(cls: ast.ClassDef, bound: dict[str, type]) -> Iterator[tuple[int, str]]:
    bases = [bound[base.id] for base in cls.bases if isinstance(base, ast.Name) and base.id in bound]
    theirs = set().union(*(_class_private_names(base) for base in bases)) if bases else set()
    if not theirs:
        return
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in theirs:
            yield node.lineno, f"{cls.name} overrides {node.name} of {bases[0].__name__}"
        elif isinstance(node, ast.Attribute) and node.attr in theirs and _is_self_or_super(node.value):
            yield node.lineno, f"{cls.name} reaches {node.attr} of {bases[0].__name__}"


@cache
def _class_private_names(cls: type) -> frozenset[str]:
    """The private names a class and its bases define: in their dicts, and set on ``self`` in their methods."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass.__module__.split(".")[0] in ("builtins", "jupyter_mcp", "typing"):
            continue
        names |= {name for name in vars(klass) if private(name)}
        node = _class_node(klass)
        if node is not None:
            names |= defined_private_names(node)
    return frozenset(names)


def _class_node(klass: type) -> ast.ClassDef | None:
    try:
        path = inspect.getsourcefile(klass)
    except TypeError:
        return None
    tree = _parsed_cached(path) if path is not None else None
    wanted = klass.__qualname__.split(".")[-1]
    nodes = (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == wanted) if tree else iter(())
    return next(nodes, None)


@cache
def _parsed_cached(path: str) -> ast.Module | None:
    return _parsed(Path(path))


def _resolve(module: str, name: str) -> object:
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


def _ours(module: str) -> bool:
    return module == "jupyter_mcp" or module.startswith("jupyter_mcp.")


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _is_self_or_super(node: ast.AST) -> bool:
    return _is_self(node) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


# ---- the tests ---------------------------------------------------------------------------------


def test_no_private_name_of_another_library_outside_the_adapters() -> None:
    foreign = foreign_private_names()
    outside = {path: tree for path, tree in package_modules().items() if ADAPTERS not in path.parents}
    found = [str(f) for path, tree in outside.items() for f in findings(tree, str(path.relative_to(PACKAGE)), foreign)]
    assert found == []


def test_the_adapters_are_five_and_the_only_files_ruff_lets_reach() -> None:
    config = (PACKAGE.parent / "pyproject.toml").read_text()
    ignored = re.findall(r'^"(jupyter_mcp/[^"]+)" = \[[^\]]*"SLF001"', config, flags=re.MULTILINE)
    assert sorted(ignored) == sorted(f"jupyter_mcp/adapters/{name}.py" for name in ADAPTER_MODULES)
    assert sorted(p.stem for p in ADAPTERS.glob("*.py") if p.stem not in ("__init__", "fastpaths")) == sorted(
        ADAPTER_MODULES
    )


ADAPTER_MODULES = ("sdk", "stdlib", "ipykernel", "jupyter_client", "jupyter_server")

SNIPPET = """
import asyncio.events
from mcp.server.runner import ServerRunner
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.jsonrpc_dispatcher import _InFlight
from mcp.shared._context_streams import ContextSendStream

def reach(kernel, session, manager):
    kernel._publish_status("idle", "control")
    getattr(session, "_add_digest")(b"x")
    return "_pending_kernels" in vars(manager), asyncio.events._get_running_loop()

class Runner(ServerRunner):
    def _serialize(self, method, version, result):
        return super()._serialize(method, version, result)

class Manager(StreamableHTTPSessionManager):
    def sessions(self):
        return self._server_instances
"""


def test_the_search_finds_each_kind_of_reach() -> None:
    """The test above fails when one of these is added to the package."""
    found = findings(ast.parse(SNIPPET), "added.py", foreign_private_names())
    said = " | ".join(f.what for f in found)
    for expected in (
        "imports _InFlight from mcp.shared.jsonrpc_dispatcher",
        "from mcp.shared._context_streams",
        "reads or writes _publish_status",
        "getattr(..., '_add_digest')",
        "names '_pending_kernels'",
        "reads or writes _get_running_loop",
        "Runner overrides _serialize of ServerRunner",
        "Runner reaches _serialize of ServerRunner",
        "Manager reaches _server_instances of StreamableHTTPSessionManager",
    ):
        assert expected in said, f"{expected!r} not found in: {said}"


def test_the_search_knows_the_reaches_of_the_adapters() -> None:
    assert own_private_names().isdisjoint(foreign_private_names())
    reached = {"_publish_status", "_add_digest", "_pending_kernels", "_server_instances", "_exit_callbacks"}
    assert reached <= foreign_private_names()
    assert {"mcp", "ipykernel", "jupyter_client", "jupyter_server", "asyncio"} <= imported_libraries(
        package_modules().values()
    )
