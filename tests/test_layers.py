"""The import graph keeps its layers: every import, including lazy and TYPE_CHECKING ones, is counted.

tools (plain Python) ← kernel ← widgets? No: widgets see a server only through
``jupyter_mcp.widgets.host.ServerHost``; the kernel builds widgets, never the reverse.
syntax (the magics' language) and export (notebook -> standalone server) sit between tools and
kernel/cli: they read notebooks without a kernel, so they never import one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "jupyter_mcp"

FORBIDDEN = {
    "adapters": ("tools", "syntax", "export", "kernel", "widgets", "serverext", "cli", "shapes", "_wire"),
    "tools": ("syntax", "export", "kernel", "widgets", "serverext", "cli"),
    "syntax": ("export", "kernel", "widgets", "serverext", "cli"),
    "export": ("kernel", "widgets", "serverext", "cli"),
    "widgets": ("export", "kernel", "serverext", "cli"),
    "kernel": ("serverext", "cli"),
    "serverext": ("export", "kernel", "widgets", "cli"),
    "cli": ("kernel", "widgets", "serverext"),
}


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the file (functions, ``if TYPE_CHECKING:``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def layer_imports(layer: str) -> dict[str, set[str]]:
    return {
        str(path.relative_to(PACKAGE.parent)): {m for m in imported_modules(path) if m.startswith("jupyter_mcp.")}
        for path in sorted((PACKAGE / layer).rglob("*.py"))
    }


ALLOWED = {"jupyter_mcp.kernel.headless"}
"""The kernel's face for ``jupyter-mcp serve``: typed functions the CLI runs in the kernel it starts
(the module imports nothing heavy; the CLI checks each call against their signatures)."""


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_import_crosses_into_a_forbidden_layer(layer: str) -> None:
    crossings = {
        f"{module} imports {name}"
        for module, names in layer_imports(layer).items()
        for name in names
        for other in FORBIDDEN[layer]
        if (name == f"jupyter_mcp.{other}" or name.startswith(f"jupyter_mcp.{other}."))
        and not any(name == allowed or name.startswith(f"{allowed}.") for allowed in ALLOWED)
    }
    assert not crossings


def test_the_checker_sees_type_checking_and_lazy_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from jupyter_mcp.kernel.server import X\n"
        "def f():\n    import jupyter_mcp.cli.serve\n"
    )
    assert {"jupyter_mcp.kernel.server", "jupyter_mcp.cli.serve"} <= imported_modules(module)


# The tool layer's rooms, lowest first: a room imports only rooms before it (and the shared modules
# directly under tools/: errors, observers, sizes, settings, codec, identity, signedin, peers). The protocol core never imports a transport.
ROOMS = ("components", "budget", "calls", "approvals", "apps", "protocol", "transports")
SHARED = ("errors", "observers", "sizes", "settings", "codec", "identity", "signedin", "peers")


def _room_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["jupyter_mcp", "tools"] or len(parts) < 3:
        return None
    return parts[2]


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_of_the_tool_layer_imports_only_rooms_below_it(room: str) -> None:
    allowed = set(ROOMS[: ROOMS.index(room) + 1]) | set(SHARED)
    crossings = {
        f"{module} imports {name}"
        for module, names in layer_imports(f"tools/{room}").items()
        for name in names
        if (other := _room_of(name)) is not None and other not in allowed
    }
    assert not crossings


@pytest.mark.parametrize("shared", SHARED)
def test_the_shared_modules_of_the_tool_layer_import_no_room(shared: str) -> None:
    names = {m for m in imported_modules(PACKAGE / "tools" / f"{shared}.py") if m.startswith("jupyter_mcp.")}
    assert {name for name in names if _room_of(name) in ROOMS} == set()


def _module_graph() -> dict[str, set[str]]:
    """Every module of the package -> the package modules it imports (an imported name that is a
    module counts as that module; otherwise the import counts for the module it names)."""
    modules = {
        ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): path
        for path in PACKAGE.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for imported in imported_modules(path):
            name = imported
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_package_has_no_import_circle() -> None:
    graph = _module_graph()
    # A package's __init__ handing on its own modules' names is no circle: its modules never import it.
    for package in [m for m in graph if (PACKAGE.parent / m.replace(".", "/") / "__init__.py").exists()]:
        graph[package] = {t for t in graph[package] if not t.startswith(package + ".")}
    assert _circles(graph) == []


def test_the_circle_check_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


LONGER = {"jupyter_mcp/tools/server.py": 430}
"""Modules that may pass 400 lines, up to their own limit: one idea that a split would cut in two
(``ToolServer`` is the tool layer's API; each of its sections hands on to a room)."""


def test_no_folder_is_crowded_and_no_module_is_long() -> None:
    crowded = {
        str(folder.relative_to(PACKAGE.parent)): count
        for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir() and p.name != "__pycache__")]
        if (count := len([m for m in folder.glob("*.py") if m.name != "__init__.py"])) > 15
    }
    long = {
        name: lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text().splitlines()))
        > LONGER.get(name := str(path.relative_to(PACKAGE.parent)), 400)
    }
    assert (crowded, long) == ({}, {})


# The union's rooms (serverext/union), lowest first: a room imports only rooms before it; the HTTP
# fronts (handler, rest) sit directly under union/ and no room imports them.
UNION = "jupyter_mcp.serverext.union"
UNION_ROOMS = ("live", "routing")


@pytest.mark.parametrize("room", UNION_ROOMS)
def test_a_room_of_the_union_imports_only_rooms_below_it(room: str) -> None:
    allowed = {f"{UNION}.{below}" for below in UNION_ROOMS[: UNION_ROOMS.index(room) + 1]}
    crossings = {
        f"{module} imports {name}"
        for module, names in layer_imports(f"serverext/union/{room}").items()
        for name in names
        if name.startswith(f"{UNION}.") and not any(name == a or name.startswith(f"{a}.") for a in allowed)
    }
    assert not crossings


# The notebook tools (serverext/notebooks) stand beside the union: a member of it that the extension wires in.
# Neither imports the other, nor the REST and proxy fronts; the notebook tools reach the tool layer only
# through its public API (jupyter_mcp.tools and its rooms, as any server built on it would).
NOTEBOOKS = "jupyter_mcp.serverext.notebooks"
NOTEBOOKS_MAY_NOT = (
    "jupyter_mcp.serverext.union",
    "jupyter_mcp.serverext.app",
    "jupyter_mcp.serverext.api_handlers",
    "jupyter_mcp.serverext.proxy",
    "jupyter_mcp.serverext.servers",
)


def test_the_notebook_tools_and_the_union_do_not_import_each_other() -> None:
    crossings = {
        f"{module} imports {name}"
        for module, names in layer_imports("serverext/notebooks").items()
        for name in names
        if any(name == other or name.startswith(f"{other}.") for other in NOTEBOOKS_MAY_NOT)
    }
    crossings |= {
        f"{module} imports {name}"
        for module, names in layer_imports("serverext/union").items()
        for name in names
        if name == NOTEBOOKS or name.startswith(f"{NOTEBOOKS}.")
    }
    assert not crossings
