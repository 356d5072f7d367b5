"""The exact configuration each MCP client needs, from one description of the target.

Used by the kernel (``server.client_config``), the CLI (``jupyter-mcp config``) and the server
extension (``/api/mcp/config``), so every place prints the same thing.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from jupyter_mcp.shapes.rest import ClientKind
from jupyter_mcp.tokens import ENV_VAR

CLIENTS: tuple[ClientKind, ...] = ("claude", "vscode", "cursor", "inspector")


def stdio_command(python: str | None = None) -> tuple[str, ...]:
    """How a client starts ``jupyter-mcp`` of this interpreter (``python``, default ``sys.executable``).

    Desktop clients start stdio servers with a minimal PATH, so the command is absolute: the
    ``jupyter-mcp`` script next to the interpreter, else ``<python> -m jupyter_mcp``.
    """
    # absolute(), not resolve(): a venv's python is a symlink whose own location selects the venv.
    interpreter = Path(python or sys.executable).absolute()
    script = interpreter.with_name("jupyter-mcp.exe" if sys.platform == "win32" else "jupyter-mcp")
    if script.is_file():
        return (str(script),)
    return (str(interpreter), "-m", "jupyter_mcp")


@dataclass(frozen=True)
class Target:
    """Where a client should connect.

    ``url`` + ``headers`` for HTTP clients; ``connect_target`` (a notebook path or kernel id)
    for stdio clients that launch ``jupyter-mcp connect``, with ``env`` set (secrets go there,
    never into ``connect_args``: a process's arguments are visible to every user of the machine).
    """

    name: str
    url: str
    headers: dict[str, str]
    connect_target: str | None = None
    connect_args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    command: tuple[str, ...] = field(default_factory=stdio_command)
    """How stdio clients start ``jupyter-mcp``, by absolute path (see ``stdio_command``)."""


def kernel_target(
    url: str,
    token: str,
    notebook_path: str | None,
    kernel_id: str,
    *,
    name: str | None = None,
    command: tuple[str, ...] | None = None,
) -> Target:
    """The target for one kernel's own server: HTTP clients present its token; stdio clients run
    ``jupyter-mcp connect`` on the notebook (which follows it across restarts), else the kernel."""
    return Target(
        name=name or server_name(notebook_path, kernel_id),
        url=url,
        headers={"Authorization": f"Bearer {token}"},
        connect_target=notebook_path or kernel_id,
        env=discovery_env(),
        command=command or stdio_command(),
    )


def discovery_env() -> dict[str, str]:
    """What ``connect TARGET`` needs to find the discovery files wherever the client starts it: the
    runtime directory, which clients cannot derive (they pass on neither JUPYTER_* nor XDG_* variables)."""
    from jupyter_mcp import discovery

    return {"JUPYTER_RUNTIME_DIR": str(discovery.runtime_dir())}


def url_target(
    name: str, url: str, headers: dict[str, str], token: str, *, command: tuple[str, ...] | None = None
) -> Target:
    """A target at a fixed URL: HTTP clients send ``headers``; stdio clients run ``connect --url``
    (``command``, default this interpreter's ``jupyter-mcp``) with the token in the environment."""
    return Target(
        name=name,
        url=url,
        headers=headers,
        connect_args=("--url", url),
        env={ENV_VAR: token},
        command=command or stdio_command(),
    )


UNION_NAME = "jupyter-notebooks"
"""The server name in a client's config for ``<jupyter url>/mcp`` (every notebook's tools)."""


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


def sign_in_config(kind: str, name: str, url: str) -> dict[str, Any]:
    """The JSON a client needs to reach ``url`` and sign in with Jupyter there (OAuth): the URL, nothing secret.
    Claude Desktop starts ``mcp-remote`` (with Node's ``npx``), which signs in for it."""
    if kind == "claude":
        return {"mcpServers": {name: {"command": "npx", "args": ["-y", "mcp-remote", url]}}}
    if kind == "vscode":
        return {"servers": {name: {"type": "http", "url": url}}}
    if kind == "cursor":
        return {"mcpServers": {name: {"url": url}}}
    if kind == "inspector":
        parts = ["npx", "@modelcontextprotocol/inspector", "--web", "--transport", "http", "--server-url", url]
        return {"command": shlex.join(parts)}
    raise ValueError(f"unknown client {kind!r}; choose one of {', '.join(CLIENTS)}")


def _stdio_entry(target: Target) -> dict[str, Any]:
    command, *prefix = target.command
    args = [*prefix, "connect"]
    if target.connect_target:
        args.append(target.connect_target)
    args.extend(target.connect_args)
    entry: dict[str, Any] = {"command": command, "args": args}
    if target.env:
        entry["env"] = dict(target.env)
    return entry


def inspector_command(target: Target) -> str:
    parts = ["npx", "@modelcontextprotocol/inspector", "--cli", target.url, "--transport", "http"]
    for key, value in target.headers.items():
        parts += ["--header", f"{key}: {value}"]
    parts += ["--method", "tools/list"]
    return shlex.join(parts)
