"""tools/call latency from a real kernel, same client, both eras, in one run:

(a) a standalone plain mcp-SDK server process, (b) our kernel server with the kernel idle (the
client alternates between (a) and (b) call by call, so both share the machine's load), (c) while a cell sleeps, (d) while a CPU-bound cell runs; plus the CPU-bound cell's speed under a
sustained call load (a fixed rate) relative to no load. Repeated for several GIL switch intervals
(the knob that decides (d)); ``default`` is whatever jupyter-mcp sets.

Usage: .venv/bin/python bench/bench_kernel.py [--calls N] [--rate R] [--intervals default,0.005,...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import anyio

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from _common import call_latencies, client, interleaved_latencies, machine, ms  # noqa: E402
from bench_tools import server_process  # noqa: E402

from tests.harness import Kernel  # noqa: E402

SETUP = """
%load_ext jupyter_mcp
import jupyter_mcp, sys, time
server = jupyter_mcp.get_server()

def work(seconds):
    started, n = time.perf_counter(), 0
    while time.perf_counter() - started < seconds:
        sum(range(1000))
        n += 1
    return n
"""
TOOL = "%%mcp_tool\ndef add(a: int, b: int) -> int:\n    return a + b"
ASYNC_TOOL = "%%mcp_tool\nasync def add_async(a: int, b: int) -> int:\n    return a + b"
SLEEPING = "time.sleep(600)"
CPU_BOUND = "work(600)"


class Bench:
    def __init__(self, kernel: Kernel, calls: int, rate: float) -> None:
        self.kernel = kernel
        self.url, self.token = kernel.value("(server.url, server.token)")
        self.calls = calls
        self.rate = rate

    def latencies(self, mode: str, tool: str = "add", count: int | None = None) -> list[float]:
        return anyio.run(call_latencies, self.url, self.token, mode, tool, {"a": 1, "b": 2}, count or self.calls, 10)

    def against(self, plain_url: str, mode: str) -> tuple[list[float], list[float]]:
        """(a) and (b): the plain server and the idle kernel, called in turn."""
        targets = [(plain_url, None), (self.url, self.token)]
        plain, idle = anyio.run(interleaved_latencies, targets, mode, "add", {"a": 1, "b": 2}, self.calls)
        return plain, idle

    def during(self, cell: str, mode: str, tool: str = "add", count: int | None = None) -> list[float]:
        msg_id = self.kernel.client.execute(cell)
        time.sleep(0.5)
        try:
            return self.latencies(mode, tool, count)
        finally:
            self.kernel.interrupt()
            self.kernel.collect(msg_id, timeout=60)

    def cell_speed(self, under_load: bool, seconds: float = 2.0) -> float:
        """The CPU-bound cell's loop rate, with or without a steady stream of calls."""
        stop = threading.Event()
        loader = threading.Thread(target=self._steady_load, args=(stop,), daemon=True)
        if under_load:
            loader.start()
            time.sleep(0.5)
        try:
            return float(self.kernel.value(f"work({seconds})")) / seconds
        finally:
            stop.set()
            if under_load:
                loader.join(10)

    def _steady_load(self, stop: threading.Event) -> None:
        async def run() -> None:
            async with client(self.url, self.token, "legacy") as session:
                interval = 1 / self.rate
                next_call = time.perf_counter()
                while not stop.is_set():
                    await session.call_tool("add", {"a": 1, "b": 2})
                    next_call += interval
                    await anyio.sleep(max(0.0, next_call - time.perf_counter()))

        anyio.run(run)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--cpu-calls", type=int, default=100)
    parser.add_argument("--rate", type=float, default=20.0, help="calls per second for the sustained load")
    parser.add_argument("--intervals", default="default,0.005")
    options = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"median / p95 ms per tools/call ({options.calls} calls; {options.cpu_calls} during the CPU-bound cell)")
    runtime = tempfile.mkdtemp(prefix="bench-runtime-")
    kernel = Kernel(env={"JUPYTER_RUNTIME_DIR": runtime})
    try:
        kernel.run(SETUP)
        kernel.run(TOOL)
        kernel.run(ASYNC_TOOL)
        bench = Bench(kernel, options.calls, options.rate)
        default_interval = kernel.value("sys.getswitchinterval()")
        with server_process("_plain_server.py") as (port, _pid):
            for label in options.intervals.split(","):
                interval = default_interval if label == "default" else float(label)
                kernel.run(f"sys.setswitchinterval({interval})")
                report(
                    bench,
                    f"http://127.0.0.1:{port}/mcp",
                    f"switch interval {interval * 1000:g} ms" + (" (jupyter-mcp's)" if label == "default" else ""),
                    options.cpu_calls,
                )
    finally:
        kernel.shutdown()


def report(bench: Bench, plain_url: str, title: str, cpu_calls: int) -> None:
    print(f"\n{title}")
    print(
        f"{'era':7} {'(a) plain SDK':>17} {'(b) kernel idle':>17} {'(c) cell sleeps':>17} {'(d) CPU-bound cell':>19}"
        f" {'(d) async tool':>17}"
    )
    for mode in ("legacy", "auto"):
        plain, idle = bench.against(plain_url, mode)
        sleeping = bench.during(SLEEPING, mode)
        busy = bench.during(CPU_BOUND, mode, count=cpu_calls)
        busy_async = bench.during(CPU_BOUND, mode, tool="add_async", count=cpu_calls)
        print(f"{mode:7} {ms(plain):>17} {ms(idle):>17} {ms(sleeping):>17} {ms(busy):>19} {ms(busy_async):>17}")
        ratio = statistics.median(idle) / statistics.median(plain)
        print(f"        (b)/(a) = {ratio:.2f}x")
    # Rounds alternate without and with the load, so a neighbour's burst on a shared box hits both.
    ratios = [bench.cell_speed(under_load=True) / bench.cell_speed(under_load=False) for _ in range(3)]
    print(
        f"CPU-bound cell speed under {bench.rate:g} calls/s: {statistics.median(ratios):.1%} of its speed without"
        f" calls (median of 3 alternating rounds: {', '.join(f'{r:.1%}' for r in ratios)})"
    )


if __name__ == "__main__":
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    main()
