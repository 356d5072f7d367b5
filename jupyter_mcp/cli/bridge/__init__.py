"""``jupyter-mcp connect``'s bridge: a stdio MCP server relaying to a kernel's streamable HTTP server."""

from __future__ import annotations

from typing import BinaryIO

from jupyter_mcp.cli.bridge.locator import DiscoveryLocator, Endpoint, FixedLocator, Locator, Missing
from jupyter_mcp.cli.bridge.relay import Bridge

__all__ = ["Bridge", "DiscoveryLocator", "Endpoint", "FixedLocator", "Locator", "Missing", "run_stdio"]


async def run_stdio(locator: Locator, stdout: BinaryIO, *, poll_interval: float = 0.5) -> None:
    """Serve the stdio client on stdin / ``stdout`` (from ``claim_stdout``) until stdin closes."""
    from jupyter_mcp.cli.stdio import LineWriter, read_lines

    writer = LineWriter(stdout)
    await writer.start()
    try:
        await Bridge(locator, writer.send, poll_interval).run(read_lines())
    finally:
        writer.close()
