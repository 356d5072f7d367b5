"""Which kernel serves which tools, and how to reach it: discovery files, kernel channels, sessions.

Kernels on this machine write ``<runtime dir>/jupyter-mcp-<kernel_id>.json`` when their tool server
starts. Only files whose kernel id belongs to this Jupyter server's kernel manager count, so another
server's (or a stand-alone) kernel sharing the runtime dir is never exposed here. Kernels elsewhere
(a gateway's, a remote provisioner's) and kernels with ``transport = "kernel"`` are asked over their
own channels (``carriers.registry``). Notebook paths come from the session manager (the API path
JupyterLab uses), looked up on every request, so a notebook's route follows its kernel across
restarts and kernel changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tornado import web

from jupyter_mcp import discovery
from jupyter_mcp.adapters import jupyter_server
from jupyter_mcp.adapters.fastpaths import settle
from jupyter_mcp.serverext.carriers.base import Carrier
from jupyter_mcp.serverext.carriers.registry import Carriers, Reach

logger = logging.getLogger(__name__)


class UnknownKernel(LookupError):
    """No running kernel with that id, or no session for that notebook (HTTP 404)."""


class NoToolServer(LookupError):
    """The kernel runs but serves no tools yet (HTTP 503)."""


@dataclass(frozen=True)
class Located:
    """A live tool server, where it lives and what reaches it."""

    info: discovery.ServerInfo
    notebook_path: str | None
    carrier: Carrier


class ToolServerDirectory:
    """Finds kernels' tool servers, and their carriers, for the proxy and the REST API."""

    def __init__(
        self, kernel_manager: Any, session_manager: Any, carriers: Carriers, discovery_dir: Path | None = None
    ) -> None:
        self.kernel_manager = kernel_manager
        self.fast_paths_taken = settle([jupyter_server.adapter_for(kernel_manager)], wanted=True, logger=logger)
        """Whether jupyter_server's fast path is taken (``JUPYTER_MCP_FAST_PATHS=0`` turns it off)."""
        self.session_manager = session_manager
        self.carriers = carriers
        self.discovery_dir = discovery_dir or discovery.runtime_dir()
        self._files = DiscoveryCache(self.discovery_dir)
        self.in_process: list[Callable[[], Located | None]] = []
        """Tool servers the Jupyter server runs itself (the notebook tools), listed with the kernels'."""
        self.reserved: dict[str, str] = {}
        """Prefixes at ``/mcp`` no notebook gets, whether their holder serves now or not (prefix -> holder)."""

    def own(self) -> list[Located]:
        """The tool servers running in this process now."""
        return [found for server in self.in_process if (found := server()) is not None]

    def kernel_ids(self) -> set[str]:
        return set(self.kernel_manager.list_kernel_ids())

    def kernel_pid(self, kernel_id: str) -> int | None:
        """The process id of a running kernel (a restart gives it a new one), if known."""
        try:
            kernel = self.kernel_manager.get_kernel(kernel_id)
        except KeyError:
            return None
        pid = getattr(getattr(kernel, "provisioner", None), "pid", None)
        return pid if isinstance(pid, int) else None

    def shutting_down(self, kernel_id: str) -> bool:
        """Whether the kernel manager is shutting the kernel down (it stays listed until its process ended).

        No public API says so (``adapters.jupyter_server``); without the fast path, a kernel counts as
        shutting down only once it is no longer listed."""
        if not self.fast_paths_taken.takes(jupyter_server.LIBRARY):
            return kernel_id not in self.kernel_ids()
        return jupyter_server.shutting_down(self.kernel_manager, kernel_id)

    async def server_of_kernel(self, kernel_id: str) -> Reach:
        """The live tool server of a kernel this Jupyter server runs (or of the server itself), and its carrier."""
        own = next((found for found in self.own() if found.info.kernel_id == kernel_id), None)
        if own is not None:
            return Reach(own.info, own.carrier)
        if kernel_id not in self.kernel_manager:
            raise UnknownKernel(f"no running kernel with id {kernel_id!r}")
        reach = await self._reach(kernel_id, fresh=True)
        if reach is None:
            raise NoToolServer(f"kernel {kernel_id} has no MCP tool server yet: run a %%mcp_tool cell in its notebook")
        return reach

    async def _reach(self, kernel_id: str, *, fresh: bool) -> Reach | None:
        if self.carriers.local(kernel_id):
            info = self._files.find(kernel_id)
            if info is None:
                return None
            if info.transport == "http":
                return Reach(info, self.carriers.http(info))
        return await self.carriers.channel(kernel_id, fresh=fresh)

    async def kernel_of_notebook(self, path: str) -> str:
        """The id of the kernel a notebook's session currently uses."""
        try:
            session = await self.session_manager.get_session(path=path)
        except web.HTTPError:
            session = None
        if not session or not session.get("kernel"):
            raise UnknownKernel(f"no running kernel for notebook {path!r}: open it (or start its kernel) first")
        return str(session["kernel"]["id"])

    async def server_of_notebook(self, path: str) -> Reach:
        kernel_id = await self.kernel_of_notebook(path)
        try:
            return await self.server_of_kernel(kernel_id)
        except NoToolServer:
            raise NoToolServer(f"notebook {path!r} has no MCP tool server yet: run a %%mcp_tool cell in it") from None

    async def live(self) -> list[Located]:
        """The servers running in this process, then every tool server of this Jupyter server's kernels, newest
        first (kernels whose channel said they serve nothing are asked again only after the carriers'
        ``probe_interval``)."""
        running = sorted(self.kernel_ids())
        paths = await self.notebook_paths()
        reaches = await asyncio.gather(*(self._listed(kernel_id) for kernel_id in running))
        found = [Located(r.info, paths.get(k), r.carrier) for k, r in zip(running, reaches, strict=True) if r]
        return self.own() + sorted(found, key=lambda located: located.info.started, reverse=True)

    async def _listed(self, kernel_id: str) -> Reach | None:
        try:
            return await self._reach(kernel_id, fresh=False)
        except (KeyError, ValueError):  # the kernel went away meanwhile; a file with an unusable URL
            return None

    async def notebook_paths(self) -> dict[str, str]:
        """Kernel id -> notebook path, for every notebook session (its kernel serving tools or not)."""
        return {
            str(session["kernel"]["id"]): str(session["path"])
            for session in await self.session_manager.list_sessions()
            if session.get("kernel") and session.get("type", "notebook") == "notebook"
        }


class DiscoveryCache:
    """``discovery.find`` that re-reads a kernel's file only when it changed (one ``stat`` per request).

    Kernels replace the file atomically on every change, so (inode, mtime, size) identifies a version.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._known: dict[str, tuple[tuple[int, int, int], discovery.ServerInfo]] = {}

    def find(self, kernel_id: str) -> discovery.ServerInfo | None:
        try:
            stat = discovery.path_for(kernel_id, self.directory).stat()
        except OSError:
            self._known.pop(kernel_id, None)
            return None
        version = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        known = self._known.get(kernel_id)
        if known is not None and known[0] == version:
            return known[1] if discovery.pid_alive(known[1].pid) else None
        info = discovery.find(kernel_id, self.directory)
        if info is not None:
            self._known[kernel_id] = (version, info)
        return info
