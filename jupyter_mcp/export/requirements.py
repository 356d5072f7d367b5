"""The exported project's dependencies: jupyter-live-mcp's core, and the distributions of the notebook's imports."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from jupyter_mcp._version import __version__

CORE = f"jupyter-live-mcp>={__version__}"


@dataclass
class Requirements:
    """``dependencies`` for pyproject.toml, and what could not be resolved (said in the report)."""

    dependencies: list[str] = field(default_factory=lambda: [CORE])
    unresolved: list[str] = field(default_factory=list)


def requirements(source: str, notebook_dir: Path) -> Requirements:
    """What ``source`` (the exported module) imports, as distributions installed here (``>=`` their version)."""
    found = Requirements()
    distributions = metadata.packages_distributions()
    for module in sorted(imported_modules(source)):
        names = distributions.get(module)
        if names:
            found.dependencies.append(_requirement(sorted(names)[0]))
        elif (notebook_dir / f"{module}.py").exists() or (notebook_dir / module / "__init__.py").exists():
            found.unresolved.append(f"{module}: a local module beside the notebook; copy it next to server.py")
        else:
            found.unresolved.append(f"{module}: no installed distribution provides it; add it to pyproject.toml")
    found.dependencies = list(dict.fromkeys(found.dependencies))
    return found


def imported_modules(source: str) -> set[str]:
    """Top-level names of the third-party modules ``source`` imports (not the standard library, not jupyter_mcp)."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
    return {m for m in modules if m not in sys.stdlib_module_names and m not in ("jupyter_mcp", "__future__")}


def _requirement(distribution: str) -> str:
    version = metadata.version(distribution).split(".")
    return f"{distribution}>={'.'.join(version[:2])}" if version[0].isdigit() else distribution
