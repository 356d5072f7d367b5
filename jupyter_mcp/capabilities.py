"""What every jupyter-mcp endpoint advertises, for the places that answer a handshake themselves.

The in-kernel server's capabilities come from the SDK (``tools.protocol.handlers``); the ``connect``
bridge (while no kernel serves its target) and the Jupyter server's ``/mcp`` (which serves every
notebook's tools) say the same, so a client sees one server whichever way it came. Standard
library only.
"""

from __future__ import annotations

from typing import Any

from jupyter_mcp._version import __version__

SERVER_INFO: dict[str, str] = {"name": "jupyter-mcp", "version": __version__}
CAPABILITIES: dict[str, Any] = {
    "completions": {},
    "logging": {},
    "prompts": {"listChanged": True},
    "resources": {"listChanged": True, "subscribe": True},
    "tools": {"listChanged": True},
}
"""The same in both eras…"""
MODERN_CAPABILITIES: dict[str, Any] = {**CAPABILITIES, "extensions": {"io.modelcontextprotocol/tasks": {}}}
"""…plus the tasks extension for 2026-era clients (``server/discover``; ``tools.calls.tasks``)."""
CACHEABLE: dict[str, Any] = {"cacheScope": "private", "ttlMs": 0}
"""What a 2026-era list or discover result says about caching it (as the kernel's SDK says it)."""
