"""Which kernel serves which tools: discovery files matched against this server's kernels and sessions.

Kernels write ``<runtime dir>/jupyter-mcp-<kernel_id>.json`` when their tool server starts. Only
files whose kernel id belongs to this Jupyter server's kernel manager count, so another server's
(or a stand-alone) kernel sharing the runtime dir is never exposed here. Notebook paths come from
the session manager (the API path JupyterLab uses), looked up on every request, so a notebook's
route follows its kernel across restarts and kernel changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tornado import web

from jupyter_mcp import discovery


class UnknownKernel(LookupError):
    """No running kernel with that id, or no session for that notebook (HTTP 404)."""


class NoToolServer(LookupError):
    """The kernel runs but serves no tools yet (HTTP 503)."""


@dataclass(frozen=True)
class Located:
    """A live tool server and where it lives."""

    info: discovery.ServerInfo
    notebook_path: str | None


class ToolServerDirectory:
    """Finds kernels' tool servers for the proxy and the REST API."""

    def __init__(self, kernel_manager: Any, session_manager: Any, discovery_dir: Path | None = None) -> None:
        self.kernel_manager = kernel_manager
        self.session_manager = session_manager
        self.discovery_dir = discovery_dir or discovery.runtime_dir()
        self._files = DiscoveryCache(self.discovery_dir)

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

        jupyter_client keeps a kernel being shut down (or started) in ``_pending_kernels``: no public
        API says so, and without it a slow shutdown reads as a death."""
        return kernel_id in getattr(self.kernel_manager, "_pending_kernels", {})

    def server_of_kernel(self, kernel_id: str) -> discovery.ServerInfo:
        """The live tool server of a kernel this Jupyter server runs."""
        if kernel_id not in self.kernel_manager:
            raise UnknownKernel(f"no running kernel with id {kernel_id!r}")
        info = self._files.find(kernel_id)
        if info is None:
            raise NoToolServer(f"kernel {kernel_id} has no MCP tool server yet: run a %%mcp_tool cell in its notebook")
        return info

    async def kernel_of_notebook(self, path: str) -> str:
        """The id of the kernel a notebook's session currently uses."""
        try:
            session = await self.session_manager.get_session(path=path)
        except web.HTTPError:
            session = None
        if not session or not session.get("kernel"):
            raise UnknownKernel(f"no running kernel for notebook {path!r}: open it (or start its kernel) first")
        return str(session["kernel"]["id"])

    async def server_of_notebook(self, path: str) -> discovery.ServerInfo:
        kernel_id = await self.kernel_of_notebook(path)
        try:
            return self.server_of_kernel(kernel_id)
        except NoToolServer:
            raise NoToolServer(f"notebook {path!r} has no MCP tool server yet: run a %%mcp_tool cell in it") from None

    async def live(self) -> list[Located]:
        """Every tool server of this Jupyter server's kernels, newest first."""
        running = self.kernel_ids()
        paths = await self.notebook_paths()
        return [
            Located(info, paths.get(info.kernel_id))
            for info in discovery.read_all(self.discovery_dir, clean=False)
            if info.kernel_id in running
        ]

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
