"""TARGET on the command line: a notebook path, a kernel id (or its start), or nothing.

Resolved against the live servers in the discovery files. A notebook target follows the
notebook (its newest live kernel); a kernel target follows that kernel id. No target while several
notebooks serve: the Jupyter server running their kernels, whose ``<url>mcp`` serves every one of its
notebooks' tools. Jupyter writes ``<runtime dir>/jpserver-<pid>.json`` (its URL with the base URL,
and its token) for each running server; which one runs the serving kernels its ``/api/kernels`` says.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, Literal

from jupyter_mcp import discovery
from jupyter_mcp.cli.errors import CLIError
from jupyter_mcp.discovery import ServerInfo

TargetKind = Literal["notebook", "kernel", "only"]


@dataclass(frozen=True)
class TargetSpec:
    """What the user asked for, before it is matched against live servers."""

    kind: TargetKind
    value: str = ""

    def describe(self) -> str:
        if self.kind == "notebook":
            return f"notebook {self.value}"
        if self.kind == "kernel":
            return f"kernel {self.value}"
        return "the only live server"


def parse_target(text: str | None) -> TargetSpec:
    """A path (``.ipynb``) is a notebook; other text is a kernel id or its start."""
    text = (text or "").strip()
    if not text:
        return TargetSpec("only")
    if "." in text or "/" in text or os.sep in text:  # kernel ids have neither
        if not text.endswith(".ipynb"):
            raise CLIError(f"{text!r} is not a notebook: a notebook target ends in .ipynb")
        return TargetSpec("notebook", os.path.expanduser(text))
    if any(ch.isspace() for ch in text):
        raise CLIError(f"{text!r} is neither a notebook path (.ipynb) nor a kernel id")
    return TargetSpec("kernel", text)


def matching(spec: TargetSpec, servers: Sequence[ServerInfo]) -> list[ServerInfo]:
    """Live servers that fit ``spec``, newest first (as ``discovery.read_all`` orders them)."""
    if spec.kind == "only":
        return list(servers)
    if spec.kind == "kernel":
        exact = [s for s in servers if s.kernel_id == spec.value]
        return exact or [s for s in servers if s.kernel_id.startswith(spec.value)]
    return [s for s in servers if s.notebook_path and same_notebook(spec.value, s.notebook_path)]


def same_notebook(wanted: str, served: str) -> bool:
    """Whether a notebook path given by the user names the notebook a kernel serves.

    The kernel records what Jupyter gave it (usually an absolute path, sometimes one relative
    to the server root). A relative path matches on trailing components (``analysis.ipynb``
    names ``/home/me/project/analysis.ipynb``); two absolute paths must be the same file.
    """
    if os.path.isabs(served) and _real(os.path.abspath(wanted)) == _real(served):
        return True
    if os.path.isabs(wanted) and os.path.isabs(served):
        return False
    wanted_parts, served_parts = PurePath(wanted).parts, PurePath(served).parts
    return _ends_with(served_parts, wanted_parts) or _ends_with(wanted_parts, served_parts)


def _ends_with(parts: tuple[str, ...], tail: tuple[str, ...]) -> bool:
    return 0 < len(tail) <= len(parts) and parts[len(parts) - len(tail) :] == tail


def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def select(spec: TargetSpec, servers: Sequence[ServerInfo]) -> ServerInfo:
    """The one live server ``spec`` names, or a ``CLIError`` that lists the choices."""
    found = matching(spec, servers)
    if spec.kind == "notebook" and found:
        return found[0]  # several kernels for one notebook: the newest serves it
    if len(found) == 1:
        return found[0]
    if not servers:
        raise CLIError(
            "no notebook is serving MCP tools right now (no live jupyter-mcp discovery file).\n"
            "Run a %%mcp_tool cell in a notebook, or start one headless with: jupyter-mcp serve NOTEBOOK.ipynb"
        )
    if not found:
        raise CLIError(f"no live server matches {spec.describe()}. Live servers:\n{describe_choices(servers)}")
    if spec.kind == "only":
        raise CLIError(f"{len(found)} notebooks serve tools; name one as TARGET:\n{describe_choices(found)}")
    raise CLIError(f"{spec.describe()} is ambiguous; name one of these:\n{describe_choices(found)}")


def describe_choices(servers: Sequence[ServerInfo]) -> str:
    return "\n".join(f"  {label(s)}  {s.url}" for s in servers)


def label(info: ServerInfo) -> str:
    """``notebook.ipynb (kernel 1a2b3c4d)`` or ``kernel 1a2b3c4d``."""
    kernel = f"kernel {info.kernel_id[:8]}"
    return f"{info.notebook_path} ({kernel})" if info.notebook_path else kernel


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
        import httpx  # only when a Jupyter server is asked: the CLI's other paths start without it

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
    import httpx

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
