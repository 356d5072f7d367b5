"""``jupyter_notebooks``: the notebooks under the server's root, each with its tab, kernel, tools and agents.

The tree is walked through the contents manager (so hidden files stay hidden, and any contents manager
works), breadth first, up to ``MAX_NOTEBOOKS`` notebooks in ``MAX_FOLDERS`` folders; past that the
answer says it was cut. Kernels come from the sessions (a notebook's kernel is its session's), open
tabs from the collaboration rooms that have a browser connected.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from jupyter_core.utils import ensure_async

from jupyter_mcp.serverext.notebooks.agents import Agents
from jupyter_mcp.serverext.notebooks.documents import Documents
from jupyter_mcp.shapes.notebooks import KernelEntry, NotebookEntry

logger = logging.getLogger(__name__)

MAX_NOTEBOOKS = 1000
MAX_FOLDERS = 500

Serving = Callable[[], dict[str, str]]
"""Notebook path -> the prefix its own tools carry at ``/mcp`` (the union's members)."""


async def notebooks(
    serverapp: Any, documents: Documents, agents: Agents, serving: Serving, under: str = ""
) -> tuple[list[NotebookEntry], bool]:
    """The notebooks (path order) and whether the walk stopped at its bounds."""
    found, truncated = await _walk(serverapp.contents_manager, under)
    kernels = await _kernels(serverapp)
    open_now = documents.open_in_lab()
    prefixes = serving()
    entries: list[NotebookEntry] = [
        {
            "path": path,
            "last_modified": modified,
            "open": path in open_now,
            "kernel": kernels.get(path),
            "serves_tools": path in prefixes,
            "prefix": prefixes.get(path),
            "agents": agents.in_notebook(path),
        }
        for path, modified in sorted(found.items())
    ]
    return entries, truncated


async def _walk(manager: Any, under: str) -> tuple[dict[str, str | None], bool]:
    found: dict[str, str | None] = {}
    folders: deque[str] = deque([under.strip("/")])
    visited = 0
    while folders:
        if visited >= MAX_FOLDERS or len(found) >= MAX_NOTEBOOKS:
            return found, True
        folder = folders.popleft()
        visited += 1
        try:
            model = await ensure_async(manager.get(folder, content=True, type="directory"))
        except Exception as error:  # a folder that cannot be listed (permissions, gone meanwhile) is skipped
            logger.debug("jupyter_notebooks skips %r: %s", folder, error)
            continue
        for item in sorted(model.get("content") or [], key=lambda entry: str(entry.get("path", ""))):
            path = str(item.get("path", "")).lstrip("/")
            if item.get("type") == "directory":
                folders.append(path)
            elif item.get("type") == "notebook" and len(found) < MAX_NOTEBOOKS:
                modified = item.get("last_modified")
                found[path] = modified.isoformat() if hasattr(modified, "isoformat") else modified
    return found, False


async def _kernels(serverapp: Any) -> dict[str, KernelEntry]:
    manager = serverapp.kernel_manager
    kernels: dict[str, KernelEntry] = {}
    for session in await serverapp.session_manager.list_sessions():
        kernel = session.get("kernel")
        if not kernel or session.get("type", "notebook") != "notebook":
            continue
        state = str(kernel.get("execution_state") or "unknown")
        if kernel["id"] in manager:
            state = str(getattr(manager.get_kernel(kernel["id"]), "execution_state", state))
        entry: KernelEntry = {
            "id": kernel["id"],
            "name": str(kernel.get("name", "")),
            "state": state,
            "busy": state == "busy",
        }
        kernels[str(session["path"]).lstrip("/")] = entry
    return kernels
