"""The kernel channel against loopback HTTP, through the Jupyter server's notebook route, same run.

A real ``jupyter server`` subprocess (the extension, a token, a non-trivial base_url) runs two
notebook sessions, each kernel serving one trivial tool: ``http`` (the default: the extension
reaches the kernel's loopback port) and ``kernel`` (``JupyterMCP.transport = "kernel"``: no port,
requests over the kernel's own messaging, on a subshell of the extension's). In each protocol era a
real ``mcp.Client`` calls through both notebook routes, alternating call by call; then the same
while a CPU-bound cell runs in each kernel (the subshell answers; ipykernel's main shell is busy).
Also the Jupyter server's CPU time per call on each carrier (from /proc). Figures, not pass/fail.

    .venv/bin/python bench/bench_kernel_channel.py [--calls 300] [--cpu-calls 150] [--json]
        [--server-arg=--MCPExtensionApp.channel_route=control]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import anyio
from _common import call_latencies, interleaved_latencies, machine, percentile
from bench_proxy import BASE_URL, JupyterServer, cpu_seconds
from jupyter_client import BlockingKernelClient

SETUP = """
%load_ext jupyter_mcp
import jupyter_mcp, time
server = jupyter_mcp.get_server()
server.settings.transport = {transport!r}

def work(seconds):
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        sum(range(1000))
"""
TOOL = '''%%mcp_tool
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b
'''
CARRIERS = ("http", "kernel")
ROUNDS = 5
"""Turns each carrier takes while a CPU-bound cell runs."""


class Notebook:
    """A notebook session of the server whose kernel serves ``add`` over one carrier."""

    def __init__(self, server: JupyterServer, carrier: str) -> None:
        self.path = f"bench/{carrier} carrier.ipynb"
        body = {"path": self.path, "name": Path(self.path).name, "type": "notebook", "kernel": {"name": "python3"}}
        reply = server.http.post(server.url + "api/sessions", json=body)
        reply.raise_for_status()
        kernel_id = str(reply.json()["kernel"]["id"])
        self.client = BlockingKernelClient(connection_file=str(server.runtime / f"kernel-{kernel_id}.json"))
        self.client.load_connection_file()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)
        for code in (SETUP.format(transport=carrier), TOOL):
            result = self.client.execute_interactive(code, timeout=60, output_hook=lambda _msg: None)
            assert result["content"]["status"] == "ok", result["content"]
        self.url = f"{server.url}mcp/notebooks/{quote(self.path)}"


def measure(server: JupyterServer, calls: int, cpu_calls: int) -> dict[str, dict[str, dict[str, float]]]:
    notebooks = {carrier: Notebook(server, carrier) for carrier in CARRIERS}
    targets = [(notebook.url, server.token) for notebook in notebooks.values()]
    arguments = {"a": 1, "b": 2}
    results: dict[str, dict[str, dict[str, float]]] = {}
    for era, mode in (("2025", "legacy"), ("2026", "auto")):
        figures: dict[str, dict[str, float]] = {}
        timings = anyio.run(interleaved_latencies, targets, mode, "add", arguments, calls, 50)
        for carrier, values in zip(CARRIERS, timings, strict=True):
            figures[carrier] = summary(values)
        for carrier, notebook in notebooks.items():
            before = cpu_seconds(server.process.pid)
            anyio.run(call_latencies, notebook.url, server.token, mode, "add", arguments, calls, 0)
            figures[carrier]["server_cpu_ms"] = (cpu_seconds(server.process.pid) - before) / calls * 1000
        # The carriers take turns, a CPU-bound cell each time, so a neighbour's burst on a shared box hits both.
        busy: dict[str, list[float]] = {carrier: [] for carrier in CARRIERS}
        for _ in range(ROUNDS):
            for carrier, notebook in notebooks.items():
                busy[carrier] += during_cpu_bound(server, notebook, mode, max(1, cpu_calls // ROUNDS))
        for carrier, values in busy.items():
            figures[f"{carrier}, CPU-bound cell"] = summary(values) | {"server_cpu_ms": float("nan")}
        results[era] = figures
    return results


def during_cpu_bound(server: JupyterServer, notebook: Notebook, mode: str, calls: int) -> list[float]:
    msg_id = notebook.client.execute("work(600)")
    time.sleep(0.5)
    try:
        values = anyio.run(call_latencies, notebook.url, server.token, mode, "add", {"a": 1, "b": 2}, calls, 10)
    finally:
        kernel_id = notebook.client.connection_file.rsplit("kernel-", 1)[1].removesuffix(".json")
        server.http.post(f"{server.url}api/kernels/{kernel_id}/interrupt")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            reply = notebook.client.get_shell_msg(timeout=60)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
    return values


def summary(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    return {
        "median_ms": percentile(ordered, 0.50) * 1000,
        "p95_ms": percentile(ordered, 0.95) * 1000,
    }


def report(results: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = [machine(), f"{'era':<6} {'carrier':<26} {'median':>9} {'p95':>9} {'vs http':>9} {'server CPU/call':>16}"]
    for era, paths in results.items():
        for name, figures in paths.items():
            base = paths["http, CPU-bound cell" if "CPU" in name else "http"]["median_ms"]
            extra = "" if name.startswith("http") else f"{figures['median_ms'] - base:+.2f}ms"
            cpu = figures["server_cpu_ms"]
            lines.append(
                f"{era:<6} {name:<26} {figures['median_ms']:>7.2f}ms {figures['p95_ms']:>7.2f}ms {extra:>9} "
                f"{'' if cpu != cpu else f'{cpu:.2f}ms':>16}"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300, help="calls per carrier and era")
    parser.add_argument("--cpu-calls", type=int, default=150, help="calls while a CPU-bound cell runs")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--server-arg", action="append", default=[], help="extra jupyter server argument (ablations)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        server = JupyterServer(Path(workdir), args.server_arg)
        try:
            results = measure(server, args.calls, args.cpu_calls)
        finally:
            server.stop()
    print(json.dumps(results, indent=2) if args.json else report(results))
    print(f"(base URL {BASE_URL}; medians and p95 of sequential calls through /mcp/notebooks/<path>)")


if __name__ == "__main__":
    main()
