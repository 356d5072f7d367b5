"""tools/call latency: our ToolServer vs a plain mcp-SDK server, same run, both eras; tools/list with 1,000 tools.

Each server runs in its own process; one real mcp.Client times sequential calls over HTTP.
Usage: .venv/bin/python bench/bench_tools.py [--calls N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).parent))
import httpx
from _common import META, client, cpu_seconds, interleaved_latencies, machine, ms, raw_session

HERE = Path(__file__).parent


@contextmanager
def server_process(script: str, *args: str) -> Iterator[tuple[int, int]]:
    """Start a bench server script; yields (port, pid)."""
    process = subprocess.Popen([sys.executable, str(HERE / script), *args], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"{script} did not start: {line!r}")
        yield int(line.split()[1]), process.pid
    finally:
        process.terminate()
        process.wait(10)


async def list_time(url: str, token: str | None, mode: str, repeats: int = 20) -> list[float]:
    timings = []
    async with client(url, token, mode) as session:
        for _ in range(repeats):
            started = time.perf_counter()
            listed = await session.list_tools(cache_mode="refresh")
            timings.append(time.perf_counter() - started)
            assert len(listed.tools) == 1001
    return timings


async def raw_list_time(url: str, token: str | None, mode: str, repeats: int = 20) -> list[float]:
    """Pre-encoded tools/list POSTs on one kept-alive connection: the server's side of the wall time
    (an mcp.Client spends most of its own list time validating 1,001 tool models)."""
    era = "2026" if mode == "auto" else "2025"
    params = {"_meta": META} if era == "2026" else {}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}).encode()
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    timings = []
    async with httpx.AsyncClient(timeout=30) as http:
        headers = await raw_session(http, url, auth, era, "tools/list")
        for index in range(repeats + 3):
            started = time.perf_counter()
            reply = await http.post(url, content=body, headers=headers)
            elapsed = time.perf_counter() - started
            assert reply.status_code == 200, reply.text[:200]
            assert reply.content.count(b'"inputSchema"') == 1001
            if index >= 3:
                timings.append(elapsed)
    return timings


def compare_calls(calls: int) -> list[tuple[str, ...]]:
    rows = []
    with server_process("_plain_server.py") as (plain_port, plain_pid), server_process("_our_server.py") as (port, pid):
        targets = [(f"http://127.0.0.1:{plain_port}/mcp", None), (f"http://127.0.0.1:{port}/mcp", "bench-token")]
        for mode in ("legacy", "auto"):
            before = cpu_seconds(plain_pid), cpu_seconds(pid)
            plain, ours = anyio.run(interleaved_latencies, targets, mode, "add", {"a": 1, "b": 2}, calls)
            plain_cpu = (cpu_seconds(plain_pid) - before[0]) / (calls + 20) * 1000
            our_cpu = (cpu_seconds(pid) - before[1]) / (calls + 20) * 1000
            wall = statistics.median(ours) / statistics.median(plain) - 1
            cpu = our_cpu / plain_cpu - 1
            rows.append(
                (mode, ms(plain), f"{plain_cpu:.2f}", ms(ours), f"{our_cpu:.2f}", f"{wall:+.1%}", f"{cpu:+.1%}")
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=500)
    options = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"tools/call 'add', {options.calls} calls alternating between the two servers")
    print("wall: median / p95 ms per call; cpu: server CPU ms per call (robust to a busy machine)")
    print(f"{'era':8} {'plain wall':>17} {'cpu':>6} {'ours wall':>17} {'cpu':>6} {'wall +':>8} {'cpu +':>8}")
    for row in compare_calls(options.calls):
        print(f"{row[0]:8} {row[1]:>17} {row[2]:>6} {row[3]:>17} {row[4]:>6} {row[5]:>8} {row[6]:>8}")
    print("tools/list with 1,001 tools: wall median / p95 ms, server CPU ms per list")
    print(
        "  (client: a real mcp.Client, which validates every tool; raw: pre-encoded POSTs on a kept-alive connection)"
    )
    for script, token in (("_plain_server.py", None), ("_our_server.py", "bench-token")):
        with server_process(script, "--tools", "1000") as (port, pid):
            for mode in ("legacy", "auto"):
                for how, measure in (("client", list_time), ("raw", raw_list_time)):
                    before = cpu_seconds(pid)
                    timings = anyio.run(measure, f"http://127.0.0.1:{port}/mcp", token, mode)
                    cpu = (cpu_seconds(pid) - before) / len(timings) * 1000
                    name = script.strip("_").removesuffix(".py")
                    print(f"  {name:13} {mode:7} {how:6} {ms(timings)}  cpu {cpu:6.1f}")


if __name__ == "__main__":
    main()
