"""``jupyter-mcp export NOTEBOOK.ipynb``: the notebook's tools as a standalone MCP server project.

Writes server.py (the code cells in order, as Python: %%mcp_tool cells become @server.tool
functions), pyproject.toml (script NAME-server), README.md and tests/: one test per call kept
in the notebook (%mcp keep, saved as NAME.mcp-calls.json beside NAME.ipynb) and the tools/list
snapshot. Lines only IPython can run (other magics, !shell, display(), top-level await) are
reported with their cell and line, and nothing is written. With --tagged only the cells tagged
'mcp' are exported, as `jupyter-mcp serve --tagged` runs them.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jupyter_mcp.cli._text import help_text
from jupyter_mcp.cli.errors import CLIError


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "export",
        parents=[common],
        help="write a notebook's tools as a standalone server project, with its kept calls as tests",
        description=help_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("notebook", metavar="NOTEBOOK.ipynb", type=Path)
    parser.add_argument("-o", "--output", type=Path, metavar="DIR", help="where to write (default: ./NAME-server)")
    parser.add_argument("--name", help="project name (default: from the notebook's name)")
    parser.add_argument("--tagged", action="store_true", help="export only the cells tagged 'mcp'")
    parser.add_argument("--dockerfile", action="store_true", help="add a Dockerfile that builds and serves it")
    parser.add_argument(
        "--no-check", action="store_true", help="do not run server.py to list its tools (no tools/list snapshot)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jupyter_mcp._extras import require

    try:
        require("export", ("nbformat", "IPython"))
    except ModuleNotFoundError as exc:
        raise CLIError(str(exc)) from None
    from jupyter_mcp.cli import notebook as notebooks
    from jupyter_mcp.export import CheckError, ExportError, export_notebook, read_sidecar
    from jupyter_mcp.export.project import Names

    notebook = notebooks.load(args.notebook.resolve(), tagged=args.tagged)
    output = args.output or Path(Names.of(args.name or notebook.path.stem).project)
    try:
        calls = read_sidecar(notebook.path)
        result = export_notebook(
            notebook, output, name=args.name, calls=calls, dockerfile=args.dockerfile, check=not args.no_check
        )
    except (ExportError, CheckError, FileExistsError, ValueError) as exc:
        raise CLIError(str(exc)) from None
    print(result.summary())
    return 0
