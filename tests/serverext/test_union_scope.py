"""``/mcp`` per client: a scope (``?notebooks=`` or ``/mcp/scope/...``), a read-only limit across
notebooks, the names the sidebar shows (``/api/mcp/union``) and the one client config."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import mcp_types as mt
import pytest
from tornado.httpclient import HTTPClientError

from jupyter_mcp.shapes.rest import UnionReply
from tests.conftest import header_client
from tests.serverext.conftest import WHOAMI, Notebook, jupyter_client
from tests.serverext.test_shapes import mismatches

WRITE = '''
%%mcp_tool
def wipe() -> str:
    """Not read-only."""
    return f"wiped {NOTEBOOK}"
'''
PATHS = ("sales.ipynb", "ops/daily.ipynb", "ops/sales.ipynb")


async def serving(jp_fetch: Any, jp_serverapp: Any, path: str) -> Notebook:
    return await Notebook(jp_fetch, jp_serverapp, path).serve(WHOAMI, WRITE)


@pytest.fixture
async def notebooks(jp_fetch: Any, jp_serverapp: Any) -> AsyncIterator[list[Notebook]]:
    started = list(await asyncio.gather(*(serving(jp_fetch, jp_serverapp, path) for path in PATHS)))
    try:
        yield started
    finally:
        for notebook in started:
            notebook.close()


async def names(url: str, token: str, mode: str) -> set[str]:
    async with jupyter_client(url, token, mode=mode) as client:
        return {tool.name for tool in (await client.list_tools()).tools}


async def test_a_scope_shows_a_client_only_the_notebooks_it_names(
    notebooks: list[Notebook], server_url: str, jupyter_token: str, mode: str
) -> None:
    everything = {f"{prefix}_{tool}" for prefix in ("sales", "ops_sales", "daily") for tool in ("whoami", "wipe")}
    assert await names(f"{server_url}mcp", jupyter_token, mode) == everything
    assert await names(f"{server_url}mcp?notebooks=ops/", jupyter_token, mode) == {
        "daily_whoami",
        "daily_wipe",
        "ops_sales_whoami",
        "ops_sales_wipe",
    }
    assert await names(f"{server_url}mcp?notebooks=sales.ipynb,ops/daily.ipynb", jupyter_token, mode) == {
        "sales_whoami",
        "sales_wipe",
        "daily_whoami",
        "daily_wipe",
    }
    assert await names(f"{server_url}mcp/scope/ops/daily.ipynb", jupyter_token, mode) == {"daily_whoami", "daily_wipe"}
    async with jupyter_client(f"{server_url}mcp?notebooks=ops", jupyter_token, mode=mode) as client:
        refused = await client.call_tool("sales_whoami", {})
        assert refused.is_error
        assert refused.content[0].text == (  # type: ignore[union-attr]
            "Unknown tool: 'sales_whoami'. Notebooks serving tools: ops/daily.ipynb (daily_…), ops/sales.ipynb (ops_sales_…)"
        )
        assert (await client.call_tool("daily_whoami", {})).structured_content == {"result": "ops/daily.ipynb"}


async def test_an_unknown_name_says_when_no_notebook_serves(
    jp_fetch: Any, server_url: str, jupyter_token: str, mode: str
) -> None:
    # Issue 34: it read "Notebooks serving tools: no notebook in every notebook".
    async with jupyter_client(f"{server_url}mcp", jupyter_token, mode=mode) as client:
        refused = await client.call_tool("sales_whoami", {})
        assert refused.is_error
        assert refused.content[0].text == "Unknown tool: 'sales_whoami'. No notebook is serving tools."  # type: ignore[union-attr]
    async with jupyter_client(f"{server_url}mcp?notebooks=reports/,q1.ipynb", jupyter_token, mode=mode) as client:
        refused = await client.call_tool("sales_whoami", {})
        assert refused.content[0].text == (  # type: ignore[union-attr]
            "Unknown tool: 'sales_whoami'. No notebook in this client's scope (q1.ipynb, reports/) is serving tools."
        )


async def test_a_bad_scope_is_refused_with_a_reason(jp_fetch: Any, server_url: str, jupyter_token: str) -> None:
    headers = {"Authorization": f"token {jupyter_token}"}
    async with httpx.AsyncClient(timeout=30) as http:
        reply = await http.post(f"{server_url}mcp?notebooks=../secret.ipynb", json={}, headers=headers)
    assert reply.status_code == 400
    assert "no '..'" in reply.json()["error"]["message"]


async def test_a_read_only_limit_applies_to_a_client_in_every_notebook(
    notebooks: list[Notebook], jp_fetch: Any, jp_serverapp: Any, server_url: str, jupyter_token: str, mode: str
) -> None:
    body = json.dumps({"client": "desk-agent", "read_only": True})
    reply = json.loads((await jp_fetch("api", "mcp", "limits", method="POST", body=body)).body)
    assert reply == {"read_only_clients": ["desk-agent"]}
    later = await serving(jp_fetch, jp_serverapp, "later.ipynb")
    try:
        info = mt.Implementation(name="desk-agent", version="1")
        async with jupyter_client(f"{server_url}mcp", jupyter_token, mode=mode, client_info=info) as client:
            for prefix in ("sales", "daily", "later"):
                assert (await client.call_tool(f"{prefix}_whoami", {})).is_error is False
                refused = await client.call_tool(f"{prefix}_wipe", {})
                assert refused.is_error
                assert "limited client 'desk-agent' to read-only tools" in refused.content[0].text  # type: ignore[union-attr]
        union = json.loads((await jp_fetch("api", "mcp", "union")).body)
        assert union["read_only_clients"] == ["desk-agent"]
        assert "desk-agent" in {client["name"] for client in union["clients"]}
        body = json.dumps({"client": "desk-agent", "read_only": False})
        await jp_fetch("api", "mcp", "limits", method="POST", body=body)
        async with jupyter_client(f"{server_url}mcp", jupyter_token, mode=mode, client_info=info) as client:
            assert (await client.call_tool("later_wipe", {})).structured_content == {"result": "wiped later.ipynb"}
    finally:
        later.close()


async def test_a_limit_needs_a_client_name(jp_fetch: Any) -> None:
    with pytest.raises(HTTPClientError) as refused:
        await jp_fetch("api", "mcp", "limits", method="POST", body=json.dumps({"read_only": True}))
    assert refused.value.code == 400


async def test_the_sidebar_reads_every_notebook_its_prefix_and_why_it_is_longer(
    notebooks: list[Notebook], jp_fetch: Any, jp_base_url: str
) -> None:
    reply = json.loads((await jp_fetch("api", "mcp", "union")).body)
    assert mismatches(reply, UnionReply) == []
    assert reply["route"] == f"{jp_base_url}mcp"
    found = {entry["notebook_path"]: entry for entry in reply["notebooks"]}
    assert {path: entry["prefix"] for path, entry in found.items()} == {
        "sales.ipynb": "sales",
        "ops/daily.ipynb": "daily",
        "ops/sales.ipynb": "ops_sales",
    }
    assert found["ops/sales.ipynb"]["collision"] == "'sales' is also wanted by sales.ipynb"
    assert found["sales.ipynb"]["collision"] is None
    assert sorted(found["ops/sales.ipynb"]["tools"]) == ["ops_sales_whoami", "ops_sales_wipe"]


async def test_one_config_reaches_every_notebook(
    notebooks: list[Notebook], jp_fetch: Any, jp_base_url: str, mode: str
) -> None:
    reply = json.loads((await jp_fetch("api", "mcp", "config", params={"client": "vscode"})).body)
    ((name, entry),) = reply["config"]["servers"].items()
    assert name == "jupyter-notebooks"
    assert entry["url"].endswith(f"{jp_base_url}mcp")
    assert (reply["notebook"], reply["kernel_id"]) == (None, None)
    async with header_client(entry["url"], entry["headers"], mode=mode) as client:
        assert "daily_whoami" in {tool.name for tool in (await client.list_tools()).tools}
    scoped = json.loads((await jp_fetch("api", "mcp", "config", params={"client": "cursor", "notebooks": "ops/"})).body)
    assert scoped["url"].endswith(f"{jp_base_url}mcp?notebooks=ops/")
    claude = json.loads((await jp_fetch("api", "mcp", "config", params={"client": "claude"})).body)
    (stdio,) = claude["config"]["mcpServers"].values()
    assert stdio["args"][-3:] == ["connect", "--url", claude["url"]]


@pytest.mark.parametrize("era", ["2025", "2026"])
async def test_a_hostile_body_is_refused_as_a_kernel_refuses_it(
    jp_fetch: Any, server_url: str, jupyter_token: str, era: str
) -> None:
    headers = {
        "Authorization": f"token {jupyter_token}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        **({"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"} if era == "2026" else {}),
    }
    deep = b"[" * 1000 + b"]" * 1000
    large = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "' + b"x" * (5 * 1024 * 1024) + b'"}}'
    async with httpx.AsyncClient(timeout=60) as http:
        too_deep = await http.post(f"{server_url}mcp", content=deep, headers=headers)
        too_large = await http.post(f"{server_url}mcp", content=large, headers=headers)
    assert (too_deep.status_code, too_deep.json()["error"]["code"]) == (400, -32700)
    assert "max_json_depth" in too_deep.json()["error"]["message"]
    assert (too_large.status_code, too_large.json()["error"]["code"]) == (413, -32600)
    assert "max_body_bytes" in too_large.json()["error"]["message"]


@pytest.mark.parametrize("era", ["2025", "2026"])
async def test_unreadable_headers_are_refused_as_a_kernel_refuses_them(
    jp_fetch: Any, server_url: str, jupyter_token: str, era: str
) -> None:
    """Found by the fuzzer: a 2026-era POST without the Accept header got an empty 406."""
    headers = {
        "Authorization": f"token {jupyter_token}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        **({"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "ping"} if era == "2026" else {}),
    }
    ping = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {}}'
    async with httpx.AsyncClient(timeout=60) as http:
        unaccepted = await http.post(f"{server_url}mcp", content=ping, headers=headers | {"Accept": ""})
        not_json = await http.post(f"{server_url}mcp", content=ping, headers=headers | {"Content-Type": "text/plain"})
    assert (unaccepted.status_code, unaccepted.json()["error"]["code"]) == (406, -32600)
    assert unaccepted.json()["error"]["message"] == (
        "Not acceptable: the Accept header must list application/json and text/event-stream, got ''"
    )
    assert (not_json.status_code, not_json.json()["error"]["code"]) == (415, -32600)
    assert not_json.json()["error"]["message"] == (
        "Invalid request: the Content-Type must be application/json, got 'text/plain'"
    )
