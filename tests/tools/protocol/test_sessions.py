"""Who is connected: one ``ClientEntry`` per client, over HTTP in both eras, until a 2025-era session ends."""

from __future__ import annotations

import anyio
import pytest

from jupyter_mcp.tools import ToolServer
from tests.conftest import http_client, served


def _server() -> ToolServer:
    server = ToolServer("who")

    @server.tool
    def ping() -> str:
        return "pong"

    return server


async def _until_empty(server: ToolServer) -> None:
    with anyio.fail_after(10):
        while server.connected_clients():
            await anyio.sleep(0.02)


@pytest.mark.parametrize(("mode", "kind"), [("legacy", "session"), ("auto", "requests")])
async def test_a_client_is_listed_once_with_its_era(mode: str, kind: str) -> None:
    server = _server()
    with served(server) as url:
        async with http_client(url, "test-token", mode=mode) as client:
            await client.call_tool("ping", {})
            await client.call_tool("ping", {})
            (entry,) = server.connected_clients()
            assert entry["name"] == "mcp"
            assert entry["kind"] == kind
            assert entry["protocol_version"] == client.protocol_version
            assert entry["since"] <= entry["last_seen"]
            assert server.status()["clients"] == [entry]
            entry["name"] = "changed by a caller"
            assert server.connected_clients()[0]["name"] == "mcp", "callers get copies"
        if mode == "legacy":
            await _until_empty(server)  # the session ended (DELETE): no longer listed
