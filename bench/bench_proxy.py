"""Extra latency per tool call through the Jupyter server extension's proxy vs talking to the kernel directly.

A real Jupyter server (a subprocess, with the extension, a token and a non-trivial base_url) starts
a notebook session; its kernel serves one trivial tool. In each protocol era a real ``mcp.Client``
calls the tool directly (the kernel's own URL and token), through ``/mcp/kernels/<id>`` and through
``/mcp/notebooks/<path>``, alternating call by call so all paths see the same machine load. The
"raw" rows do the same with pre-encoded requests on one kept-alive httpx connection per path (no
MCP client), which isolates what the proxy adds from the client's own per-call work.
It also reports the Jupyter server process's CPU time per proxied call (from /proc), a figure
that a busy machine disturbs much less than wall-clock latency. Figures, not pass/fail.

    .venv/bin/python bench/bench_proxy.py [--calls 300] [--json] [--server-arg=--MCPExtensionApp.max_idle_connections=0]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import anyio
import httpx
from _common import META, call_latencies, interleaved_latencies, machine, percentile, raw_session
from jupyter_client import BlockingKernelClient

from jupyter_mcp import discovery

BASE_URL = "/bench%20lab/"
NOTEBOOK = "bench/proxy bench.ipynb"
TOOL = '''%%mcp_tool
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b
'''


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_kernel(client: BlockingKernelClient, attempts: int = 5) -> None:
    """``wait_for_ready``, again when a kernel still starting on a loaded box misses its first heartbeat."""
    for attempt in range(attempts):
        try:
            client.wait_for_ready(timeout=60)
            return
        except RuntimeError:
            if attempt == attempts - 1:
                raise
            time.sleep(2)


class JupyterServer:
    """``jupyter server`` in a subprocess, with a private runtime dir and root dir."""

    def __init__(self, workdir: Path, extra_args: list[str]) -> None:
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self.runtime = workdir / "runtime"
        root = workdir / "root"
        (root / "bench").mkdir(parents=True)
        env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(self.runtime)}
        args = [f"--port={self.port}", f"--ServerApp.base_url={BASE_URL}", f"--IdentityProvider.token={self.token}"]
        args += [f"--ServerApp.root_dir={root}", "--ServerApp.open_browser=False", "--ServerApp.log_level=WARN"]
        args += ["--ServerApp.jpserver_extensions=jupyter_mcp=True", "--allow-root"]
        self.process = subprocess.Popen([sys.executable, "-m", "jupyter_server", *args, *extra_args], env=env)
        self.url = f"http://127.0.0.1:{self.port}{BASE_URL}"
        self.http = httpx.Client(headers={"Authorization": f"token {self.token}"}, timeout=60)
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if self.http.get(self.url + "api/status").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
        raise RuntimeError("jupyter server did not start")

    def start_notebook(self, path: str = NOTEBOOK, cells: tuple[str, ...] = ()) -> str:
        """A notebook session at ``path`` whose kernel ran ``cells`` (by default: the bench's tool); its kernel id."""
        body = {"path": path, "name": Path(path).name, "type": "notebook", "kernel": {"name": "python3"}}
        reply = self.http.post(self.url + "api/sessions", json=body)
        reply.raise_for_status()
        kernel_id = str(reply.json()["kernel"]["id"])
        client = BlockingKernelClient(connection_file=str(self.runtime / f"kernel-{kernel_id}.json"))
        client.load_connection_file()
        client.start_channels()
        _wait_for_kernel(client)
        for code in ("%load_ext jupyter_mcp", *(cells or (TOOL,))):
            result = client.execute_interactive(code, timeout=120, output_hook=lambda _msg: None)
            assert result["content"]["status"] == "ok", result["content"]
        client.stop_channels()
        return kernel_id

    def stop(self) -> None:
        self.http.close()
        self.process.terminate()
        self.process.wait(30)


def measure(server: JupyterServer, kernel_id: str, calls: int) -> dict[str, dict[str, dict[str, float]]]:
    info = discovery.find(kernel_id, server.runtime)
    assert info is not None, "the kernel published no discovery file"
    targets = {
        "direct": (info.url, info.token),
        "kernel route": (f"{server.url}mcp/kernels/{kernel_id}", server.token),
        "notebook route": (f"{server.url}mcp/notebooks/{quote(NOTEBOOK)}", server.token),
    }
    results = {}
    for era, mode in (("2025", "legacy"), ("2026", "auto")):
        timings = anyio.run(interleaved_latencies, list(targets.values()), mode, "add", {"a": 1, "b": 2}, calls, 50)
        results[era] = {name: summary(values) for name, values in zip(targets, timings, strict=True)}
        for name, (url, token) in targets.items():
            before = cpu_seconds(server.process.pid)
            anyio.run(call_latencies, url, token, mode, "add", {"a": 1, "b": 2}, calls, 0)
            results[era][name]["server_cpu_ms"] = (cpu_seconds(server.process.pid) - before) / calls * 1000
        raw_targets = [(info.url, {"Authorization": f"Bearer {info.token}"})]
        raw_targets += [(targets["kernel route"][0], {"Authorization": f"token {server.token}"})]
        raw = anyio.run(raw_latencies, raw_targets, era, calls)
        results[era]["raw direct"] = summary(raw[0]) | {"server_cpu_ms": float("nan")}
        results[era]["raw kernel route"] = summary(raw[1]) | {"server_cpu_ms": float("nan")}
    return results


async def raw_latencies(targets: list[tuple[str, dict[str, str]]], era: str, calls: int) -> list[list[float]]:
    """Pre-encoded tools/call POSTs on one kept-alive connection per path, alternating call by call:
    what the proxy adds without an MCP client's own per-call costs (or its connection churn)."""
    params: dict[str, object] = {"name": "add", "arguments": {"a": 1, "b": 2}}
    if era == "2026":
        params["_meta"] = META
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode()
    timings: list[list[float]] = [[] for _ in targets]
    async with httpx.AsyncClient(timeout=30) as http:
        sessions = [await raw_session(http, url, auth, era, "tools/call", "add") for url, auth in targets]
        for index in range(50 + calls):
            for position, (url, _) in enumerate(targets):
                started = time.perf_counter()
                reply = await http.post(url, content=body, headers=sessions[position])
                elapsed = time.perf_counter() - started
                assert reply.status_code == 200, reply.text
                assert b'"isError":false' in reply.content, reply.text
                if index >= 50:
                    timings[position].append(elapsed)
    return timings


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summary(seconds: list[float]) -> dict[str, float]:
    return {
        "median_ms": statistics.median(seconds) * 1000,
        "p10_ms": percentile(seconds, 0.10) * 1000,
        "p90_ms": percentile(seconds, 0.90) * 1000,
    }


def report(results: dict[str, dict[str, dict[str, float]]]) -> str:
    header = f"{'era':<6} {'path':<15} {'median':>9} {'p10':>9} {'p90':>9} {'extra':>9} {'server CPU/call':>16}"
    lines = [machine(), header]
    for era, paths in results.items():
        for name, figures in paths.items():
            direct = paths["raw direct" if name.startswith("raw") else "direct"]["median_ms"]
            extra = "" if name.endswith("direct") else f"{figures['median_ms'] - direct:+.2f}ms"
            lines.append(
                f"{era:<6} {name:<15} {figures['median_ms']:>7.2f}ms {figures['p10_ms']:>7.2f}ms "
                f"{figures['p90_ms']:>7.2f}ms {extra:>9} {cpu_text(figures['server_cpu_ms']):>16}"
            )
    return "\n".join(lines)


def cpu_text(milliseconds: float) -> str:
    return "" if milliseconds != milliseconds else f"{milliseconds:.2f}ms"  # NaN: not measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300, help="calls per path and era")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--server-arg", action="append", default=[], help="extra jupyter server argument (ablations)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        server = JupyterServer(Path(workdir), args.server_arg)
        try:
            results = measure(server, server.start_notebook(), args.calls)
        finally:
            server.stop()
    print(json.dumps(results, indent=2) if args.json else report(results))


if __name__ == "__main__":
    main()
