"""Where the bridge's server is right now: re-read from the discovery files, or fixed by the user.

A kernel restart gives a notebook a new server (new port and token unless pinned); the
``DiscoveryLocator`` sees that on its next look and says why when nothing serves the target.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from jupyter_mcp import discovery
from jupyter_mcp.cli.targets import TargetSpec, label, matching
from jupyter_mcp.discovery import ServerInfo


@dataclass(frozen=True)
class Endpoint:
    """One live server: where it is, how to authenticate, and what to call it in messages."""

    url: str
    token: str | None
    name: str
    """How messages name it: ``the tool server of analysis.ipynb (kernel 1a2b3c4d) at http://…``."""
    identity: tuple[object, ...] = ()
    """Changes when a different server process answers (a restart), even on the same URL."""


@dataclass(frozen=True)
class Missing:
    """Nothing serves the target; ``reason`` is a sentence for the user (it ends a tool error)."""

    reason: str


class Locator(Protocol):
    def locate(self) -> Endpoint | Missing: ...

    @property
    def authoritative(self) -> bool:
        """Whether ``Missing`` means the server is gone (discovery), not just unknown (fixed URL)."""
        ...


class FixedLocator:
    """An explicit ``--url`` (and ``--token``): always the same endpoint."""

    authoritative = False

    def __init__(self, url: str, token: str | None) -> None:
        self.endpoint = Endpoint(url, token, f"the MCP server at {url}", (url, token))

    def locate(self) -> Endpoint | Missing:
        return self.endpoint


class DiscoveryLocator:
    """Follows a notebook (its newest kernel) or a kernel id through the discovery files."""

    authoritative = True

    def __init__(self, spec: TargetSpec, directory: Path | None = None) -> None:
        self.spec = spec
        self.directory = directory
        self._last: ServerInfo | None = None
        self._lost_at: float | None = None

    def locate(self) -> Endpoint | Missing:
        found = matching(self.spec, discovery.read_all(self.directory))
        if self.spec.kind == "only" and len(found) > 1:
            return Missing(f"{len(found)} notebooks serve tools now; start the bridge with a TARGET to pick one")
        if not found:
            return Missing(self._why_missing())
        info = found[0]
        self._last, self._lost_at = info, None
        if not info.url:
            return Missing(
                f"{label(info)} serves its tools over the kernel's own messaging only (JupyterMCP.transport = "
                "'kernel'): connect through the Jupyter server's route, --url <jupyter url>/mcp/notebooks/<path>"
            )
        name = f"the tool server of {label(info)} at {info.url}"
        return Endpoint(info.url, info.token, name, (info.url, info.token, info.pid, info.started))

    def _why_missing(self) -> str:
        if self._last is None:
            return (
                f"no running kernel serves tools for {self.spec.describe()} "
                f"(no matching discovery file in {self.directory or discovery.runtime_dir()}). "
                "Open the notebook and run its %%mcp_tool cells; this bridge connects by itself."
            )
        if self._lost_at is None:
            self._lost_at = time.time()
        stamp = time.strftime("%H:%M:%S", time.localtime(self._lost_at))
        return (
            f"the kernel serving {label(self._last)} stopped serving tools at {stamp}: it was restarted or "
            "shut down. Run the notebook's %%mcp_tool cells again; this bridge reconnects by itself."
        )
