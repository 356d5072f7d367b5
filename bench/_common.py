"""Shared bench helpers: timing calls with a real mcp.Client, percentiles, tables."""

from __future__ import annotations

import os
import platform
import statistics
import time
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


def http_client(token: str | None) -> httpx2.AsyncClient:
    """The HTTP client an MCP SDK client would make, with the bearer token when there is one."""
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300), follow_redirects=True)


def client(url: str, token: str | None, mode: str) -> Client:
    return Client(streamable_http_client(url, http_client=http_client(token)), mode=mode)


async def call_latencies(
    url: str, token: str | None, mode: str, tool: str, arguments: dict[str, Any], count: int, warmup: int = 20
) -> list[float]:
    """Seconds per tools/call, measured sequentially on one connection."""
    (timings,) = await interleaved_latencies([(url, token)], mode, tool, arguments, count, warmup)
    return timings


async def interleaved_latencies(
    targets: list[tuple[str, str | None]],
    mode: str,
    tool: str | list[str],
    arguments: dict[str, Any],
    count: int,
    warmup: int = 20,
) -> list[list[float]]:
    """Like ``call_latencies`` for several servers at once, alternating call by call (``tool``: one name
    for every server, or each server's own).

    Alternating keeps a busy or throttled machine from favouring whichever server ran first.
    """
    from contextlib import AsyncExitStack

    tools = tool if isinstance(tool, list) else [tool] * len(targets)
    timings: list[list[float]] = [[] for _ in targets]
    async with AsyncExitStack() as stack:
        sessions = [await stack.enter_async_context(client(url, token, mode)) for url, token in targets]
        for index in range(warmup + count):
            for position, (session, name) in enumerate(zip(sessions, tools, strict=True)):
                started = time.perf_counter()
                result = await session.call_tool(name, arguments)
                elapsed = time.perf_counter() - started
                if result.is_error:
                    raise RuntimeError(f"{name} failed: {result.content}")
                if index >= warmup:
                    timings[position].append(elapsed)
    return timings


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.2f} / {percentile(values, 0.95) * 1000:7.2f}"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next(line.split(":", 1)[1].strip() for line in handle if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux /proc), robust to a busy machine."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


RAW_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


async def raw_session(
    http: Any, url: str, auth: dict[str, str], era: str, method: str, name: str | None = None
) -> dict[str, str]:
    """Headers for pre-encoded POSTs of ``method``: a 2025 session (initialize first) or 2026 stateless."""
    if era == "2026":
        routing = {"Mcp-Protocol-Version": MODERN, "Mcp-Method": method} | ({"Mcp-Name": name} if name else {})
        return {**RAW_HEADERS, **auth, **routing}
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    reply = await http.post(
        url, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, headers={**RAW_HEADERS, **auth}
    )
    session = {
        **RAW_HEADERS,
        **auth,
        "Mcp-Session-Id": reply.headers["mcp-session-id"],
        "Mcp-Protocol-Version": "2025-11-25",
    }
    await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
    return session
