"""Call throughput with the widget panels open vs closed, in a real kernel (goal: open >= 90 % of closed).

Two loads, each alternated closed/open for several rounds so a busy machine does not favour one side:

* in-kernel flood: batches of ``server.call_in_background`` (the full call path, no HTTP) — the
  "1,000 calls per second" case, where the panels' observers and refreshes matter most;
* HTTP: several real ``mcp.Client`` sessions calling ``add`` concurrently.

"Open" means ``server.panel()`` and a tool card displayed (both observing history and registry).
Also printed: the kernel's CPU time per call (the "ratio" there is closed/open, so it reads like
the throughput ratio but is much less disturbed by other work on the machine), the busiest open
panel's refreshes per second (must stay <= 10) and widget state messages per second sent
towards the browser.

Usage: .venv/bin/python bench/bench_widgets.py [--rounds N] [--flood N] [--http N] [--clients N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import anyio

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from _common import client, cpu_seconds, machine  # noqa: E402

from tests.harness import Kernel  # noqa: E402

SETUP = '''
%load_ext jupyter_mcp
import time
from concurrent.futures import wait
import ipywidgets
from IPython.display import display
import jupyter_mcp
from jupyter_mcp.kernel.display import card as tool_card
server = jupyter_mcp.get_server()

# Count the state messages widgets send towards the browser (an update with nothing changed sends none).
sent = [0]
_send = ipywidgets.Widget._send
def _counting(self, msg, buffers=None):
    sent[0] += msg.get("method") == "update"
    return _send(self, msg, buffers)
ipywidgets.Widget._send = _counting

def flood(n, batch=250):
    """Calls per second for n calls through the full call path, batch at a time in flight."""
    started = time.perf_counter()
    for _ in range(0, n, batch):
        wait([server.call_in_background("add", {"a": 1, "b": 2}) for _ in range(batch)])
    return n / (time.perf_counter() - started)

views = []
def open_views():
    views[:] = [server.panel(), tool_card(server, server.tools["add"])]
    display(*views)

def close_views():
    for view in views:
        view.close()
    views.clear()

def refreshes():
    return [view._live.throttle.refreshes for view in views]
'''
TOOL = "%%mcp_tool\ndef add(a: int, b: int) -> int:\n    return a + b"


@dataclass
class Phase:
    rate: float
    """Calls per second."""
    cpu_ms: float
    """Kernel CPU milliseconds per call (less sensitive than ``rate`` to other load on the machine)."""
    refreshes: float
    """Refreshes per second of the busiest open view."""
    messages: float
    """Widget state messages per second towards the browser."""


class Bench:
    def __init__(self, kernel: Kernel, flood_calls: int, http_calls: int, clients: int) -> None:
        self.kernel = kernel
        self.url, self.token = kernel.value("(server.url, server.token)")
        self.flood_calls = flood_calls
        self.http_calls = http_calls
        self.clients = clients

    def flood(self) -> float:
        return float(self.kernel.value(f"flood({self.flood_calls})"))

    def http(self) -> float:
        return anyio.run(self._http)

    async def _http(self) -> float:
        per_client = self.http_calls // self.clients

        async def session() -> None:
            async with client(self.url, self.token, "legacy") as mcp:
                for _ in range(per_client):
                    await mcp.call_tool("add", {"a": 1, "b": 2})

        started = time.perf_counter()
        async with anyio.create_task_group() as tasks:
            for _ in range(self.clients):
                tasks.start_soon(session)
        return per_client * self.clients / (time.perf_counter() - started)

    def measure(self, load: str, panels_open: bool) -> Phase:
        """One phase of ``load`` with the panels open or closed."""
        if panels_open:
            self.kernel.run("open_views()")
        before_sent, before = self.kernel.value("(sent[0], refreshes())")
        cpu_before, started = cpu_seconds(self.kernel.pid), time.perf_counter()
        rate = self.flood() if load == "flood" else self.http()
        elapsed, cpu = time.perf_counter() - started, cpu_seconds(self.kernel.pid) - cpu_before
        after_sent, after = self.kernel.value("(sent[0], refreshes())")
        self.kernel.run("close_views()")
        busiest = max((b - a for a, b in zip(before, after, strict=True)), default=0)
        calls = rate * elapsed
        return Phase(rate, cpu / calls * 1000, busiest / elapsed, (after_sent - before_sent) / elapsed)


def run(bench: Bench, load: str, rounds: int) -> None:
    closed: list[Phase] = []
    opened: list[Phase] = []
    for index in range(rounds):
        # Alternate which side goes first, so a drifting machine load does not favour one.
        for panels_open in (False, True) if index % 2 == 0 else (True, False):
            (opened if panels_open else closed).append(bench.measure(load, panels_open))
    rate = [statistics.median(p.rate for p in side) for side in (closed, opened)]
    cpu = [statistics.median(p.cpu_ms for p in side) for side in (closed, opened)]
    print(
        f"{load:6} {rate[0]:10.0f} {rate[1]:10.0f} {rate[1] / rate[0]:8.1%}"
        f" {cpu[0]:9.3f} {cpu[1]:9.3f} {cpu[0] / cpu[1]:8.1%}"
        f" {max(p.refreshes for p in opened):10.1f} {statistics.median(p.messages for p in opened):8.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--flood", type=int, default=3000, help="calls per in-kernel flood phase")
    parser.add_argument("--http", type=int, default=800, help="calls per HTTP phase")
    parser.add_argument("--clients", type=int, default=4, help="concurrent HTTP client sessions")
    options = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"median of {options.rounds} rounds, panels closed vs open (server.panel() + a tool card)")
    kernel = Kernel(env={"JUPYTER_RUNTIME_DIR": tempfile.mkdtemp(prefix="bench-runtime-")})
    try:
        kernel.run(SETUP)
        kernel.run(TOOL)
        bench = Bench(kernel, options.flood, options.http, options.clients)
        bench.flood()  # warm up the call path and the worker pool
        print(f"{'':6} {'calls/s':^29} {'kernel CPU ms/call':^28} {'open panels':^19}")
        header = ("load", "closed", "open", "ratio", "closed", "open", "ratio", "refresh/s", "msg/s")
        print(
            f"{header[0]:6} {header[1]:>10} {header[2]:>10} {header[3]:>8} {header[4]:>9} {header[5]:>9}"
            f" {header[6]:>8} {header[7]:>10} {header[8]:>8}"
        )
        run(bench, "flood", options.rounds)
        run(bench, "http", options.rounds)
    finally:
        kernel.shutdown()


if __name__ == "__main__":
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    main()
