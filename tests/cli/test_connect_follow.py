"""``jupyter-mcp connect`` follows a notebook: across kernel restarts, to its newest kernel, and waits
for a notebook that is not running yet."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt

from tests.cli.bridging import SLOW_TOOL, bridged, names, text_of, wait_for
from tests.cli.conftest import (
    ADD_TOOL,
    start_notebook_kernel,
    stdio_client,
)
from tests.conftest import http_client
from tests.harness import Kernel, free_port


async def test_connect_follows_the_notebook_across_a_kernel_restart(
    runtime_dir: Path, notebook_path: str, mode: str
) -> None:
    kernel = start_notebook_kernel(runtime_dir, notebook_path, [ADD_TOOL, SLOW_TOOL])
    try:
        async with bridged(runtime_dir, mode, ["analysis.ipynb"]) as (client, changes):
            assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
            old_url = kernel.value("server.url")
            seen = changes.count
            interrupted: list[mt.CallToolResult] = []

            async def slow_call() -> None:
                interrupted.append(await client.call_tool("slow", {"seconds": 60}))

            async with anyio.create_task_group() as group:
                group.start_soon(slow_call)
                await wait_for(lambda: kernel.value("globals().get('slow_state')") == "running")
                kernel.restart()
            assert interrupted[0].is_error
            assert text_of(interrupted[0]).startswith(
                "jupyter-mcp: the server stopped while tool 'slow' was running, so its outcome is unknown: "
            )

            during = await client.call_tool("add", {"a": 1, "b": 2})
            assert during.is_error
            assert text_of(during).startswith(
                f"jupyter-mcp: cannot call tool 'add': the kernel serving {notebook_path} (kernel {kernel.kernel_id[:8]})"
                " stopped serving tools at "
            )
            assert "it was restarted or shut down. Run the notebook's %%mcp_tool cells again" in text_of(during)
            assert await names(client) == []
            await changes.wait_beyond(seen)  # the tools went away

            seen = changes.count
            kernel.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")
            kernel.run(ADD_TOOL)
            await changes.wait_beyond(seen)  # ... and came back
            assert kernel.value("server.url") != old_url
            assert await names(client) == ["add"]
            assert (await client.call_tool("add", {"a": 20, "b": 22})).structured_content == {"result": 42}
    finally:
        kernel.shutdown()


def whoami(name: str) -> str:
    return f'%%mcp_tool\ndef whoami() -> str:\n    """Which kernel answers."""\n    return {name!r}'


async def test_connect_follows_the_notebook_to_its_newest_kernel(
    runtime_dir: Path, notebook_path: str, mode: str
) -> None:
    first = start_notebook_kernel(runtime_dir, notebook_path, [whoami("first")])
    second: Kernel | None = None
    try:
        async with bridged(runtime_dir, mode, ["analysis.ipynb"]) as (client, changes):
            assert (await client.call_tool("whoami", {})).structured_content == {"result": "first"}
            seen = changes.count
            second = start_notebook_kernel(runtime_dir, notebook_path, [whoami("second")])
            await changes.wait_beyond(seen)
            assert (await client.call_tool("whoami", {})).structured_content == {"result": "second"}
            await anyio.sleep(0.3)  # a 2025-era session's GET stream opens just after the switch
            seen = changes.count
            second.run(whoami("second, again"))  # the second kernel's own list_changed reaches the client
            await changes.wait_beyond(seen)
            assert (await client.call_tool("whoami", {})).structured_content == {"result": "second, again"}
            seen = changes.count
            second.shutdown()
            second = None
            await changes.wait_beyond(seen)
            await wait_for_async(lambda: client.call_tool("whoami", {}), {"result": "first"})
    finally:
        first.shutdown()
        if second is not None:
            second.shutdown()


async def wait_for_async(call: Callable[[], Any], structured: dict[str, Any]) -> None:
    """Call until the answer is ``structured`` (the bridge may still be switching servers)."""
    with anyio.fail_after(30):
        while (await call()).structured_content != structured:
            await anyio.sleep(0.1)


async def test_connect_waits_for_a_notebook_that_is_not_running(
    runtime_dir: Path, notebook_path: str, mode: str
) -> None:
    async with bridged(runtime_dir, mode, [notebook_path]) as (client, changes):
        assert client.server_info is not None
        assert client.server_info.name == "jupyter-mcp"
        assert await names(client) == []
        early = await client.call_tool("add", {"a": 1, "b": 2})
        assert early.is_error
        assert text_of(early) == (
            f"jupyter-mcp: cannot call tool 'add': no running kernel serves tools for notebook {notebook_path} "
            f"(no matching discovery file in {runtime_dir}). Open the notebook and run its %%mcp_tool cells; "
            "this bridge connects by itself."
        )
        seen = changes.count
        kernel = start_notebook_kernel(runtime_dir, notebook_path, [ADD_TOOL])
        try:
            await changes.wait_beyond(seen)
            assert (await client.call_tool("add", {"a": 2, "b": 2})).structured_content == {"result": 4}
            url, token = kernel.value("(server.url, server.token)")
            async with http_client(url, token, mode=mode) as direct:
                # What the bridge said before the kernel existed is what the kernel says itself.
                assert client.server_capabilities == direct.server_capabilities
                assert client.protocol_version == direct.protocol_version
        finally:
            kernel.shutdown()


# ---- explicit endpoints -------------------------------------------------------------------------------------


async def test_connect_says_connected_only_once_the_url_answers(
    runtime_dir: Path, notebook_path: str, mode: str, tmp_path: Path
) -> None:
    port, token = free_port(), "first-contact-token"
    url = f"http://127.0.0.1:{port}/mcp"
    stderr = tmp_path / "connect-stderr.txt"
    env = {"JUPYTER_MCP_TOKEN": token}
    with stderr.open("w") as errlog:
        async with bridged(runtime_dir, mode, ["--url", url], env=env, errlog=errlog) as (client, changes):
            early = await client.call_tool("add", {"a": 1, "b": 2})
            assert early.is_error
            assert text_of(early) == (
                f"jupyter-mcp: cannot call tool 'add': the MCP server at {url} is not answering "
                "(connection refused); its kernel may be restarting or gone"
            )
            said = stderr.read_text()
            assert "connected to" not in said
            assert said.count("[jupyter-mcp] not connected:") == 1, said  # said once, not at every retry
            assert (
                f"[jupyter-mcp] not connected: the MCP server at {url} is not answering (connection refused); its "
                "kernel may be restarting or gone. Check the address and token, or start the server; this bridge "
                "tries again every 0.5 s and connects by itself.\n"
            ) in said
            seen = changes.count
            kernel = start_notebook_kernel(
                runtime_dir, notebook_path, [ADD_TOOL], env={"JUPYTER_MCP_PORT": str(port), **env}
            )
            try:
                await changes.wait_beyond(seen)
                assert (await client.call_tool("add", {"a": 2, "b": 2})).structured_content == {"result": 4}
                assert f"[jupyter-mcp] connected to the MCP server at {url}\n" in stderr.read_text()
            finally:
                kernel.shutdown()


async def test_connect_says_what_answers_at_a_wrong_path(
    notebook_kernel: Kernel, runtime_dir: Path, mode: str, tmp_path: Path
) -> None:
    url, token = notebook_kernel.value("(server.url, server.token)")
    wrong = url.removesuffix("/mcp") + "/nothing-here"
    stderr = tmp_path / "connect-stderr.txt"
    with stderr.open("w") as errlog:
        async with stdio_client(
            ["connect", "--url", wrong], runtime_dir, mode, {"JUPYTER_MCP_TOKEN": token}, errlog
        ) as c:
            refused = await c.call_tool("add", {"a": 1, "b": 2})
    assert text_of(refused) == (
        f"jupyter-mcp: cannot call tool 'add': the MCP server at {wrong} answered HTTP 404 (Not Found): nothing serves "
        "MCP at that path now; check the URL"
    )
    said = stderr.read_text()
    assert "connected to" not in said
    assert f"[jupyter-mcp] not connected: the MCP server at {wrong} answered HTTP 404 (Not Found): nothing" in said
