"""FastMCP 4 (from PyPI) with the same ``add`` tool, as a process (prints ``PORT <n>``): a bench baseline.

FastMCP is a bench-only dependency: ``bench/bench_servers.py`` runs this script with the Python of a
separate venv (``.venv/bench-fastmcp``, made on first use), so its pins never meet the project's.
Same socket as the other bench servers (TCP_NODELAY), FastMCP's own streamable-HTTP app.
``--tools N`` registers N extra tools shaped like bench/_our_server.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys

import uvicorn
from fastmcp import FastMCP


def build(extra_tools: int) -> FastMCP:
    server = FastMCP("fastmcp-bench")

    @server.tool
    def add(a: int, b: int) -> int:
        """Adds two integer numbers together."""
        return a + b

    for index in range(extra_tools):

        def tool(query: str, limit: int = 10, exact: bool = False) -> list[str]:
            """Search something.

            Args:
                query: What to look for.
                limit: How many results.
                exact: Exact matches only.
            """
            return []

        server.tool(tool, name=f"tool_{index:04d}")
    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=0)
    server = build(parser.parse_args().tools)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    app = server.http_app(path="/mcp")
    config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="on", ws="none")
    asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))


if __name__ == "__main__":
    sys.exit(main())
