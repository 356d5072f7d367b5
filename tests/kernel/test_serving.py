"""A real MCP client calling tools in a real kernel over HTTP, in both protocol eras."""

from __future__ import annotations

import time
from typing import Any

import anyio
import httpx
import mcp_types as mt
import pytest

from tests.conftest import http_client
from tests.harness import Kernel, free_port
from tests.kernel.conftest import endpoint

TOOLS = '''
%%mcp_tool --read-only
def get_var(name: str) -> str:
    """Return repr() of a notebook variable."""
    return repr(globals()[name])
'''

PROGRESS_TOOL = '''
%%mcp_tool
async def crunch(n: int, ctx: jupyter_mcp.Context) -> int:
    """Reports progress and logs."""
    for i in range(n):
        await ctx.report_progress(i + 1, n, f"step {i + 1}")
        await ctx.info(f"step {i + 1} of {n}")
    return n
'''


async def test_client_calls_see_live_variables(kernel: Kernel, mode: str) -> None:
    kernel.run(TOOLS)
    kernel.run("data = {'rows': 3}")
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode, client_info=mt.Implementation(name="pytest", version="1")) as client:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["get_var"]
        assert tools[0].annotations is not None
        assert tools[0].annotations.read_only_hint is True
        assert (await client.call_tool("get_var", {"name": "data"})).structured_content == {"result": "{'rows': 3}"}
        kernel.run("data['rows'] = 4")
        assert (await client.call_tool("get_var", {"name": "data"})).structured_content == {"result": "{'rows': 4}"}
    record = kernel.value("(server.history[-1].client_name, server.history[-1].era, server.history[-1].status)")
    assert record == ("pytest", "2025" if mode == "legacy" else "2026", "ok")


async def test_rerun_cell_sends_list_changed_and_new_schema(kernel: Kernel) -> None:
    kernel.run("%%mcp_tool\ndef greet(name: str) -> str:\n    return 'hi ' + name")
    url, token = endpoint(kernel)
    seen: list[str] = []

    async def on_message(message: Any) -> None:
        seen.append(getattr(message, "method", ""))

    async with (
        http_client(url, token, mode="legacy", message_handler=on_message) as legacy,
        http_client(url, token, mode="auto") as modern,
    ):
        await legacy.list_tools()
        await anyio.sleep(0.3)  # the legacy client opens its GET stream after the handshake
        async with modern.listen(tools_list_changed=True) as subscription:
            kernel.run("%%mcp_tool\ndef greet(name: str, excited: bool = False) -> str:\n    return 'hi ' + name")
            with anyio.fail_after(10):
                event = await subscription.__anext__()
            assert type(event).__name__ == "ToolsListChanged"
        with anyio.fail_after(10):
            while "notifications/tools/list_changed" not in seen:
                await anyio.sleep(0.02)
        for client in (legacy, modern):
            (tool,) = (await client.list_tools(cache_mode="refresh")).tools
            assert set(tool.input_schema["properties"]) == {"name", "excited"}


async def test_progress_and_logs_arrive_from_a_kernel_tool(kernel: Kernel, mode: str) -> None:
    kernel.run("import jupyter_mcp")
    kernel.run(PROGRESS_TOOL)
    url, token = endpoint(kernel)
    progress: list[float] = []
    logs: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    async def on_log(params: mt.LoggingMessageNotificationParams) -> None:
        logs.append(str(params.data))

    async with http_client(url, token, mode=mode, logging_callback=on_log, log_level="info") as client:
        result = await client.call_tool("crunch", {"n": 3}, progress_callback=on_progress)
    assert result.structured_content == {"result": 3}
    assert progress == [1, 2, 3]
    assert logs == ["step 1 of 3", "step 2 of 3", "step 3 of 3"]
    recorded = kernel.value("[(p.progress, p.message) for p in server.history[-1].progress]")
    assert recorded == [(1, "step 1"), (2, "step 2"), (3, "step 3")]
    assert kernel.value("[entry.message for entry in server.history[-1].logs]") == logs


def test_token_required_and_rebinding_refused(kernel: Kernel) -> None:
    kernel.run(TOOLS)
    url, token = endpoint(kernel)
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    assert httpx.post(url, json=body, headers=headers).status_code == 401
    assert httpx.post(url, json=body, headers={**headers, "Authorization": "Bearer wrong"}).status_code == 401
    evil = {**headers, "Host": "evil.example.com", "Authorization": f"Bearer {token}"}
    assert httpx.post(url, json=body, headers=evil).status_code == 421
    evil_origin = {**headers, "Origin": "http://evil.example.com", "Authorization": f"Bearer {token}"}
    assert httpx.post(url, json=body, headers=evil_origin).status_code == 403


def test_pinned_port_and_token_from_environment(runtime_dir: Any) -> None:
    port = free_port()
    pinned = Kernel(
        env={"JUPYTER_RUNTIME_DIR": str(runtime_dir), "JUPYTER_MCP_PORT": str(port), "JUPYTER_MCP_TOKEN": "pinned"}
    )
    try:
        pinned.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")
        pinned.run(TOOLS)
        assert pinned.value("(server.url, server.token)") == (f"http://127.0.0.1:{port}/mcp", "pinned")
        out = pinned.execute("server.settings.port = 0\nserver.stop()\nserver.start(host='0.0.0.0')")
        assert out.error is not None
        assert "only loopback is allowed unless JupyterMCP.allow_remote" in out.error["evalue"]
    finally:
        pinned.shutdown()


async def _latencies(url: str, token: str, count: int) -> list[float]:
    timings = []
    async with http_client(url, token, mode="legacy") as client:
        for _ in range(count):
            started = time.perf_counter()
            result = await client.call_tool("get_var", {"name": "x"})
            timings.append(time.perf_counter() - started)
            assert not result.is_error
    return timings


@pytest.mark.parametrize(
    "busy_cell",
    ["import time\ntime.sleep(4)", "import time\nt = time.time()\nwhile time.time() - t < 4:\n    sum(range(1000))"],
    ids=["sleeping-cell", "cpu-bound-cell"],
)
async def test_server_answers_while_a_cell_runs(kernel: Kernel, busy_cell: str) -> None:
    kernel.run(TOOLS)
    kernel.run("x = 1")
    url, token = endpoint(kernel)
    msg_id = kernel.client.execute(busy_cell)
    await anyio.sleep(0.5)
    started = time.monotonic()
    await _latencies(url, token, 20)
    answered_after = time.monotonic() - started
    still_running = kernel.value_nowait_done(msg_id) is False
    # Every call was answered while the cell was still running (latency figures live in bench/).
    assert still_running, f"the cell finished before 20 calls were answered ({answered_after:.1f}s)"
    kernel.collect(msg_id, timeout=30)


async def test_interrupt_does_not_kill_the_server(kernel: Kernel) -> None:
    kernel.run(TOOLS)
    kernel.run("x = 'still here'")
    url, token = endpoint(kernel)
    msg_id = kernel.client.execute("import time\ntime.sleep(30)")
    await anyio.sleep(0.5)
    kernel.interrupt()
    interrupted = kernel.collect(msg_id, timeout=20)
    assert interrupted.error is not None
    assert interrupted.error["ename"] == "KeyboardInterrupt"
    async with http_client(url, token, mode="auto") as client:
        assert (await client.call_tool("get_var", {"name": "x"})).structured_content == {"result": "'still here'"}


def test_kernel_restart_takes_the_server_down(kernel: Kernel) -> None:
    kernel.run(TOOLS)
    url, token = endpoint(kernel)
    kernel.restart()
    with pytest.raises(httpx.ConnectError):
        httpx.post(url, json={}, headers={"Authorization": f"Bearer {token}"})
    kernel.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")
    assert kernel.value("len(server.tools)") == 0  # tools exist again only when their cells re-run


def test_switch_interval_is_lowered_while_serving_and_restored(kernel: Kernel) -> None:
    assert kernel.value("__import__('sys').getswitchinterval()") == 0.005
    kernel.run(TOOLS)
    assert kernel.value("__import__('sys').getswitchinterval()") == kernel.value("server.settings.switch_interval")
    kernel.run("%mcp stop")
    assert kernel.value("__import__('sys').getswitchinterval()") == 0.005
    kernel.run("import sys\nsys.setswitchinterval(0.002)\n%mcp start")
    assert kernel.value("sys.getswitchinterval()") == 0.002  # the user's own choice is left alone


def test_port_and_token_from_traitlets_config(runtime_dir: Any, tmp_path: Any) -> None:
    port = free_port()
    profile = tmp_path / "ipython" / "profile_default"
    profile.mkdir(parents=True)
    (profile / "ipython_kernel_config.py").write_text(
        f"c.JupyterMCP.port = {port}\nc.JupyterMCP.token = 'from-config'\nc.JupyterMCP.history_size = 7\n"
    )
    configured = Kernel(env={"JUPYTER_RUNTIME_DIR": str(runtime_dir), "IPYTHONDIR": str(tmp_path / "ipython")})
    try:
        configured.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")
        configured.run(TOOLS)
        assert configured.value("(server.url, server.token, server.history.maxlen)") == (
            f"http://127.0.0.1:{port}/mcp",
            "from-config",
            7,
        )
    finally:
        configured.shutdown()
