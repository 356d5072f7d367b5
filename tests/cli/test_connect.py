"""``jupyter-mcp connect`` relays: calls, progress, logs, concurrency, list_changed, cancellation, headers,
server requests, and nothing but JSON-RPC on stdout — a real stdio client, the real bridge, a real kernel."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt

from tests.cli.bridging import SLOW_TOOL, bridged, names, text_of, wait_for
from tests.cli.conftest import (
    JUPYTER_MCP,
    inspector,
    json_lines,
    stdio_client,
)
from tests.conftest import http_client
from tests.harness import Kernel
from tests.tasks_client import CreatedTask, TasksClient, get_task, start
from tests.tasks_client import wait_for as wait_for_task


async def test_connect_relays_calls_progress_and_logs(notebook_kernel: Kernel, runtime_dir: Path, mode: str) -> None:
    progress: list[tuple[float, str | None]] = []
    logs: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    async def on_log(params: mt.LoggingMessageNotificationParams) -> None:
        logs.append(str(params.data))

    info = mt.Implementation(name="pytest-connect", version="7")
    async with stdio_client(
        ["connect", "analysis.ipynb"], runtime_dir, mode, client_info=info, logging_callback=on_log, log_level="info"
    ) as client:
        assert await names(client) == ["add", "crunch"]
        assert (await client.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}
        crunched = await client.call_tool("crunch", {"n": 3}, progress_callback=on_progress)
        bad = await client.call_tool("add", {"a": "x", "b": 1})
    assert crunched.structured_content == {"result": 3}
    assert progress == [(1, "step 1"), (2, "step 2"), (3, "step 3")]
    assert logs == ["step 1 of 3", "step 2 of 3", "step 3 of 3"]
    assert bad.is_error  # the server's own tool error, relayed as is
    assert text_of(bad) == (
        "Invalid arguments for tool 'add':\n- a: Input should be a valid integer, unable to parse string as an integer "
        "(got 'x')"
    )
    record = notebook_kernel.value("(server.history[-2].client_name, server.history[-2].era)")
    assert record == ("pytest-connect", "2025" if mode == "legacy" else "2026")


async def test_concurrent_calls_get_their_own_answers(notebook_kernel: Kernel, runtime_dir: Path, mode: str) -> None:
    results: dict[int, Any] = {}
    async with stdio_client(["connect", "analysis.ipynb"], runtime_dir, mode) as client:

        async def call(i: int) -> None:
            results[i] = (await client.call_tool("add", {"a": i, "b": 1000})).structured_content

        async with anyio.create_task_group() as group:
            for i in range(30):
                group.start_soon(call, i)
    assert results == {i: {"result": i + 1000} for i in range(30)}


async def test_rerunning_a_cell_reaches_the_client(notebook_kernel: Kernel, runtime_dir: Path, mode: str) -> None:
    async with bridged(runtime_dir, mode, ["analysis.ipynb"]) as (client, changes):
        assert await names(client) == ["add", "crunch"]
        await anyio.sleep(0.3)  # a 2025-era client opens its GET stream just after the handshake
        seen = changes.count
        notebook_kernel.run(
            '%%mcp_tool\ndef add(a: int, b: int, c: int = 0) -> int:\n    """Adds."""\n    return a + b + c'
        )
        await changes.wait_beyond(seen)
        tools = {t.name: t for t in (await client.list_tools(cache_mode="refresh")).tools}
        assert set(tools["add"].input_schema["properties"]) == {"a", "b", "c"}


async def test_cancelling_a_call_cancels_it_in_the_kernel(
    notebook_kernel: Kernel, runtime_dir: Path, mode: str
) -> None:
    notebook_kernel.run("import jupyter_mcp")
    notebook_kernel.run(SLOW_TOOL)
    async with stdio_client(["connect", "analysis.ipynb"], runtime_dir, mode) as client:
        async with anyio.create_task_group() as group:
            group.start_soon(client.call_tool, "slow", {"seconds": 60})
            await wait_for(lambda: notebook_kernel.value("globals().get('slow_state')") == "running")
            group.cancel_scope.cancel()
        await wait_for(lambda: notebook_kernel.value("slow_state") == "cancelled")
        assert (await client.call_tool("add", {"a": 1, "b": 1})).structured_content == {"result": 2}
    assert notebook_kernel.value("[r.status for r in server.history if r.tool == 'slow']") == ["cancelled"]


async def test_connect_to_an_explicit_url(notebook_kernel: Kernel, runtime_dir: Path, mode: str) -> None:
    url, token = notebook_kernel.value("(server.url, server.token)")
    async with stdio_client(["connect", "--url", url, "--token", token], runtime_dir, mode) as client:
        assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
    async with stdio_client(["connect", "--url", url, "--token", "wrong"], runtime_dir, mode) as client:
        refused = await client.call_tool("add", {"a": 1, "b": 2})
    assert refused.is_error
    assert text_of(refused) == (
        f"jupyter-mcp: cannot call tool 'add': the MCP server at {url} rejected the bridge's token (HTTP 401)"
    )


# ---- the stdio contract and bad input ------------------------------------------------------------------------


def test_stdout_carries_only_json_rpc(notebook_kernel: Kernel, runtime_dir: Path) -> None:
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1, "b": 2}}},
    ]  # fmt: skip
    lines = [json.dumps(r) for r in requests[:2]] + ["this is not json", json.dumps(requests[2])]
    result = subprocess.run(
        [JUPYTER_MCP, "connect", "-v", notebook_kernel.kernel_id],
        input="\n".join(lines) + "\n",
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime_dir)},
    )
    assert result.returncode == 0, result.stderr
    replies = json_lines(result.stdout)
    assert all(reply["jsonrpc"] == "2.0" for reply in replies)
    by_id = {reply.get("id"): reply for reply in replies}
    assert by_id[1]["result"]["serverInfo"]["name"] == "jupyter-mcp"
    assert by_id[None]["error"] == {"code": -32700, "message": "jupyter-mcp: not a JSON-RPC message"}
    assert by_id[2]["result"]["structuredContent"] == {"result": 3}
    assert "[jupyter-mcp] connected to the tool server of" in result.stderr


def test_the_mcp_inspector_drives_connect(notebook_kernel: Kernel, runtime_dir: Path, tmp_path: Path) -> None:
    server = ["-e", f"JUPYTER_RUNTIME_DIR={runtime_dir}", JUPYTER_MCP, "connect", "analysis.ipynb"]
    listed = inspector(*server, "--method", "tools/list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert [t["name"] for t in json.loads(listed.stdout)["tools"]] == ["add", "crunch"]
    called = inspector(
        *server, "--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=40", "b=2", cwd=tmp_path
    )
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["structuredContent"] == {"result": 42}


REGION_TOOL = '''%%mcp_tool
from typing import Annotated
from pydantic import Field

def sales(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    """Sales of one region (the region is mirrored into an Mcp-Param-Region header in 2026)."""
    return f"sales in {region}"
'''


async def test_mcp_param_headers_are_mirrored(notebook_kernel: Kernel, runtime_dir: Path, mode: str) -> None:
    notebook_kernel.run(REGION_TOOL)
    async with stdio_client(["connect", "analysis.ipynb"], runtime_dir, mode) as client:
        (tool,) = [t for t in (await client.list_tools()).tools if t.name == "sales"]
        assert tool.input_schema["properties"]["region"]["x-mcp-header"] == "Region"
        result = await client.call_tool("sales", {"region": "north"})
    assert result.structured_content == {"result": "sales in north"}, result


ASK_TOOL = '''%%mcp_tool
async def ask_name(ctx: jupyter_mcp.Context) -> str:
    """Asks the user for a name through the client (elicitation)."""
    answer = await ctx.elicit("Who are you?", {"type": "object", "properties": {"name": {"type": "string"}}})
    return f"{answer.action}: {(answer.content or {}).get('name')}"
'''


async def test_server_requests_reach_the_client(notebook_kernel: Kernel, runtime_dir: Path, mode: str) -> None:
    notebook_kernel.run("import jupyter_mcp")
    notebook_kernel.run(ASK_TOOL)
    asked: list[str] = []

    async def elicit(context: Any, params: mt.ElicitRequestParams) -> mt.ElicitResult:
        asked.append(params.message)
        return mt.ElicitResult(action="accept", content={"name": "Ada"})

    async with stdio_client(["connect", "analysis.ipynb"], runtime_dir, mode, elicitation_callback=elicit) as client:
        bridged_result = await client.call_tool("ask_name", {})
    url, token = notebook_kernel.value("(server.url, server.token)")
    async with http_client(url, token, mode=mode, elicitation_callback=elicit) as direct:
        direct_result = await direct.call_tool("ask_name", {})
    # Through the bridge exactly as directly, in both eras (2026: an input_required round and a retry).
    assert bridged_result.model_dump() == direct_result.model_dump()
    assert bridged_result.structured_content == {"result": "accept: Ada"}
    assert asked == ["Who are you?", "Who are you?"]


TASK_TOOL = '''%%mcp_tool --task
async def crunch_long() -> str:
    """Works until the notebook opens the gate: long calls become tasks for clients that support them."""
    import asyncio
    await asyncio.to_thread(gate.wait, 60)
    return "crunched"
'''


async def test_tasks_through_the_bridge_survive_the_client(notebook_kernel: Kernel, runtime_dir: Path) -> None:
    notebook_kernel.run("import threading\ngate = threading.Event()")
    notebook_kernel.run(TASK_TOOL)
    target = ["connect", "analysis.ipynb"]
    async with stdio_client(target, runtime_dir, "auto", extensions=[TasksClient()]) as first:
        created = await start(first, "crunch_long")
        assert isinstance(created, CreatedTask)
    async with stdio_client(target, runtime_dir, "auto", extensions=[TasksClient()]) as second:
        assert (await get_task(second.session, created.task_id)).status == "working"
        notebook_kernel.run("gate.set()")
        done = await wait_for_task(second.session, created.task_id, ("completed",))
    assert done.result is not None
    assert done.result["content"][0]["text"] == "crunched"
