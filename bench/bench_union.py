"""``<jupyter url>/mcp`` (every notebook's tools as one server) against a notebook's own route.

A real Jupyter server (a subprocess, with the extension, a token and a non-trivial base_url) runs
notebook sessions whose kernels serve tools.

1. Per call: one notebook serves ``add``; a real ``mcp.Client`` calls it through the notebook's own
   route (``/mcp/notebooks/<path>``, tool ``add``) and through ``/mcp`` (tool ``bench_add``),
   alternating call by call so both see the same machine load, in each protocol era. The "raw"
   rows do the same with pre-encoded POSTs on one kept-alive connection per path (no MCP client),
   which isolates what the union adds; "server CPU/call" is the Jupyter server process's CPU time.
2. ``tools/list`` over 10 notebooks of 50 tools each through ``/mcp``: the first list (each kernel
   asked once) and then repeated lists (answered from the union's merged list until a notebook
   changes), raw (the server's answer time) and with a real client (which adds its own parsing of
   500 tools), in each era.

Figures, not pass/fail. ``.venv/bin/python bench/bench_union.py [--calls 300] [--lists 50] [--json]``
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import httpx
from _common import META, client, interleaved_latencies, machine, raw_session
from bench_proxy import JupyterServer, cpu_seconds, summary

ADD = '''%%mcp_tool
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b
'''
FIFTY = """
import jupyter_mcp
_server = jupyter_mcp.get_server()

def _tool(i):
    def tool(x: int = 0, label: str = "") -> int:
        return x + i
    tool.__doc__ = f"Tool number {i} of this notebook: adds {i} to x."
    return tool

for _i in range(50):
    _server.add_tool(_tool(_i), name=f"tool_{_i:02d}")
"""


# ---- 1. one call ------------------------------------------------------------------------------------


def per_call(server: JupyterServer, calls: int) -> dict[str, dict[str, dict[str, float]]]:
    server.start_notebook("bench/bench.ipynb", (ADD,))
    targets = {
        "notebook route": (f"{server.url}mcp/notebooks/{quote('bench/bench.ipynb')}", "add"),
        "union /mcp": (f"{server.url}mcp", "bench_add"),
    }
    results: dict[str, dict[str, dict[str, float]]] = {}
    for era, mode in (("2025", "legacy"), ("2026", "auto")):
        timings = anyio.run(_interleaved, list(targets.values()), server.token, mode, calls)
        results[era] = {name: summary(values) for name, values in zip(targets, timings, strict=True)}
        for name, target in targets.items():
            before = cpu_seconds(server.process.pid)
            anyio.run(_interleaved, [target], server.token, mode, calls, 0)
            results[era][name]["server_cpu_ms"] = (cpu_seconds(server.process.pid) - before) / calls * 1000
        raw = anyio.run(_raw_calls, list(targets.values()), server.token, era, calls)
        for name, values in zip(targets, raw, strict=True):
            results[era][f"raw {name}"] = summary(values) | {"server_cpu_ms": float("nan")}
    return results


async def _interleaved(
    targets: list[tuple[str, str]], token: str, mode: str, calls: int, warmup: int = 30
) -> list[list[float]]:
    urls: list[tuple[str, str | None]] = [(url, token) for url, _ in targets]
    tools = [tool for _, tool in targets]
    return await interleaved_latencies(urls, mode, tools, {"a": 1, "b": 2}, calls, warmup)


async def _raw_calls(targets: list[tuple[str, str]], token: str, era: str, calls: int) -> list[list[float]]:
    """Pre-encoded tools/call POSTs on one kept-alive connection per path, alternating call by call."""
    auth = {"Authorization": f"token {token}"}
    bodies = []
    for _, tool in targets:
        params: dict[str, Any] = {"name": tool, "arguments": {"a": 1, "b": 2}}
        if era == "2026":
            params["_meta"] = META
        bodies.append(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode())
    timings: list[list[float]] = [[] for _ in targets]
    async with httpx.AsyncClient(timeout=30) as http:
        sessions = [await raw_session(http, url, auth, era, "tools/call", tool) for url, tool in targets]
        for index in range(50 + calls):
            for position, (url, _) in enumerate(targets):
                started = time.perf_counter()
                reply = await http.post(url, content=bodies[position], headers=sessions[position])
                elapsed = time.perf_counter() - started
                assert reply.status_code == 200, reply.text
                assert b'"isError":false' in reply.content, reply.text
                if index >= 50:
                    timings[position].append(elapsed)
    return timings


# ---- 2. tools/list over many notebooks --------------------------------------------------------------


def many_lists(server: JupyterServer, lists: int) -> dict[str, dict[str, float]]:
    for index in range(10):
        server.start_notebook(f"many/notebook_{index:02d}.ipynb", (FIFTY,))
    time.sleep(2)  # the union looks for new notebooks twice a second (without asking them anything)
    results: dict[str, dict[str, float]] = {}
    # Raw first: the union's first 2026-era list asks all ten kernels (cold); the 2025-era one then only
    # shapes and merges what they said. A client of other capabilities gets its own lists (MCP Apps).
    for era in ("2026", "2025"):
        raw_first, raw_again = anyio.run(_raw_lists, f"{server.url}mcp", server.token, era, lists)
        results[f"{era} raw"] = {"first_ms": raw_first * 1000} | summary(raw_again)
    for era, mode in (("2026", "auto"), ("2025", "legacy")):
        first, again = anyio.run(_lists, f"{server.url}mcp", server.token, mode, lists)
        results[f"{era} client"] = {"first_ms": first * 1000} | summary(again)
    return results


async def _lists(url: str, token: str, mode: str, lists: int) -> tuple[float, list[float]]:
    timings = []
    async with client(url, token, mode) as session:
        for _ in range(lists + 1):
            started = time.perf_counter()
            tools = (await session.list_tools(cache_mode="refresh")).tools
            timings.append(time.perf_counter() - started)
            assert len(tools) >= 500, len(tools)
    return timings[0], timings[1:]


async def _raw_lists(url: str, token: str, era: str, lists: int) -> tuple[float, list[float]]:
    """Pre-encoded ``tools/list`` POSTs: the server's answer time without a client parsing 500 tools."""
    params: dict[str, Any] = {"_meta": META} if era == "2026" else {}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}).encode()
    timings = []
    async with httpx.AsyncClient(timeout=60) as http:
        headers = await raw_session(http, url, {"Authorization": f"token {token}"}, era, "tools/list")
        for _ in range(lists + 1):
            started = time.perf_counter()
            reply = await http.post(url, content=body, headers=headers)
            timings.append(time.perf_counter() - started)
            assert reply.status_code == 200, reply.text[:300]
            assert reply.content.count(b'"name":') >= 500, reply.text[:300]
    return timings[0], timings[1:]


# ---- report ------------------------------------------------------------------------------------------


def report(calls: dict[str, dict[str, dict[str, float]]], lists: dict[str, dict[str, float]]) -> str:
    lines = [machine(), "", "1. one tools/call: union /mcp vs the notebook's own route (goal: <= +1 ms median)"]
    lines.append(f"{'era':<6} {'path':<20} {'median':>9} {'p10':>9} {'p90':>9} {'extra':>9} {'server CPU/call':>16}")
    for era, paths in calls.items():
        for name, figures in paths.items():
            base = paths["raw notebook route" if name.startswith("raw") else "notebook route"]["median_ms"]
            extra = f"{figures['median_ms'] - base:+.2f}ms" if "union" in name else ""
            cpu = "" if figures["server_cpu_ms"] != figures["server_cpu_ms"] else f"{figures['server_cpu_ms']:.2f}ms"
            lines.append(
                f"{era:<6} {name:<20} {figures['median_ms']:>7.2f}ms {figures['p10_ms']:>7.2f}ms "
                f"{figures['p90_ms']:>7.2f}ms {extra:>9} {cpu:>16}"
            )
    lines += ["", "2. tools/list through /mcp, 10 notebooks x 50 tools (goal: <= 50 ms)"]
    lines.append(f"{'era / how':<14} {'first':>9} {'median':>9} {'p10':>9} {'p90':>9}")
    for name, figures in lists.items():
        lines.append(
            f"{name:<14} {figures['first_ms']:>7.2f}ms {figures['median_ms']:>7.2f}ms "
            f"{figures['p10_ms']:>7.2f}ms {figures['p90_ms']:>7.2f}ms"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300, help="calls per path and era")
    parser.add_argument("--lists", type=int, default=50, help="repeated tools/list per era")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        server = JupyterServer(Path(workdir), [])
        try:
            calls = per_call(server, args.calls)
            lists = many_lists(server, args.lists)
        finally:
            server.stop()
    print(json.dumps({"calls": calls, "lists": lists}, indent=2) if args.json else report(calls, lists))


if __name__ == "__main__":
    main()
