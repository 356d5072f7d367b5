"""ToolServer over stdio, with a real mcp.Client launching it as a subprocess, both eras."""

import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "stdio_server.py"


async def test_stdio_both_eras(mode: str) -> None:
    progress: list[float] = []
    seen: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    async def on_message(message: Any) -> None:
        seen.append(getattr(message, "method", ""))

    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], cwd=str(SERVER.parents[2]))
    async with Client(params, mode=mode, message_handler=on_message) as client:
        assert {t.name for t in (await client.list_tools()).tools} == {"add", "steps", "hide_add"}
        assert (await client.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}
        assert (await client.call_tool("steps", {"n": 2}, progress_callback=on_progress)).structured_content == {
            "result": 2
        }
        if mode == "legacy":
            await client.call_tool("hide_add", {})
            with anyio.fail_after(5):
                while "notifications/tools/list_changed" not in seen:
                    await anyio.sleep(0.02)
        else:
            async with client.listen(tools_list_changed=True) as subscription:
                await client.call_tool("hide_add", {})
                with anyio.fail_after(5):
                    await subscription.__anext__()
        assert {t.name for t in (await client.list_tools(cache_mode="refresh")).tools} == {"steps", "hide_add"}
    assert progress == [1, 2]
