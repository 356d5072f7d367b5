"""The proxy routes with a real kernel, a real Jupyter server and a real MCP client, both eras."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import anyio
import httpx
import mcp_types as mt
import pytest
from mcp.shared.exceptions import MCPError

from tests.serverext.conftest import Notebook, jupyter_client

TOOLS = '''
%%mcp_tool --read-only
def get_var(name: str) -> str:
    """Return repr() of a notebook variable."""
    return repr(globals()[name])
'''

GATED_TOOLS = '''
import asyncio, threading
gate = threading.Event()

@jupyter_mcp.tool
async def crunch(ctx: jupyter_mcp.Context) -> str:
    """Report progress, then wait until the notebook opens the gate."""
    await ctx.report_progress(1, 2, "halfway")
    await asyncio.to_thread(gate.wait, 60)
    return "done"

@jupyter_mcp.tool
def wait_for_gate() -> str:
    """Return once the notebook opens the gate."""
    gate.wait(60)
    return "released"
'''

JSON_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


def kernel_url(server_url: str, notebook: Notebook) -> str:
    return f"{server_url}mcp/kernels/{notebook.kernel_id}"


def notebook_url(server_url: str, notebook: Notebook) -> str:
    return f"{server_url}mcp/notebooks/{quote(notebook.path)}"


async def test_kernel_route_calls_tools_on_live_variables(
    notebook: Notebook, server_url: str, jupyter_token: str, mode: str
) -> None:
    await notebook.run(TOOLS)
    await notebook.run("data = {'rows': 3}")
    info = mt.Implementation(name="through-jupyter", version="1")
    async with jupyter_client(kernel_url(server_url, notebook), jupyter_token, mode=mode, client_info=info) as client:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["get_var"]
        assert tools[0].annotations is not None
        assert tools[0].annotations.read_only_hint is True
        assert (await client.call_tool("get_var", {"name": "data"})).structured_content == {"result": "{'rows': 3}"}
        await notebook.run("data['rows'] = 4")
        assert (await client.call_tool("get_var", {"name": "data"})).structured_content == {"result": "{'rows': 4}"}
    record = await notebook.value("(server.history[-1].client_name, server.history[-1].era)")
    assert record == ("through-jupyter", "2025" if mode == "legacy" else "2026")


async def test_progress_reaches_the_client_before_the_result(
    notebook: Notebook, server_url: str, jupyter_token: str, mode: str
) -> None:
    await notebook.run(GATED_TOOLS)
    progressed = anyio.Event()
    messages: list[str | None] = []
    results: list[mt.CallToolResult] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        messages.append(message)
        progressed.set()

    async with jupyter_client(notebook_url(server_url, notebook), jupyter_token, mode=mode) as client:

        async def call() -> None:
            results.append(await client.call_tool("crunch", {}, progress_callback=on_progress))

        async with anyio.create_task_group() as group:
            group.start_soon(call)
            # The tool holds its result until the gate opens, and only this test opens it: the
            # progress event can arrive here only if the proxy streams it through mid-call.
            with anyio.fail_after(30):
                await progressed.wait()
            assert results == []
            await notebook.run("gate.set()")
    assert messages == ["halfway"]
    assert results[0].structured_content == {"result": "done"}


@pytest.mark.parametrize("mcp_settings", [{"keepalive_interval": 0.2, "notebook_tools": "off"}])
async def test_sessions_headers_and_keepalives_pass_through(
    notebook: Notebook, server_url: str, jupyter_token: str
) -> None:
    await notebook.run(GATED_TOOLS)
    url = kernel_url(server_url, notebook)
    auth = {**JSON_HEADERS, "Authorization": f"token {jupyter_token}"}
    async with httpx.AsyncClient(timeout=30) as http:
        init = await http.post(url, json=INITIALIZE, headers=auth)
        assert init.status_code == 200
        session = init.headers["mcp-session-id"]
        in_session = {**auth, "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-11-25"}
        initialized = await http.post(
            url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=in_session
        )
        assert initialized.status_code == 202
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "wait_for_gate", "arguments": {}}}
        lines: list[str] = []
        async with http.stream("POST", url, json=call, headers=in_session) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            async for line in response.aiter_lines():
                lines.append(line)
                if line == ": keepalive" and lines.count(line) == 1:
                    await notebook.run("gate.set()")  # the tool answers only after a keepalive went through
        result = [line for line in lines if line.startswith("data:")]
        assert lines.index(": keepalive") < lines.index(result[-1])
        assert '"released"' in result[-1]
        closed = await http.delete(url, headers=in_session)
        assert closed.status_code in (200, 204)
        gone = await http.post(url, json={**call, "id": 3}, headers=in_session)
        assert gone.status_code == 404  # the kernel's answer for an ended session, passed through


async def test_listen_stream_is_released_when_the_client_leaves(
    notebook: Notebook, server_url: str, jupyter_token: str
) -> None:
    await notebook.run(TOOLS)
    async with jupyter_client(kernel_url(server_url, notebook), jupyter_token, mode="auto") as client:
        async with client.listen(tools_list_changed=True) as subscription:
            await wait_until(notebook, "server.bus.listener_count", 1)
            await notebook.run(TOOLS.replace("name: str", "name: str, default: str = ''"))
            with anyio.fail_after(10):
                event = await subscription.__anext__()
            assert type(event).__name__ == "ToolsListChanged"
        await wait_until(notebook, "server.bus.listener_count", 0)


def mcp_error(error: BaseException) -> MCPError:
    """The ``MCPError`` a client raised, possibly inside task-group exception groups."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    assert isinstance(error, MCPError), repr(error)
    return error


async def wait_until(notebook: Notebook, expression: str, expected: Any) -> None:
    with anyio.fail_after(15):
        while await notebook.value(expression) != expected:
            await anyio.sleep(0.1)


async def test_notebook_route_follows_kernel_restarts(
    notebook: Notebook, server_url: str, jupyter_token: str, mode: str
) -> None:
    url = notebook_url(server_url, notebook)
    await notebook.run(TOOLS)
    await notebook.run("x = 'before restart'")
    async with jupyter_client(url, jupyter_token, mode=mode) as client:
        assert (await client.call_tool("get_var", {"name": "x"})).structured_content == {"result": "'before restart'"}
    await notebook.restart()
    with pytest.raises(BaseException) as raised:
        async with jupyter_client(url, jupyter_token, mode=mode) as client:
            await client.list_tools()
    assert "no MCP tool server yet: run a %%mcp_tool cell" in str(mcp_error(raised.value))
    await notebook.load()
    await notebook.run(TOOLS)
    await notebook.run("x = 'after restart'")
    async with jupyter_client(url, jupyter_token, mode=mode) as client:
        assert (await client.call_tool("get_var", {"name": "x"})).structured_content == {"result": "'after restart'"}


async def test_notebook_route_follows_a_kernel_change(
    notebook: Notebook, jp_fetch: Any, server_url: str, jupyter_token: str
) -> None:
    url = notebook_url(server_url, notebook)
    await notebook.run(TOOLS)
    await notebook.run("x = 'first kernel'")
    async with jupyter_client(url, jupyter_token, mode="auto") as client:
        assert (await client.call_tool("get_var", {"name": "x"})).structured_content == {"result": "'first kernel'"}
        # The user picks another kernel for the notebook (JupyterLab's "Change Kernel…").
        (session,) = json.loads((await jp_fetch("api", "sessions")).body)
        body = json.dumps({"kernel": {"name": "python3"}})
        changed = json.loads((await jp_fetch("api", "sessions", session["id"], method="PATCH", body=body)).body)
        assert changed["kernel"]["id"] != notebook.kernel_id
        notebook.kernel_id = changed["kernel"]["id"]
        await notebook.reconnect()
        await notebook.load()
        await notebook.run(TOOLS)
        await notebook.run("x = 'second kernel'")
        # The same client, same URL: the next request already goes to the new kernel.
        assert (await client.call_tool("get_var", {"name": "x"})).structured_content == {"result": "'second kernel'"}
