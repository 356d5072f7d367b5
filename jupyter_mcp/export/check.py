"""Checking an export: import server.py in a fresh interpreter and list its tools; compare with the notebook's."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from jupyter_mcp.tools import ToolServer

CHECK_TIMEOUT = 300.0


class CheckError(Exception):
    """server.py was written but does not import and list tools; the message ends with its error."""


def exported_listing(server_py: Path, module: str) -> list[dict[str, Any]]:
    """The tools/list entries of ``server_py``, run by this Python with the export's directory as working directory."""
    server_py = server_py.resolve()
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "tools.json"
        command = [sys.executable, "-m", "jupyter_mcp.export._list_tools", str(server_py), module, str(out)]
        try:
            done = subprocess.run(
                command, cwd=server_py.parent, capture_output=True, text=True, timeout=CHECK_TIMEOUT, check=False
            )
        except subprocess.TimeoutExpired:
            raise CheckError(f"{server_py} did not list its tools within {CHECK_TIMEOUT:.0f}s") from None
        if done.returncode != 0 or not out.exists():
            last = (done.stderr.strip().splitlines() or ["(no error output)"])[-1]
            raise CheckError(f"{server_py} was written but fails when run: {last}")
        listing: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
        return listing


def server_listing(server: ToolServer) -> list[dict[str, Any]]:
    """A live server's tools/list entries (what a client lists), as JSON."""
    return [
        tool.to_mcp(dereference_schemas=server.settings.dereference_schemas).model_dump(
            by_alias=True, mode="json", exclude_none=True
        )
        for tool in server.registry.visible()
    ]


def listing_differences(notebook: list[dict[str, Any]], exported: list[dict[str, Any]]) -> list[str]:
    """How the exported tools/list differs from the notebook's, one sentence per difference."""
    mine = {tool["name"]: tool for tool in notebook}
    theirs = {tool["name"]: tool for tool in exported}
    found = [f"{name}: served by the notebook, not by the export" for name in mine if name not in theirs]
    found += [f"{name}: served by the export, not by the notebook" for name in theirs if name not in mine]
    for name in mine.keys() & theirs.keys():
        fields = sorted(k for k in mine[name].keys() | theirs[name].keys() if mine[name].get(k) != theirs[name].get(k))
        if fields:
            found.append(f"{name}: {', '.join(fields)} differ")
    return found
