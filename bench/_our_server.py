"""Our ``ToolServer`` with the same ``add`` tool, as a process (prints ``PORT <n>``).

``--tools N`` registers N extra tools (for the tools/list benchmark); ``--public`` serves with the fast paths
off (``fast_paths=False``: the libraries' public APIs only); ``--async-tool`` serves ``add`` as an ``async def``,
as the plain SDK server's handler is (a sync tool runs in a worker thread when the fast paths are off).
"""

from __future__ import annotations

import argparse
import sys

from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.runner import http_server
from jupyter_mcp.tools.transports.http.serving import bind_socket

TOKEN = "bench-token"


def add(a: int, b: int) -> int:
    """Adds two integer numbers together."""
    return a + b


async def add_async(a: int, b: int) -> int:
    """Adds two integer numbers together."""
    return a + b


def build(extra_tools: int, *, public: bool = False, async_tool: bool = False) -> ToolServer:
    server = ToolServer("ours", fast_paths=not public)
    server.add_tool(add_async if async_tool else add, name="add")
    for index in range(extra_tools):

        def tool(query: str, limit: int = 10, exact: bool = False) -> list[str]:
            """Search something.

            Args:
                query: What to look for.
                limit: How many results.
                exact: Exact matches only.
            """
            return []

        server.add_tool(tool, name=f"tool_{index:04d}")
    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=0)
    parser.add_argument("--public", action="store_true")
    parser.add_argument("--async-tool", action="store_true")
    options = parser.parse_args()
    server = build(options.tools, public=options.public, async_tool=options.async_tool)
    sock = bind_socket("127.0.0.1", 0)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    http_server(server.protected_http_app(TOKEN)).run(sockets=[sock])  # as ``run(server)`` serves HTTP


if __name__ == "__main__":
    sys.exit(main())
