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


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_import_crosses_into_a_forbidden_layer(layer: str) -> None:
    crossings = {
        f"{module} imports {name}"
        for module, names in layer_imports(layer).items()
        for name in names
        for other in FORBIDDEN[layer]
        if name == f"jupyter_mcp.{other}" or name.startswith(f"jupyter_mcp.{other}.")
    }
    assert not crossings


def test_the_checker_sees_type_checking_and_lazy_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from jupyter_mcp.kernel.server import X\n"
        "def f():\n    import jupyter_mcp.cli.serve\n"
    )
    assert {"jupyter_mcp.kernel.server", "jupyter_mcp.cli.serve"} <= imported_modules(module)
