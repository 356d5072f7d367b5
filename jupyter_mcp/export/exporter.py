"""``export_notebook``: translate a notebook and write the standalone project (server, packaging, tests)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jupyter_mcp.export import project, testgen
from jupyter_mcp.export.check import exported_listing, listing_differences
from jupyter_mcp.export.project import Names
from jupyter_mcp.export.recorded import RecordedCall
from jupyter_mcp.export.requirements import Requirements, requirements
from jupyter_mcp.export.serverfile import MARKER, module_source
from jupyter_mcp.export.translate.cells import translate_notebook
from jupyter_mcp.export.translate.findings import Finding
from jupyter_mcp.notebookfile import Notebook


@dataclass
class ExportResult:
    """What was written where, and what the report says about it."""

    directory: Path
    names: Names
    files: list[str] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)
    requirements: Requirements = field(default_factory=Requirements)
    calls: int = 0
    tools: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    """How the export's tools/list differs from the live notebook's (when one was given)."""

    def summary(self) -> str:
        lines = [f"wrote {self.directory}: {', '.join(self.files)}"]
        tools = f"{len(self.tools)} tool(s): {', '.join(self.tools)}" if self.tools else "tools not checked"
        lines.append(f"  {tools}; {self.calls} kept call(s) as tests")
        lines.append(f"  dependencies: {', '.join(self.requirements.dependencies)}")
        lines += [f"  unresolved import {item}" for item in self.requirements.unresolved]
        lines += [f"  differs from the notebook: {item}" for item in self.differences]
        if self.notes:
            lines.append("  translated or dropped:")
            lines += [f"    {note}".replace("\n", "\n    ") for note in self.notes]
        lines.append(f"  next: cd {self.directory} && pip install . && {self.names.script}")
        return "\n".join(lines)


def export_notebook(
    notebook: Notebook,
    directory: Path,
    *,
    name: str | None = None,
    calls: list[RecordedCall] | None = None,
    listing: list[dict[str, Any]] | None = None,
    dockerfile: bool = False,
    check: bool = True,
) -> ExportResult:
    """Write the project for ``notebook`` into ``directory``.

    ``ExportError`` (nothing written) lists what cannot run outside a notebook. ``listing`` is the
    live notebook's tools/list, to compare with; ``check`` imports server.py in a fresh interpreter
    to list its tools (``CheckError`` if it fails: the files are written, the tools snapshot is not).

    Example::

        export_notebook(read(Path("analysis.ipynb"), tagged=False), Path("analysis-server"))
    """
    translation = translate_notebook(notebook)
    names = Names.of(name or notebook.path.stem)
    source = module_source(names, notebook.path.name, translation)
    result = ExportResult(directory, names, notes=translation.notes, calls=len(calls or []))
    result.requirements = requirements(source, notebook.path.parent)
    _prepare(directory)
    kept = calls or []
    _write(result, "server.py", source)
    _write(result, "pyproject.toml", project.pyproject(names, notebook.path.name, result.requirements.dependencies))
    _write(result, "tests/conftest.py", testgen.conftest(names.module))
    _write(result, "tests/test_recorded_calls.py", testgen.recorded_tests(notebook.path.name, kept))
    if dockerfile:
        _write(result, "Dockerfile", project.dockerfile(names))
    exported = exported_listing(directory / "server.py", names.module) if check else None
    if listing is not None and exported is not None:
        result.differences = listing_differences(listing, exported)
    snapshot = listing if listing is not None else exported
    if snapshot is not None:
        result.tools = [tool["name"] for tool in snapshot]
        _write(result, "tests/tools.json", testgen.listing_json(snapshot))
        _write(result, "tests/test_tools.py", testgen.TOOLS_TEST)
    readme = project.readme(
        names, notebook.path.name, result.tools, kept, listing=snapshot is not None, docker=dockerfile
    )
    _write(result, "README.md", readme)
    return result


def _prepare(directory: Path) -> None:
    """Refuse a directory that holds anything but an earlier export (whose generated files are replaced)."""
    if directory.exists() and not directory.is_dir():
        raise FileExistsError(f"{directory} exists and is not a directory")
    if directory.is_dir() and any(directory.iterdir()):
        server = directory / "server.py"
        first = server.read_text(encoding="utf-8").partition("\n")[0] if server.is_file() else ""
        if MARKER not in first:
            raise FileExistsError(f"{directory} is not empty and holds no earlier export; choose another directory")
    directory.mkdir(parents=True, exist_ok=True)


def _write(result: ExportResult, relative: str, text: str) -> None:
    path = result.directory / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    result.files.append(relative)
