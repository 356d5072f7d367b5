"""Per-call overhead of ``jupyter-mcp connect`` (the stdio bridge) against talking HTTP directly.

One real kernel serves one trivial tool. In each protocol era the same tool is called, call by
call in turn (so every path sees the same machine load), through:

  direct       mcp.Client over streamable HTTP to the kernel
  connect      mcp.Client over stdio to `jupyter-mcp connect`            <- the figure that matters
  sdk-bridge   mcp.Client over stdio to a minimal bridge built from mcp 2.3 parts (bench/_sdk_bridge.py)
  raw-http     pre-encoded JSON-RPC POSTed with the bridge's own HTTP client (no MCP client at all)
  raw-connect  pre-encoded JSON-RPC lines written to `jupyter-mcp connect` (no MCP client at all)

connect - direct is the overhead a user sees; raw-connect - raw-http is what the bridge process
itself costs (pipes + relay); the rest is the difference between the SDK's two client transports.
Figures, not pass/fail.

    .venv/bin/python bench/bench_connect.py [--calls 300] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from _common import http_client
from jupyter_client.manager import KernelManager
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY

from jupyter_mcp import discovery
from jupyter_mcp._wire.client import HttpClient
from jupyter_mcp._wire.sse import EventParser
from jupyter_mcp.cli.bridge import messages

HERE = Path(__file__).resolve().parent
JUPYTER_MCP = str(Path(sys.executable).parent / "jupyter-mcp")
TOOL = '''%%mcp_tool
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b
'''
Call = Callable[[int], Awaitable[None]]


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
    return manager, Path(manager.connection_file).stem.removeprefix("kernel-")


# ---- the paths ---------------------------------------------------------------------------------------------


async def sdk_client_call(stack: AsyncExitStack, client: Client) -> Call:
    session = await stack.enter_async_context(client)

    async def call(i: int) -> None:
        result = await session.call_tool("add", {"a": i, "b": 1})
        assert result.structured_content == {"result": i + 1}, result

    return call


def stdio(args: list[str], runtime: str, mode: str) -> Client:
    return Client(
        StdioServerParameters(command=args[0], args=args[1:], env={"JUPYTER_RUNTIME_DIR": runtime}), mode=mode
    )


def request(i: int, mode: str) -> dict[str, Any]:
    params: dict[str, Any] = {"name": "add", "arguments": {"a": i, "b": 1}}
    if mode == "auto":
        params["_meta"] = {
            PROTOCOL_VERSION_META_KEY: "2026-07-28",
            CLIENT_INFO_META_KEY: {"name": "bench", "version": "1"},
            CLIENT_CAPABILITIES_META_KEY: {},
        }
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


async def raw_http(stack: AsyncExitStack, url: str, token: str, mode: str) -> Call:
    http = HttpClient(url, {"authorization": f"Bearer {token}", "accept": "application/json, text/event-stream",
                            "content-type": "application/json"})  # fmt: skip
    stack.callback(http.close)
    session: dict[str, str] = {}
    if mode == "legacy":
        response = await http.request("POST", {}, json.dumps(INITIALIZE).encode())
        await response.read()
        session = {"mcp-session-id": response.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
        await (await http.request("POST", session, json.dumps(INITIALIZED).encode())).read()

    async def call(i: int) -> None:
        message = request(i, mode)
        headers = session or messages.modern_headers(message, "2026-07-28", messages.ParamHeaders())  # type: ignore[arg-type]
        response = await http.request("POST", headers, json.dumps(message).encode())
        answer = await _answer(response)
        assert answer["result"]["structuredContent"] == {"result": i + 1}, answer

    return call


async def _answer(response: Any) -> dict[str, Any]:
    if response.content_type == "application/json":
        return json.loads(await response.read())  # type: ignore[no-any-return]
    parser, found = EventParser(), None
    async for chunk in response.chunks():
        for event in parser.feed(chunk):
            if event.data:
                found = json.loads(event.data)
    assert found is not None
    return found  # type: ignore[no-any-return]


async def raw_connect(stack: AsyncExitStack, kernel_id: str, runtime: str, mode: str) -> Call:
    process = await asyncio.create_subprocess_exec(
        JUPYTER_MCP, "connect", "-q", kernel_id, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "JUPYTER_RUNTIME_DIR": runtime}, limit=2**24,
    )  # fmt: skip
    assert process.stdin is not None
    assert process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    async def stop() -> None:
        stdin.close()
        await process.wait()

    stack.push_async_callback(stop)

    async def exchange(message: dict[str, Any]) -> dict[str, Any]:
        stdin.write(json.dumps(message).encode() + b"\n")
        while True:
            answer: dict[str, Any] = json.loads(await stdout.readline())
            if answer.get("id") == message["id"]:
                return answer

    if mode == "legacy":
        await exchange(INITIALIZE)
        stdin.write(json.dumps(INITIALIZED).encode() + b"\n")

    async def call(i: int) -> None:
        answer = await exchange(request(i, mode))
        assert answer["result"]["structuredContent"] == {"result": i + 1}, answer

    return call


# ---- measuring -----------------------------------------------------------------------------------------------


async def measure(
    info: discovery.ServerInfo, kernel_id: str, runtime: str, mode: str, calls: int
) -> dict[str, list[float]]:
    http = http_client(info.token)
    async with AsyncExitStack() as stack:
        paths: dict[str, Call] = {
            "direct": await sdk_client_call(
                stack, Client(streamable_http_client(info.url, http_client=http), mode=mode)
            ),
            "connect": await sdk_client_call(stack, stdio([JUPYTER_MCP, "connect", "-q", kernel_id], runtime, mode)),
            "sdk-bridge": await sdk_client_call(
                stack, stdio([sys.executable, str(HERE / "_sdk_bridge.py"), info.url, info.token], runtime, mode)
            ),
            "raw-http": await raw_http(stack, info.url, info.token, mode),
            "raw-connect": await raw_connect(stack, kernel_id, runtime, mode),
        }
        samples: dict[str, list[float]] = {name: [] for name in paths}
        for i in range(calls + 50):
            for name, call in paths.items():
                started = time.perf_counter()
                await call(i)
                if i >= 50:  # the first calls warm connections, caches and the kernel's threads
                    samples[name].append((time.perf_counter() - started) * 1000)
    return samples


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median_ms": round(statistics.median(ordered), 3),
        "p10_ms": round(ordered[len(ordered) // 10], 3),
        "p90_ms": round(ordered[len(ordered) * 9 // 10], 3),
    }


def report(results: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = [f"{'era':<6} {'path':<12} {'median':>9} {'p10':>9} {'p90':>9}   vs direct"]
    for era, paths in results.items():
        base = paths["direct"]["median_ms"]
        for name, figures in paths.items():
            delta = "" if name == "direct" else f"   {figures['median_ms'] - base:+.2f} ms"
            lines.append(
                f"{era:<6} {name:<12} {figures['median_ms']:>7.2f}ms {figures['p10_ms']:>7.2f}ms "
                f"{figures['p90_ms']:>7.2f}ms{delta}"
            )
        bridge = paths["raw-connect"]["median_ms"] - paths["raw-http"]["median_ms"]
        lines.append(f"{era:<6} bridge process itself (raw-connect - raw-http): {bridge:+.2f} ms")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300, help="measured calls per path and era")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as runtime:
        manager, kernel_id = start_kernel(runtime)
        try:
            info = discovery.find(kernel_id, Path(runtime))
            assert info is not None, "the kernel published no discovery file"
            results = {}
            for era, mode in (("2025", "legacy"), ("2026", "auto")):
                samples = asyncio.run(measure(info, kernel_id, runtime, mode, args.calls))
                results[era] = {name: summary(values) for name, values in samples.items()}
        finally:
            manager.shutdown_kernel(now=True)
    print(json.dumps(results, indent=2) if args.json else report(results))


if __name__ == "__main__":
    main()
