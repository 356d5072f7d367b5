"""``jupyter-mcp list [--json]``: the notebooks serving tools now, from the discovery files.

Stale files (their kernel is gone) are skipped and removed on the way.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

from jupyter_mcp.cli._text import help_text
from jupyter_mcp.discovery import ServerInfo

COLUMNS = ("NOTEBOOK", "KERNEL", "URL", "TOOLS", "STARTED")


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "list", parents=[common], help="live notebooks serving tools", description=help_text(__doc__)
    )
    parser.add_argument("--json", action="store_true", help="print JSON (without tokens) for scripts")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jupyter_mcp import discovery

    servers = discovery.read_all()
    if args.json:
        print(json.dumps([as_json(s) for s in servers], indent=2))
    elif servers:
        print(table(servers))
    else:
        print(f"No notebook is serving MCP tools (no live discovery file in {discovery.runtime_dir()}).")
    return 0


def as_json(info: ServerInfo) -> dict[str, Any]:
    """The discovery record minus its token (``jupyter-mcp config`` prints what a client needs)."""
    record = info.to_json()
    del record["token"]
    return record


def table(servers: Sequence[ServerInfo]) -> str:
    rows = [COLUMNS, *(row(s) for s in servers)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS) - 1)]
    lines = ["  ".join([*(cell.ljust(w) for cell, w in zip(r, widths, strict=False)), r[-1]]) for r in rows]
    return "\n".join(lines)


def row(info: ServerInfo) -> tuple[str, str, str, str, str]:
    tools = ", ".join(t.name if t.enabled else f"{t.name} (disabled)" for t in info.tools) or "-"
    return (info.notebook_path or "-", info.kernel_id[:8], info.url, tools, started(info.started))


def started(timestamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(timestamp)) if timestamp else "-"
