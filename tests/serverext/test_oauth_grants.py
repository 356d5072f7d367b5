"""What a grant allows is what a signed-in client gets, on every route: the notebooks the user chose, read-only
tools only if so; and the client is named by its grant in the kernels' history, approvals and client lists, and
in Connected apps."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import pytest

from jupyter_mcp.shapes import signedin
from tests.conftest import header_client
from tests.oauth import RESET, Consent, oauth_client, sdk_provider
from tests.serverext.conftest import WHOAMI, Notebook


@pytest.fixture
async def two(jp_fetch: Any, jp_serverapp: Any) -> AsyncIterator[dict[str, Notebook]]:
    started = await asyncio.gather(
        *(Notebook(jp_fetch, jp_serverapp, path).serve(WHOAMI, RESET) for path in ("sales.ipynb", "ops.ipynb"))
    )
    try:
        yield {notebook.path: notebook for notebook in started}
    finally:
        for notebook in started:
            notebook.close()


async def test_a_read_only_grant_for_sales_sees_sales_only_and_calls_read_only_tools_only(
    two: dict[str, Notebook], server_url: str, jupyter_token: str, jp_fetch: Any, mode: str
) -> None:
    consent = Consent(jupyter_token, {"access": "read", "notebooks": "some", "notebook_paths": "sales.ipynb"})
    provider = sdk_provider(f"{server_url}mcp", consent, name="Reporting bot")
    async with oauth_client(f"{server_url}mcp", provider, mode=mode) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == {"sales_whoami", "sales_reset"}
        assert (await client.call_tool("sales_whoami", {})).structured_content == {"result": "sales.ipynb"}
        refused = await client.call_tool("sales_reset", {"value": 1})
        assert refused.is_error
        assert "signed in with Jupyter for read-only tools" in refused.content[0].text  # type: ignore[union-attr]
        hidden = await client.call_tool("ops_whoami", {})
        assert hidden.is_error
    # the kernel knows the client by its grant: history (both calls), and its refusal recorded as the user's limit
    sales = two["sales.ipynb"]
    assert await sales.value("[(r.tool, r.client_name) for r in server.history]") == [
        ("whoami", "Reporting bot"),
        ("reset", "Reporting bot"),
    ]
    assert await two["ops.ipynb"].value("len(server.history)") == 0
    [app] = json.loads((await jp_fetch("api", "mcp", "apps")).body)
    assert (app["client_name"], app["read_only"], app["notebooks"], app["verified"]) == (
        "Reporting bot", True, ["sales.ipynb"], False,
    )  # fmt: skip
    assert app["last_used"] is not None
    assert app["resource"] == f"{server_url}mcp"


async def test_a_read_only_grant_on_a_notebook_route_is_held_there_too(
    two: dict[str, Notebook], server_url: str, jupyter_token: str, jp_fetch: Any, mode: str
) -> None:
    route = f"{server_url}mcp/notebooks/{quote('sales.ipynb')}"
    consent = Consent(jupyter_token, {"access": "read"})
    async with oauth_client(route, sdk_provider(route, consent, name="Proxy bot"), mode=mode) as client:
        assert (await client.call_tool("whoami", {})).structured_content == {"result": "sales.ipynb"}
        refused = await client.call_tool("reset", {})
        assert refused.is_error
        servers = json.loads((await jp_fetch("api", "mcp", "servers")).body)
        [sales] = [entry for entry in servers if entry["notebook_path"] == "sales.ipynb"]
        assert "Proxy bot" in {entry["name"] for entry in sales["clients"]}
    assert 'name="notebooks"' not in consent.pages[0]  # one notebook's route: no notebooks to choose
    assert await two["sales.ipynb"].value("[r.client_name for r in server.history]") == ["Proxy bot", "Proxy bot"]


async def test_a_full_grant_calls_every_tool_and_a_clients_own_header_is_dropped(
    two: dict[str, Notebook], server_url: str, jupyter_token: str, jp_fetch: Any
) -> None:
    consent = Consent(jupyter_token, {"access": "full"})
    async with oauth_client(f"{server_url}mcp", sdk_provider(f"{server_url}mcp", consent), mode="legacy") as client:
        assert not (await client.call_tool("ops_reset", {"value": 2})).is_error
    # a client with Jupyter's token cannot claim to be a signed-in app (the header is the server's alone)
    vouch = {"Authorization": f"token {jupyter_token}", signedin.HEADER: '{"client":"Impostor","read_only":false}'}
    async with header_client(f"{server_url}mcp", vouch, mode="legacy") as client:
        await client.call_tool("ops_whoami", {})
    assert "Impostor" not in await two["ops.ipynb"].value("[r.client_name for r in server.history]")
