"""Runtime discovery files: how a kernel's tool server is found by the CLI and the server extension.

One file per kernel, ``<runtime_dir>/jupyter-mcp-<kernel_id>.json`` (mode 0600), written by the
kernel and removed at exit. Readers skip and delete files whose process is gone. This module is
the one typed shape of that message; kernel, CLI and server extension all use it.

The runtime directory exists only once some Jupyter application made it, so ``runtime_dir()``
creates it (mode 0700, as Jupyter's own applications do) for whoever asks first.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

from jupyter_mcp.shapes.status import RunOn

PREFIX = "jupyter-mcp-"


@dataclass(frozen=True)
class ToolSummary:
    name: str
    title: str | None = None
    description: str | None = None
    enabled: bool = True
    run_on: RunOn = "worker"
    tags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ResourceSummary:
    uri: str
    """The URI, or the URI template of a template."""
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    template: bool = False
    enabled: bool = True
    tags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PromptSummary:
    name: str
    title: str | None = None
    description: str | None = None
    arguments: list[str] = field(default_factory=list)
    enabled: bool = True
    tags: list[str] = field(default_factory=list)


ADMIN_HEADER = "X-Jupyter-MCP-Admin"
"""Carries ``ServerInfo.admin_token`` to the kernel's approval routes, besides the bearer token."""


@dataclass(frozen=True)
class ServerInfo:
    """What a live in-kernel tool server says about itself."""

    url: str
    token: str
    pid: int
    kernel_id: str
    notebook_path: str | None
    tools: list[ToolSummary] = field(default_factory=list)
    started: float = 0.0
    version: str = ""
    clients: int = 0
    calls: int = 0
    resources: list[ResourceSummary] = field(default_factory=list)
    prompts: list[PromptSummary] = field(default_factory=list)
    admin_token: str | None = None
    """Answers waiting calls and pauses tools (sent as ``ADMIN_HEADER``); MCP clients never get it."""
    transport: str = "http"
    """How the server is reached: ``"http"`` at ``url``, or ``"kernel"``: over the kernel's own messaging
    only (``url`` is empty), through the Jupyter server that runs the kernel."""
    name: str | None = None
    """The notebook's prefix at ``<jupyter url>/mcp`` (``%mcp name``), when set; else its file stem is used."""

    @property
    def tool_names(self) -> list[str]:
        return [t.name for t in self.tools]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ServerInfo:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["tools"] = [_tool(t) for t in data.get("tools", [])]
        values["resources"] = [_known(ResourceSummary, r) for r in data.get("resources", [])]
        values["prompts"] = [_known(PromptSummary, p) for p in data.get("prompts", [])]
        return cls(**values)


def _tool(data: Any) -> ToolSummary:
    if isinstance(data, str):
        return ToolSummary(data)
    return _known(ToolSummary, data)


Summary = TypeVar("Summary", ToolSummary, ResourceSummary, PromptSummary)


def _known(kind: type[Summary], data: dict[str, Any]) -> Summary:
    """``kind`` from the keys it knows (a newer writer may add some)."""
    return kind(**{k: v for k, v in data.items() if k in kind.__dataclass_fields__})


def runtime_dir() -> Path:
    """Jupyter's runtime directory (``$JUPYTER_RUNTIME_DIR`` or the platform's), created if missing."""
    from jupyter_core.paths import jupyter_runtime_dir

    return _ensure_private_dir(Path(jupyter_runtime_dir()))


def _ensure_private_dir(directory: Path) -> Path:
    from jupyter_core.utils import ensure_dir_exists

    ensure_dir_exists(directory, mode=0o700)
    return directory


def path_for(kernel_id: str, directory: Path | None = None) -> Path:
    return (directory or runtime_dir()) / f"{PREFIX}{kernel_id}.json"


def write(info: ServerInfo, directory: Path | None = None) -> Path:
    """Atomically write ``info`` with mode 0600 (it holds the token)."""
    target = path_for(info.kernel_id, runtime_dir() if directory is None else _ensure_private_dir(directory))
    fd, temporary = tempfile.mkstemp(prefix=".jupyter-mcp-", dir=target.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(info.to_json(), handle, indent=1)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


def remove(kernel_id: str, directory: Path | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        path_for(kernel_id, directory).unlink()


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True


def read_all(directory: Path | None = None, *, clean: bool = True) -> list[ServerInfo]:
    """Every live server, newest first; stale files (dead pid, unreadable) are skipped and removed."""
    servers = list(_read_each(directory or runtime_dir(), clean))
    return sorted(servers, key=lambda s: s.started, reverse=True)


def _read_each(directory: Path, clean: bool) -> Iterator[ServerInfo]:
    for path in directory.glob(f"{PREFIX}*.json"):
        info = _read(path)
        if info is not None and pid_alive(info.pid):
            yield info
        elif clean:
            with contextlib.suppress(OSError):
                path.unlink()


def _read(path: Path) -> ServerInfo | None:
    try:
        return ServerInfo.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def find(kernel_id: str, directory: Path | None = None) -> ServerInfo | None:
    """The live server of a kernel, if any."""
    info = _read(path_for(kernel_id, directory))
    return info if info is not None and pid_alive(info.pid) else None
