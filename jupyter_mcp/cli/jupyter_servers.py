"""The Jupyter servers running on this machine, and the one whose notebooks serve tools.

Jupyter writes ``<runtime dir>/jpserver-<pid>.json`` (its URL with the base URL, and its token) for
each running server. A server with this package's extension serves every one of its notebooks'
tools at ``<url>mcp``; which server runs the serving kernels its own ``/api/kernels`` says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from jupyter_mcp import discovery

TIMEOUT = 5.0


@dataclass(frozen=True)
class JupyterServer:
    """A running Jupyter server this user can reach with its token."""

    url: str
    """``http://localhost:8888/base/`` (with the base URL and a final slash)."""
    token: str
    pid: int

    @property
    def union_url(self) -> str:
        """Every notebook's tools as one MCP server."""
        return self.url + "mcp"

    def get(self, path: str) -> Any:
        """GET a REST path under the server's URL; its JSON (``httpx.HTTPError`` or ``ValueError`` if not)."""
        reply = httpx.get(self.url + path, headers={"Authorization": f"token {self.token}"}, timeout=TIMEOUT)
        reply.raise_for_status()
        return reply.json()


def running(directory: Path | None = None) -> list[JupyterServer]:
    """Every live server with a token, from its ``jpserver-<pid>.json``."""
    found = []
    for path in sorted((directory or discovery.runtime_dir()).glob("jpserver-*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            server = JupyterServer(str(data["url"]).rstrip("/") + "/", str(data.get("token") or ""), int(data["pid"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if server.token and discovery.pid_alive(server.pid):
            found.append(server)
    return found


def with_union(servers: list[JupyterServer], kernel_ids: set[str]) -> JupyterServer | None:
    """The server with this package's extension that runs the most of ``kernel_ids`` (any, if none is given)."""
    best: tuple[int, JupyterServer] | None = None
    for server in servers:
        try:
            kernels = {str(kernel["id"]) for kernel in server.get("api/kernels")}
            server.get("api/mcp/union")  # the extension is there (and the union answers)
        except (httpx.HTTPError, ValueError, KeyError, TypeError):
            continue
        mine = len(kernels & kernel_ids)
        if (mine or not kernel_ids) and (best is None or mine > best[0]):
            best = (mine, server)
    return best[1] if best is not None else None


def union_of(kernel_ids: set[str], directory: Path | None = None) -> JupyterServer | None:
    """The Jupyter server serving these kernels' tools together, if one runs here."""
    return with_union(running(directory), kernel_ids)
