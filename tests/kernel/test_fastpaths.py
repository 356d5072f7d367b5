"""A kernel's server checks its four adapters (mcp, stdlib, ipykernel, jupyter_client) when it is built and says
what fell back once, in ``%mcp log``; with their private parts hidden it still serves."""

from __future__ import annotations

import re
from pathlib import Path

import anyio
import pytest

from tests.conftest import http_client
from tests.harness import Kernel
from tests.kernel.conftest import endpoint
from tests.privacy import HIDE_ENV, SITE

KERNEL_ADAPTERS = {"mcp", "stdlib", "ipykernel", "jupyter_client"}
TOOL = "%%mcp_tool\ndef ping() -> str:\n    'Ping.'\n    return 'pong'"


def fell_back(kernel: Kernel) -> list[str]:
    """The libraries whose fast paths the kernel's log says are off, one entry per warning."""
    log = kernel.run("%mcp log").stdout
    return re.findall(r"WARNING jupyter_mcp\.\S+: jupyter_mcp: (\S+)'s fast paths are off", log)


async def _ping(url: str, token: str) -> str:
    async with http_client(url, token, mode="legacy") as client:
        result = await client.call_tool("ping", {})
    return str(result.content[0].text)  # type: ignore[union-attr]


@pytest.mark.fast_path
def test_a_kernel_takes_every_fast_path(kernel: Kernel) -> None:
    kernel.run(TOOL)
    assert set(kernel.value("sorted(server.fast_paths_taken.on)")) == KERNEL_ADAPTERS
    assert fell_back(kernel) == []


def test_with_their_private_parts_hidden_a_kernel_warns_once_per_adapter_and_serves(runtime_dir: Path) -> None:
    hiding = {"JUPYTER_RUNTIME_DIR": str(runtime_dir), HIDE_ENV: "1", "PYTHONPATH": SITE}
    kernel = Kernel(env={**hiding, "JUPYTER_MCP_FAST_PATHS": "1"})
    try:
        kernel.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")
        kernel.run(TOOL)
        assert kernel.value("sorted(server.fast_paths_taken.on)") == []
        assert sorted(fell_back(kernel)) == sorted(KERNEL_ADAPTERS)
        assert anyio.run(_ping, *endpoint(kernel)) == "pong"
        kernel.run("%mcp restart")
        assert sorted(fell_back(kernel)) == sorted(KERNEL_ADAPTERS), "said once, not at each start"
    finally:
        kernel.shutdown()
