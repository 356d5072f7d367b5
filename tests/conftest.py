"""Shared fixtures: real MCP clients in both protocol eras."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.transports.http.serving import BackgroundServer

# Jupyter server fixtures (jp_fetch, jp_serverapp, ...) for tests/serverext; must be registered here.
# tests.wheels: the session's built wheel; tests.fastpaths: the runs with the fast paths off or fallen back.
pytest_plugins = ["pytest_jupyter.jupyter_server", "tests.wheels", "tests.fastpaths"]

MODES = ["legacy", "auto"]
NOTEBOOK_TOOLS = {"jupyter_notebooks", "jupyter_read", "jupyter_edit", "jupyter_run", "jupyter_create"}
"""The tools the Jupyter server itself serves at ``/mcp`` beside the notebooks' (on unless ``notebook_tools="off"``)."""
"""``legacy``: the 2025-11-25 initialize handshake. ``auto``: the 2026-07-28 stateless era."""


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def http_client(url: str, token: str | None, **options: Any) -> Client:
    """A real ``mcp.Client`` over streamable HTTP, presenting ``token`` as a bearer header."""
    return header_client(url, {"Authorization": f"Bearer {token}"} if token else None, **options)


def header_client(url: str, headers: dict[str, str] | None, **options: Any) -> Client:
    """A real ``mcp.Client`` over streamable HTTP sending ``headers`` (as a client config gives them)."""
    transport = streamable_http_client(
        url, http_client=httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300))
    )
    return Client(transport, **options)


@contextmanager
def served(server: ToolServer, token: str = "test-token") -> Iterator[str]:
    """Serve ``server`` over protected streamable HTTP on a free loopback port; yields the URL."""
    runner = BackgroundServer(server.protected_http_app(token), "127.0.0.1", 0)
    runner.start()
    try:
        yield f"http://127.0.0.1:{runner.port}/mcp"
    finally:
        runner.stop()


@asynccontextmanager
async def connected(server: ToolServer, mode: str, **options: Any) -> AsyncIterator[Client]:
    async with Client(server.lowlevel, mode=mode, **options) as client:
        yield client
