"""The exact configuration each MCP client needs, from one description of the target.

Used by the kernel (``server.client_config``), the CLI (``jupyter-mcp config``) and the server
extension (``/api/mcp/config``), so every place prints the same thing.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Literal

ClientKind = Literal["claude", "vscode", "cursor", "inspector"]
CLIENTS: tuple[ClientKind, ...] = ("claude", "vscode", "cursor", "inspector")


@dataclass(frozen=True)
class Target:
    """Where a client should connect.

    ``url`` + ``headers`` for HTTP clients; ``connect_target`` (a notebook path or kernel id)
    for stdio clients that launch ``jupyter-mcp connect``.
    """

    name: str
    url: str
    headers: dict[str, str]
    connect_target: str | None = None
    connect_args: tuple[str, ...] = ()
    command: str = "jupyter-mcp"
    """The executable stdio clients start (the CLI puts its absolute path here)."""


def kernel_target(
    url: str,
    token: str,
    notebook_path: str | None,
    kernel_id: str,
    *,
    name: str | None = None,
    command: str = "jupyter-mcp",
) -> Target:
    """The target for one kernel's own server: HTTP clients present its token; stdio clients run
    ``jupyter-mcp connect`` on the notebook (which follows it across restarts), else the kernel."""
    return Target(
        name=name or server_name(notebook_path, kernel_id),
        url=url,
        headers={"Authorization": f"Bearer {token}"},
        connect_target=notebook_path or kernel_id,
        command=command,
    )


def server_name(notebook_path: str | None, kernel_id: str) -> str:
    """A short, config-safe server name: the notebook's stem, else the kernel id's start."""
    stem = PurePath(notebook_path).stem if notebook_path else f"kernel-{kernel_id[:8]}"
    return re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-").lower() or "notebook"


def config_for(kind: str, target: Target) -> dict[str, Any]:
    """The JSON a client's config file needs (``inspector``: its command line under ``command``)."""
    if kind == "claude":
        return {"mcpServers": {target.name: _stdio_entry(target)}}
    if kind == "vscode":
        return {"servers": {target.name: {"type": "http", "url": target.url, "headers": target.headers}}}
    if kind == "cursor":
        return {"mcpServers": {target.name: {"url": target.url, "headers": target.headers}}}
    if kind == "inspector":
        return {"command": inspector_command(target)}
    raise ValueError(f"unknown client {kind!r}; choose one of {', '.join(CLIENTS)}")


def _stdio_entry(target: Target) -> dict[str, Any]:
    args = ["connect"]
    if target.connect_target:
        args.append(target.connect_target)
    args.extend(target.connect_args)
    return {"command": target.command, "args": args}


def inspector_command(target: Target) -> str:
    parts = ["npx", "@modelcontextprotocol/inspector", "--cli", target.url, "--transport", "http"]
    for key, value in target.headers.items():
        parts += ["--header", f"{key}: {value}"]
    parts += ["--method", "tools/list"]
    return shlex.join(parts)
