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


ASKING_TOOLS = '''
from jupyter_mcp import Context

@jupyter_mcp.tool
async def export_table(ctx: Context) -> str:
    """Export a table the notebook user picks."""
    schema = {"type": "object", "required": ["table"], "properties": {
        "table": {"type": "string", "enum": ["sales", "stock"]}, "rows": {"type": "integer"}}}
    answer = await ctx.ask_notebook_user("Which table?", schema)
    if answer.action != "accept":
        return f"nothing exported ({answer.action})"
    return f"exported {answer.content['table']} ({answer.content.get('rows', 'all')} rows)"

@jupyter_mcp.tool
def write_note(text: str) -> str:
    """Write a note (not marked read-only)."""
    return "written"

@jupyter_mcp.tool(annotations={"readOnlyHint": True})
def read_notes() -> str:
    """Read the notes."""
    return "no notes"
'''
DESK_AGENT = mt.Implementation(name="desk-agent", version="1")


async def question_waiting(jp_fetch: Any) -> dict[str, Any]:
    with anyio.fail_after(20):
        while True:
            (entry,) = await servers(jp_fetch)
            if entry["questions"]:
                return dict(entry["questions"][0])
            await asyncio.sleep(0.05)


async def refusal(jp_fetch: Any, *parts: str, body: Any) -> tuple[int, str]:
    """Status and message of a POST the server extension refuses."""
    response = await jp_fetch("api", "mcp", "kernels", *parts, method="POST", body=json.dumps(body), raise_error=False)
    return response.code, json.loads(response.body)["message"]


async def test_lab_answers_and_declines_a_tools_question(
    jp_fetch: Any, notebook: Notebook, server_url: str, jupyter_token: str, mode: str
) -> None:
    await notebook.run(ASKING_TOOLS)
    url = kernel_url(server_url, notebook)
    async with jupyter_client(url, jupyter_token, mode=mode, client_info=DESK_AGENT) as client:
        call = asyncio.ensure_future(client.call_tool("export_table", {}))
        question = await question_waiting(jp_fetch)
        assert (question["tool"], question["message"], question["client"]) == (
            "export_table",
            "Which table?",
            "desk-agent",
        )
        assert question["schema"]["properties"]["table"] == {"type": "string", "enum": ["sales", "stock"]}
        path = (notebook.kernel_id, "questions", question["id"])
        assert [
            await refusal(jp_fetch, *path, body=body)
            for body in ({"action": "maybe"}, {"action": "accept", "content": {"table": "people"}}, ["decline"])
        ] == [
            (400, 'action must be "accept" or "decline"'),
            (400, "the answer does not fit the question's form: table: 'people' is not one of ['sales', 'stock']"),
            (400, "the body must be a JSON object"),
        ]
        assert await refusal(jp_fetch, notebook.kernel_id, "questions", "nope", body={"action": "decline"}) == (
            404,
            "no question with this id is waiting for an answer (it was answered, or it timed out)",
        )
        assert not call.done()
        answer = {"action": "accept", "content": {"table": "stock", "rows": 5}}
        assert await post(jp_fetch, *path, body=answer) == {"ok": True}
        assert text_of(await call) == "exported stock (5 rows)"
        assert (await servers(jp_fetch))[0]["questions"] == []

        call = asyncio.ensure_future(client.call_tool("export_table", {}))
        question = await question_waiting(jp_fetch)
        await post(jp_fetch, notebook.kernel_id, "questions", question["id"], body={"action": "decline"})
        assert text_of(await call) == "nothing exported (decline)"


async def test_lab_limits_a_client_to_read_only_tools(
    jp_fetch: Any, notebook: Notebook, server_url: str, jupyter_token: str
) -> None:
    await notebook.run(ASKING_TOOLS)
    url = kernel_url(server_url, notebook)
    async with jupyter_client(url, jupyter_token, mode="legacy", client_info=DESK_AGENT) as client:
        limit = {"client": "desk-agent", "read_only": True}
        assert await post(jp_fetch, notebook.kernel_id, "limits", body=limit) == {"read_only_clients": ["desk-agent"]}
        assert (await servers(jp_fetch))[0]["read_only_clients"] == ["desk-agent"]
        refused = await client.call_tool("write_note", {"text": "hi"})
        assert refused.is_error
        assert text_of(refused) == (
            "The notebook user limited client 'desk-agent' to read-only tools, and 'write_note' is not marked read-only"
        )
        assert text_of(await client.call_tool("read_notes", {})) == "no notes"
        for body in ({"client": "desk-agent"}, {"client": 7, "read_only": True}, {"client": "", "read_only": False}):
            assert await refusal(jp_fetch, notebook.kernel_id, "limits", body=body) == (
                400,
                'send {"client": "<client name>", "read_only": true or false}',
            )
        lift = {"client": "desk-agent", "read_only": False}
        assert await post(jp_fetch, notebook.kernel_id, "limits", body=lift) == {"read_only_clients": []}
        assert text_of(await client.call_tool("write_note", {"text": "hi"})) == "written"
    assert await refusal(jp_fetch, "no-such-kernel", "limits", body=lift) == (
        404,
        "no running kernel with id 'no-such-kernel'",
    )


async def test_the_notebook_users_routes_need_jupyter_credentials_and_the_admin_token(
    jp_fetch: Any, notebook: Notebook, server_url: str, jupyter_token: str
) -> None:
    await notebook.run(ASKING_TOOLS)
    for route, body in [
        (("limits",), {"client": "desk-agent", "read_only": True}),
        (("questions", "any"), {"action": "decline"}),
    ]:
        parts = ("api", "mcp", "kernels", notebook.kernel_id, *route)
        no_credentials = {"Authorization": ""}
        response = await jp_fetch(
            *parts, method="POST", body=json.dumps(body), headers=no_credentials, raise_error=False
        )
        assert response.code == 403, route
    url, token = await notebook.value("(server.url, server.token)")
    async with (
        jupyter_client(
            kernel_url(server_url, notebook), jupyter_token, mode="legacy", client_info=DESK_AGENT
        ) as client,
        httpx.AsyncClient() as http,
    ):
        call = asyncio.ensure_future(client.call_tool("export_table", {}))
        question = await question_waiting(jp_fetch)
        base, bearer = url.removesuffix("/mcp"), {"Authorization": f"Bearer {token}"}
        own_answer = await http.post(
            f"{base}/questions/{question['id']}",
            json={"action": "accept", "content": {"table": "sales"}},
            headers=bearer,
        )
        own_limit = await http.post(f"{base}/limits", json={"client": "desk-agent", "read_only": False}, headers=bearer)
        assert (own_answer.status_code, own_limit.status_code) == (403, 403)
        assert "not an MCP client" in own_answer.json()["error"]
        assert not call.done()
        await post(jp_fetch, notebook.kernel_id, "questions", question["id"], body={"action": "decline"})
        assert text_of(await call) == "nothing exported (decline)"
    assert await notebook.value("server.approvals.read_only_clients") == set()
