"""Per-call overhead of ``jupyter-mcp connect`` (stdio bridge) against talking HTTP directly.

One real kernel serves one trivial tool. In each protocol era, a real ``mcp.Client`` calls it
over streamable HTTP (direct) and through ``jupyter-mcp connect`` (stdio), in interleaved
rounds so both paths see the same machine load. Figures, not pass/fail.

    .venv/bin/python bench/bench_connect.py [--calls 200] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from jupyter_client.manager import KernelManager
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from jupyter_mcp import discovery

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_MCP = str(Path(sys.executable).parent / "jupyter-mcp")
TOOL = '''%%mcp_tool
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b
'''


def start_kernel(runtime: str) -> tuple[KernelManager, str]:
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(env={**os.environ, "JUPYTER_RUNTIME_DIR": runtime})
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    for code in ("%load_ext jupyter_mcp", TOOL):
        reply = client.execute_interactive(code, timeout=60, output_hook=lambda _msg: None)
        assert reply["content"]["status"] == "ok", reply["content"]
    client.stop_channels()
    kernel_id = Path(manager.connection_file).stem.removeprefix("kernel-")
    return manager, kernel_id


def direct(url: str, token: str, mode: str) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    return Client(streamable_http_client(url, http_client=http), mode=mode)


def bridged(kernel_id: str, runtime: str, mode: str) -> Client:
    params = StdioServerParameters(
        command=JUPYTER_MCP, args=["connect", "-q", kernel_id], env={"JUPYTER_RUNTIME_DIR": runtime}
    )
    return Client(params, mode=mode)


async def timed_calls(client: Client, count: int) -> list[float]:
    timings = []
    for i in range(count):
        started = time.perf_counter()
        result = await client.call_tool("add", {"a": i, "b": 1})
        timings.append((time.perf_counter() - started) * 1000)
        assert result.structured_content == {"result": i + 1}, result
    return timings


async def measure(paths: dict[str, Callable[[], Client]], calls: int, rounds: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {name: [] for name in paths}
    async with AsyncExitStack() as stack:
        clients = {name: await stack.enter_async_context(make()) for name, make in paths.items()}
        for client in clients.values():
            await timed_calls(client, 50)  # warm up connections, caches and the kernel's threads
        for _ in range(rounds):
            for name, client in clients.items():
                samples[name] += await timed_calls(client, calls)
    return samples


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median_ms": statistics.median(ordered),
        "p10_ms": ordered[len(ordered) // 10],
        "p90_ms": ordered[len(ordered) * 9 // 10],
    }


def report(results: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = [f"{'era':<8} {'path':<8} {'median':>8} {'p10':>8} {'p90':>8}   overhead (median)"]
    for era, paths in results.items():
        for name, figures in paths.items():
            extra = ""
            if name == "connect":
                extra = f"   +{figures['median_ms'] - paths['direct']['median_ms']:.2f} ms"
            lines.append(
                f"{era:<8} {name:<8} {figures['median_ms']:>6.2f}ms {figures['p10_ms']:>6.2f}ms "
                f"{figures['p90_ms']:>6.2f}ms{extra}"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200, help="calls per path per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as runtime:
        manager, kernel_id = start_kernel(runtime)
        try:
            info = discovery.find(kernel_id, Path(runtime))
            assert info is not None, "the kernel published no discovery file"
            results = {}
            for era, mode in (("2025", "legacy"), ("2026", "auto")):
                paths: dict[str, Callable[[], Client]] = {
                    "direct": lambda mode=mode: direct(info.url, info.token, mode),
                    "connect": lambda mode=mode: bridged(kernel_id, runtime, mode),
                }
                samples = anyio.run(measure, paths, args.calls, args.rounds)
                results[era] = {name: summary(values) for name, values in samples.items()}
        finally:
            manager.shutdown_kernel(now=True)
    print(json.dumps(results, indent=2) if args.json else report(results))


if __name__ == "__main__":
    main()
