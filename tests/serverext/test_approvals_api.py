"""Approvals through the Jupyter server: a waiting call shows in ``/api/mcp/servers``; the lab's POSTs answer it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import anyio
import httpx
import mcp_types as mt
import pytest
from tornado.httpclient import HTTPClientError

from tests.serverext.conftest import Notebook, jupyter_client
from tests.serverext.test_proxy import kernel_url

CONFIRM_TOOLS = '''
%%mcp_tool --confirm
def reset_sales(region: str) -> str:
    """Delete a region's sales."""
    return f"reset {region}"
'''


async def servers(jp_fetch: Any) -> list[dict[str, Any]]:
    return list(json.loads((await jp_fetch("api", "mcp", "servers")).body))


async def waiting(jp_fetch: Any) -> dict[str, Any]:
    with anyio.fail_after(20):
        while True:
            (entry,) = await servers(jp_fetch)
            if entry["pending"]:
                return dict(entry["pending"][0])
            await asyncio.sleep(0.05)


async def post(jp_fetch: Any, *parts: str, body: dict[str, Any]) -> Any:
    return json.loads((await jp_fetch("api", "mcp", "kernels", *parts, method="POST", body=json.dumps(body))).body)


def text_of(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent)
    return block.text


async def test_lab_allows_and_denies_a_waiting_call(
    jp_fetch: Any, notebook: Notebook, server_url: str, jupyter_token: str, mode: str
) -> None:
    await notebook.run(CONFIRM_TOOLS)
    info = mt.Implementation(name="desk-agent", version="1")
    async with jupyter_client(kernel_url(server_url, notebook), jupyter_token, mode=mode, client_info=info) as client:
        call = asyncio.ensure_future(client.call_tool("reset_sales", {"region": "north"}))
        pending = await waiting(jp_fetch)
        assert (pending["tool"], pending["arguments"], pending["client"]) == (
            "reset_sales",
            {"region": "north"},
            "desk-agent",
        )
        assert not call.done()
        assert await post(jp_fetch, notebook.kernel_id, "approvals", pending["id"], body={"decision": "allow"}) == {
            "ok": True
        }
        assert text_of(await call) == "reset north"

        call = asyncio.ensure_future(client.call_tool("reset_sales", {"region": "south"}))
        pending = await waiting(jp_fetch)
        body = {"decision": "deny", "reason": "not before the audit"}
        await post(jp_fetch, notebook.kernel_id, "approvals", pending["id"], body=body)
        denied = await call
    assert denied.is_error
    assert text_of(denied) == "The notebook user declined the call of 'reset_sales': not before the audit"
    decisions = await notebook.value("[(r.decision.verdict, r.decision.via) for r in server.history]")
    assert decisions == [("allowed", "lab"), ("denied", "lab")]


async def test_a_client_with_the_kernels_token_cannot_answer_its_own_call(
    jp_fetch: Any, notebook: Notebook, server_url: str, jupyter_token: str
) -> None:
    await notebook.run(CONFIRM_TOOLS)
    url, token = await notebook.value("(server.url, server.token)")
    async with jupyter_client(kernel_url(server_url, notebook), jupyter_token, mode="legacy") as client:
        call = asyncio.ensure_future(client.call_tool("reset_sales", {"region": "north"}))
        pending = await waiting(jp_fetch)
        base = url.removesuffix("/mcp")
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient() as http:
            self_approval = await http.post(
                f"{base}/approvals/{pending['id']}", json={"decision": "allow"}, headers=headers
            )
            unpause = await http.post(f"{base}/pause", json={"paused": False}, headers=headers)
        assert (self_approval.status_code, unpause.status_code) == (403, 403)
        assert "not an MCP client" in self_approval.json()["error"]
        assert not call.done()
        await post(jp_fetch, notebook.kernel_id, "approvals", pending["id"], body={"decision": "deny"})
        assert (await call).is_error


async def test_lab_pause_switch_and_bad_requests(
    jp_fetch: Any, notebook: Notebook, server_url: str, jupyter_token: str
) -> None:
    await notebook.run(CONFIRM_TOOLS)
    assert await post(jp_fetch, notebook.kernel_id, "pause", body={"paused": True}) == {"paused": True}
    (entry,) = await servers(jp_fetch)
    assert entry["paused"] is True
    async with jupyter_client(kernel_url(server_url, notebook), jupyter_token, mode="legacy") as client:
        refused = await client.call_tool("reset_sales", {"region": "x"})
        assert text_of(refused) == "All tools are paused by the notebook user; try again later"
        await post(jp_fetch, notebook.kernel_id, "pause", body={"paused": False})
    assert (await servers(jp_fetch))[0]["paused"] is False
    for parts, body, status in [
        (("approvals", "nope"), {"decision": "allow"}, 404),
        (("approvals", "nope"), {"decision": "maybe"}, 404),
        (("pause",), {"paused": "yes"}, 400),
    ]:
        with pytest.raises(HTTPClientError) as refused_post:
            await post(jp_fetch, notebook.kernel_id, *parts, body=body)
        assert refused_post.value.code == status
    with pytest.raises(HTTPClientError) as unknown:
        await post(jp_fetch, "no-such-kernel", "pause", body={"paused": True})
    assert unknown.value.code == 404
