"""TARGET on the command line: a notebook path, a kernel id (or its start), or nothing.

Resolved against the live servers in the discovery files. A notebook target follows the
notebook (its newest live kernel); a kernel target follows that kernel id.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

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
