"""``jupyter-mcp list [--json] [--hub URL --token T]``: the notebooks serving tools, resources and prompts now.

Without ``--hub``: this machine's, from the discovery files (stale ones, whose kernel is gone, are
skipped and removed on the way), one block per notebook wrapped to the terminal's width. Its
*carrier* says how a notebook's tools are reached: ``http`` (its URL), or ``kernel``: over the
kernel's own messaging only (``JupyterMCP.transport = "kernel"``), through the Jupyter server that
runs the kernel (its *route*, ``/mcp/notebooks/<path>``, exact when that server runs here). When a
Jupyter server runs them, each block also says the names its ``/mcp`` gives the notebook's tools
(every notebook's at one address, each name prefixed with its notebook's). With ``--hub``: every
user's on a JupyterHub, for an instructor (the token, or ``$JUPYTERHUB_API_TOKEN``, needs the scopes
list:users, read:servers, access:servers).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import textwrap
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from jupyter_mcp.cli._text import help_text
from jupyter_mcp.cli.errors import CLIError
from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.endpoints import channel_endpoint

if TYPE_CHECKING:
    from jupyter_mcp.cli.hub import HubServer

LABEL = 12
"""Width of a field's label in a notebook's block: two spaces, ``resources``, a space."""
HUB_COLUMNS = ("USER", "NOTEBOOK", "TOOLS", "CLIENTS", "CALLS", "URL")


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "list", parents=[common], help="live notebooks serving tools", description=help_text(__doc__)
    )
    parser.add_argument("--json", action="store_true", help="print JSON (without tokens) for scripts")
    parser.add_argument("--hub", metavar="URL", help="list every user's notebooks on this JupyterHub")
    parser.add_argument("--token", help="with --hub: an admin's API token (default: $JUPYTERHUB_API_TOKEN)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.hub:
        return run_hub(args.hub, hub_token(args.token), as_json=args.json)
    if args.token:
        raise CLIError("--token goes with --hub (local notebooks need none)")
    from jupyter_mcp import discovery

    servers = discovery.read_all()
    union = union_names(servers)
    if args.json:
        print(json.dumps([{**as_json(s), **_union_fields(s, union)} for s in servers], indent=2))
    elif servers:
        print(blocks(servers, terminal_width(), union))
    else:
        print(f"No notebook is serving MCP tools (no live discovery file in {discovery.runtime_dir()}).")
    return 0


def hub_token(given: str | None) -> str:
    token = given or os.environ.get("JUPYTERHUB_API_TOKEN")
    if not token:
        raise CLIError("--hub needs a token: --token T or $JUPYTERHUB_API_TOKEN (an admin's, from <hub>/hub/token)")
    return token


def run_hub(hub_url: str, token: str, *, as_json: bool) -> int:
    from jupyter_mcp.cli.hub import hub_servers

    servers = hub_servers(hub_url, token)
    if as_json:
        print(json.dumps([asdict(s) for s in servers], indent=2))
    elif servers:
        print(hub_table(servers, terminal_width()))
    else:
        print(f"No user on {hub_url} has a notebook serving MCP tools.")
    return 0


def as_json(info: ServerInfo) -> dict[str, Any]:
    """The discovery record minus its tokens (``jupyter-mcp config`` prints what a client needs)."""
    record = info.to_json()
    del record["token"], record["admin_token"]
    return record


def terminal_width() -> int:
    """The terminal's columns (``$COLUMNS`` first; 100 when not a terminal), at least 40."""
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def blocks(servers: Sequence[ServerInfo], width: int, union: Union | None = None) -> str:
    """One block per live server, each line wrapped to ``width`` (names are never cut in the middle);
    with ``union``, a last paragraph saying where every notebook's tools are at once."""
    text = "\n\n".join(block(info, width, union) for info in servers)
    if union is None:
        return text
    every = f"Every notebook's tools at one address: {union[0]} (jupyter-mcp config CLIENT prints its config)"
    return text + "\n\n" + "\n".join(textwrap.wrap(every, width, break_on_hyphens=False))


def block(info: ServerInfo, width: int, union: Union | None = None) -> str:
    title = info.notebook_path or f"kernel {info.kernel_id[:8]} (no notebook)"
    fields = [
        ("url", info.url or ("none (the kernel opens no port)" if info.transport == "kernel" else "-")),
        *_route(info, union),
        ("carrier", info.transport),
        ("kernel", f"{info.kernel_id[:8]}, started {started(info.started)}"),
        ("tools", _names((t.name, t.enabled) for t in info.tools)),
        ("resources", _names((r.uri, r.enabled) for r in info.resources)),
        ("prompts", _names((p.name, p.enabled) for p in info.prompts)),
        *_union_line(info, union),
    ]
    lines = textwrap.wrap(title, width, break_on_hyphens=False) or [title]
    for label, value in fields:
        if value == "-" and label in ("resources", "prompts"):
            continue
        lines += textwrap.wrap(
            value,
            width,
            initial_indent=f"  {label:<{LABEL - 2}}",
            subsequent_indent=" " * LABEL,
            break_on_hyphens=False,
        )
    return "\n".join(lines)


def _route(info: ServerInfo, union: Union | None) -> list[tuple[str, str]]:
    """For a kernel with no port: its route on the Jupyter server (exact when that server was found)."""
    if info.url or info.transport != "kernel":
        return []
    entry = union[1].get(info.kernel_id) if union is not None else None
    path = entry.get("notebook_path") if entry is not None else None
    if union is not None and isinstance(path, str):
        return [("route", f"{union[0]}/notebooks/{quote(path, safe='/')}")]
    return [("route", channel_endpoint(info.notebook_path, info.kernel_id).url)]


def hub_table(servers: Sequence[HubServer], width: int) -> str:
    """One row per notebook. Too wide for ``width``: each URL goes on a line of its own under its row, and
    the tools (then the notebooks' paths, at a ``/``) wrap in their columns; names and URLs are never cut."""
    rows = [
        (s.user, s.notebook_path or "-", ", ".join(s.tools) or "-", str(s.clients), str(s.calls), s.url)
        for s in servers
    ]
    table = aligned([HUB_COLUMNS, *rows])
    if max(len(line) for line in table.splitlines()) <= width:
        return table
    cells = [
        [[s.user], _path_pieces(s.notebook_path or "-"), _list_pieces(s.tools), [str(s.clients)], [str(s.calls)]]
        for s in servers
    ]
    head = [[column] for column in HUB_COLUMNS[:-1]]
    widths = fitted([head, *cells], width, flexible=(2, 1))
    lines = padded(head, widths)
    for row, server in zip(cells, servers, strict=True):
        lines += [*padded(row, widths), f"  {server.url}"]
    return "\n".join(lines)


Pieces = Sequence[str]
"""A cell as the pieces it may be broken between (a path's folders, a list's names with their commas)."""


def _path_pieces(path: str) -> list[str]:
    return re.findall(r"[^/]*/|[^/]+", path) or [path]


def _list_pieces(names: Sequence[str]) -> list[str]:
    return [f"{name}, " for name in names[:-1]] + list(names[-1:]) if names else ["-"]


def fitted(rows: Sequence[Sequence[Pieces]], width: int, *, flexible: Sequence[int]) -> list[int]:
    """Column widths for ``rows`` within ``width``: the ``flexible`` columns give up room, in that order,
    down to their longest piece."""
    widths = [max(len("".join(row[i])) for row in rows) for i in range(len(rows[0]))]
    excess = sum(widths) + 2 * (len(widths) - 1) - width
    for column in flexible:
        least = max(len(piece.rstrip()) for row in rows for piece in row[column])
        cut = max(0, min(excess, widths[column] - least))
        widths[column] -= cut
        excess -= cut
    # What the pieces take once packed: no column keeps room its lines do not use.
    return [max(len(line) for row in rows for line in pack(row[i], w)) for i, w in enumerate(widths)]


def padded(cells: Sequence[Pieces], widths: Sequence[int]) -> list[str]:
    """One table row as lines: each cell's pieces packed into its column's width, the columns side by side."""
    packed = [pack(cell, w) for cell, w in zip(cells, widths, strict=True)]
    height = max(len(lines) for lines in packed)
    return [
        "  ".join(
            (lines[i] if i < len(lines) else "").ljust(w) for lines, w in zip(packed, widths, strict=True)
        ).rstrip()
        for i in range(height)
    ]


def pack(pieces: Pieces, width: int) -> list[str]:
    """``pieces`` on as few lines of ``width`` as they go (a piece longer than that has a line of its own)."""
    lines, line = [], ""
    for piece in pieces:
        if line and len((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    return [*lines, line.rstrip()]


def aligned(rows: Sequence[Sequence[str]]) -> str:
    """Columns padded to their widest cell (the last one left ragged)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = ["  ".join([*(cell.ljust(w) for cell, w in zip(r, widths, strict=False)), r[-1]]) for r in rows]
    return "\n".join(lines)


def _names(items: Iterable[tuple[str, bool]]) -> str:
    return ", ".join(name if enabled else f"{name} (disabled)" for name, enabled in items) or "-"


def started(timestamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(timestamp)) if timestamp else "-"


Union = tuple[str, dict[str, dict[str, Any]]]
"""``/mcp``'s URL, and what it says of each serving kernel (by id): its prefix, tool names, collision."""


def union_names(servers: Sequence[ServerInfo]) -> Union | None:
    """The names clients of ``/mcp`` see, from the Jupyter server that runs these kernels (if one does)."""
    if not servers:
        return None
    import httpx

    from jupyter_mcp.cli.targets import union_of

    jupyter = union_of({info.kernel_id for info in servers})
    if jupyter is None:
        return None
    try:
        notebooks = jupyter.get("api/mcp/union")["notebooks"]
    except (httpx.HTTPError, ValueError, KeyError, TypeError):
        return None
    return jupyter.union_url, {str(entry["kernel_id"]): entry for entry in notebooks}


def _union_line(info: ServerInfo, union: Union | None) -> list[tuple[str, str]]:
    """``at /mcp`` and the notebook's tools as clients there see them (and why its prefix is longer)."""
    entry = union[1].get(info.kernel_id) if union is not None else None
    if entry is None:
        return []
    note = f" (prefix {entry['prefix']}: {entry['collision']})" if entry.get("collision") else ""
    return [("at /mcp", (", ".join(entry["tools"]) or "-") + note)]


def _union_fields(info: ServerInfo, union: Union | None) -> dict[str, Any]:
    entry = union[1].get(info.kernel_id) if union is not None else None
    if union is None or entry is None:
        return {}
    return {"union_url": union[0], "union_prefix": entry["prefix"], "union_tools": entry["tools"]}
