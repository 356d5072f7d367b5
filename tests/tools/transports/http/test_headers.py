"""Parameters mirrored into HTTP headers (2026 era, SEP-2243) with a real mcp.Client and raw requests."""

from collections.abc import Iterator
from typing import Any

import httpx
import mcp_types as mt
import pytest

from jupyter_mcp.tools import ToolServer
from tests.conftest import http_client, served


@pytest.fixture
def url() -> Iterator[str]:
    server = ToolServer("headers")

    @server.tool(headers={"region": "Region", "priority": "Priority"})
    def query(region: str, priority: int, text: str) -> str:
        """Runs a query in a region."""
        return f"{text} in {region} at {priority}"

    with served(server) as served_url:
        yield served_url


async def test_the_schema_declares_the_headers_and_clients_mirror_them(url: str, mode: str) -> None:
    async with http_client(url, "test-token", mode=mode) as client:
        [tool] = (await client.list_tools()).tools
        assert tool.input_schema["properties"]["region"]["x-mcp-header"] == "Region"
        assert tool.input_schema["properties"]["priority"]["x-mcp-header"] == "Priority"
        result = await client.call_tool("query", {"region": "eu west", "priority": 2, "text": "q"})
    assert result.content[0].text == "q in eu west at 2"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({"Mcp-Param-Region": "eu", "Mcp-Param-Priority": "2"}, 200, None),
        ({"Mcp-Param-Region": "=?base64?ZXU=?=", "Mcp-Param-Priority": "2"}, 200, None),
        ({"Mcp-Param-Region": "us", "Mcp-Param-Priority": "2"}, 400, mt.HEADER_MISMATCH),
        ({"Mcp-Param-Priority": "2"}, 400, mt.HEADER_MISMATCH),
        ({"Mcp-Param-Region": "=?base64?ZXU?=", "Mcp-Param-Priority": "2"}, 400, mt.HEADER_MISMATCH),
    ],
)
async def test_headers_and_arguments_must_agree(
    url: str, headers: dict[str, str], status: int, code: int | None
) -> None:
    reply = await raw_call(url, {"region": "eu", "priority": 2, "text": "q"}, headers)
    assert reply.status_code == status, reply.text
    assert reply.json().get("error", {}).get("code") == code


async def raw_call(url: str, arguments: dict[str, Any], extra: dict[str, str]) -> httpx.Response:
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "query", "arguments": arguments, "_meta": meta},
    }
    headers = {
        "Authorization": "Bearer test-token",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "query",
        **extra,
    }
    async with httpx.AsyncClient() as http:
        return await http.post(url, json=body, headers=headers)
