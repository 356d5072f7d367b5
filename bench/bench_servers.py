"""Side by side, one run, the same clients: a plain MCP SDK server, FastMCP 4, our ``ToolServer``, the kernel
(the last two also with their fast paths off: the libraries' public APIs only; the ``ToolServer`` so once
more with its ``add`` an ``async def``, like the plain SDK server's handler, since a sync tool runs in a worker
thread when the fast paths are off).

Every server serves the same ``add`` tool over streamable HTTP on a TCP_NODELAY socket, in its own
process (the kernel's in its server thread). The plain SDK server runs twice: with uvicorn's h11
parser and asyncio's loop, as ``pip install mcp`` has it, and with httptools and uvloop, what jupyter-mcp depends
on (our standalone server runs on uvloop; a kernel's server on asyncio's loop in its own thread); beside the
fast-paths-off columns, once more with an event store (resumable, as ours is: its 2025-era answers open with
a priming event). For each protocol era it measures:

- latency at concurrency 1, median / p95 ms, with a real ``mcp.Client`` and with the lean raw client
  (``_load.py``), the servers called in turn request by request so they share the machine's load;
  and with the raw client, one server at a time (blocks of consecutive calls, the servers in turn block
  by block): a server called over and over keeps its code in the CPU's caches, one called in turn with
  others starts every call cold;
- requests/s that 1, 10 and 50 concurrent raw clients get (each 2025-era client its own session),
  the servers in turn, best of ``--rounds`` rounds of ``--seconds`` each;
- ``tools/list`` of 1,001 tools: the server's time (raw POSTs on a kept-alive connection; wall
  median and server CPU per list) and the time ``mcp.Client`` sees (it validates every tool).

FastMCP is a bench-only dependency: it runs from its own venv, ``.venv/bench-fastmcp`` (created with
``pip install 'fastmcp>=4,<5'`` on first use), so its pins never touch the project's.
Usage: .venv/bin/python bench/bench_servers.py [--calls N] [--seconds S] [--rounds R] [--skip kernel,public,fastmcp]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from _common import client, cpu_seconds, interleaved_latencies, machine, percentile  # noqa: E402
from _load import RawSession, call_add, latencies, rate  # noqa: E402

FASTMCP_VENV = HERE.parent / ".venv" / "bench-fastmcp"
ERAS = {"2025": "legacy", "2026": "auto"}
KERNEL_SETUP = """
%load_ext jupyter_mcp
import jupyter_mcp
server = jupyter_mcp.get_server()
"""
KERNEL_TOOL = (
    "%%mcp_tool\ndef add(a: int, b: int) -> int:\n    '''Adds two integer numbers together.'''\n    return a + b"
)
KERNEL_MORE_TOOLS = """
def _search(query: str, limit: int = 10, exact: bool = False) -> list[str]:
    '''Search something.

    Args:
        query: What to look for.
        limit: How many results.
        exact: Exact matches only.
    '''
    return []
for _i in range(1000):
    server.add_tool(_search, name=f"tool_{_i:04d}")
"""


@dataclass
class Target:
    name: str
    url: str
    token: str | None
    pid: int


def fastmcp_python() -> Path:
    python = FASTMCP_VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {FASTMCP_VENV} with fastmcp 4 (bench only)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(FASTMCP_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "fastmcp>=4,<5"], check=True)
    return python


@contextmanager
def process(name: str, python: str, script: str, *args: str, token: str | None = None) -> Iterator[Target]:
    """A bench server script in its own process."""
    child = subprocess.Popen([python, str(HERE / script), *args], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"{script} did not start: {line!r}")
        yield Target(name, f"http://127.0.0.1:{int(line.split()[1])}/mcp", token, child.pid)
    finally:
        child.terminate()
        child.wait(10)


@contextmanager
def kernel_target(*, public: bool = False) -> Iterator[tuple[Target, object]]:
    from tests.harness import Kernel

    env = {
        "JUPYTER_RUNTIME_DIR": tempfile.mkdtemp(prefix="bench-runtime-"),
        "JUPYTER_MCP_FAST_PATHS": "0" if public else "1",
    }
    kernel = Kernel(env=env)
    try:
        kernel.run(KERNEL_SETUP)
        kernel.run(KERNEL_TOOL)
        url, token = kernel.value("(server.url, server.token)")
        yield Target("kernel, public" if public else "kernel", url, token, kernel.pid), kernel
    finally:
        kernel.shutdown()


@contextmanager
def servers(skip: set[str], tools: int = 0) -> Iterator[list[Target]]:
    more = ("--tools", str(tools)) if tools else ()
    with ExitStack() as stack:
        found = [stack.enter_context(process("plain SDK", sys.executable, "_plain_server.py", *more))]
        if "httptools" not in skip:
            plain_httptools = process(
                "plain SDK + httptools + uvloop",
                sys.executable,
                "_plain_server.py",
                "--http",
                "httptools",
                "--loop",
                "uvloop",
                *more,
            )
            found.append(stack.enter_context(plain_httptools))
        if "public" not in skip:
            stored = process("plain SDK + event store", sys.executable, "_plain_server.py", "--event-store", *more)
            found.append(stack.enter_context(stored))
        if "fastmcp" not in skip:
            found.append(stack.enter_context(process("FastMCP 4", str(fastmcp_python()), "_fastmcp_server.py", *more)))
        found.append(
            stack.enter_context(process("ToolServer", sys.executable, "_our_server.py", *more, token="bench-token"))
        )
        if "public" not in skip:
            public = process(
                "ToolServer, public", sys.executable, "_our_server.py", "--public", *more, token="bench-token"
            )
            found.append(stack.enter_context(public))
            public_async = process(
                "ToolServer, public, async tool",
                sys.executable,
                "_our_server.py",
                "--public",
                "--async-tool",
                *more,
                token="bench-token",
            )
            found.append(stack.enter_context(public_async))
        for kernel_public in (False, True):
            if "kernel" in skip or (kernel_public and "public" in skip):
                continue
            target, kernel = stack.enter_context(kernel_target(public=kernel_public))
            if tools:
                kernel.run(KERNEL_MORE_TOOLS)  # type: ignore[attr-defined]
            found.append(target)
        yield found


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.2f} / {percentile(values, 0.95) * 1000:.2f}"


async def client_latencies(targets: list[Target], era: str, calls: int) -> list[list[float]]:
    pairs = [(t.url, t.token) for t in targets]
    return await interleaved_latencies(pairs, ERAS[era], "add", {"a": 1, "b": 2}, calls)


async def raw_latencies(targets: list[Target], era: str, calls: int) -> tuple[list[list[float]], list[float]]:
    sessions = [await RawSession(t.url, t.token, era).open() for t in targets]
    try:
        before = [cpu_seconds(t.pid) for t in targets]
        timings = await latencies([call_add(s) for s in sessions], calls)
        cpu = [(cpu_seconds(t.pid) - b) / (calls + 20) * 1000 for t, b in zip(targets, before, strict=True)]
        return timings, cpu
    finally:
        for session in sessions:
            session.close()


async def alone_latencies(targets: list[Target], era: str, calls: int, blocks: int = 3) -> list[list[float]]:
    """Seconds per call with one server at a time: ``blocks`` blocks of consecutive calls per server, the
    servers in turn block by block (a server called over and over keeps its code and data in the CPU's caches;
    called in turn with five others, as above, every call starts cold)."""
    sessions = [await RawSession(t.url, t.token, era).open() for t in targets]
    try:
        timings: list[list[float]] = [[] for _ in targets]
        for _ in range(blocks):
            for position, session in enumerate(sessions):
                timings[position] += (await latencies([call_add(session)], calls // blocks))[0]
        return timings
    finally:
        for session in sessions:
            session.close()


def latency_table(targets: list[Target], calls: int) -> None:
    print(f"\n### latency at concurrency 1 ({calls} calls per server, in turn), median / p95 ms")
    print("| era | client | " + " | ".join(t.name for t in targets) + " |")
    print("|---|---|" + "---:|" * len(targets))
    for era in ERAS:
        timings = anyio.run(client_latencies, targets, era, calls)
        print(f"| {era} | mcp.Client | " + " | ".join(ms(t) for t in timings) + " |")
        raw, cpu = anyio.run(raw_latencies, targets, era, calls)
        print(f"| {era} | raw | " + " | ".join(ms(t) for t in raw) + " |")
        print(f"| {era} | server CPU ms/call (raw) | " + " | ".join(f"{c:.2f}" for c in cpu) + " |")
        plain = statistics.median(timings[0])
        plain_raw = statistics.median(raw[0])
        ratios = [
            f"{statistics.median(t) / plain:.2f}× / {statistics.median(r) / plain_raw:.2f}×"
            for t, r in zip(timings, raw, strict=True)
        ]
        print(f"| {era} | median vs plain SDK (client / raw) | " + " | ".join(ratios) + " |")
        alone = anyio.run(alone_latencies, targets, era, calls)
        print(f"| {era} | raw, one server at a time | " + " | ".join(ms(t) for t in alone) + " |")
        plain_alone = statistics.median(alone[0])
        shares = [f"{statistics.median(t) / plain_alone:.2f}×" for t in alone]
        print(f"| {era} | median vs plain SDK (one at a time) | " + " | ".join(shares) + " |")


def throughput_table(targets: list[Target], seconds: float, rounds: int) -> None:
    print(f"\n### requests/s, raw clients (best of {rounds} rounds of {seconds:g} s, servers in turn)")
    print("| era | clients | " + " | ".join(t.name for t in targets) + " |")
    print("|---|---:|" + "---:|" * len(targets))
    for era in ERAS:
        for clients in (1, 10, 50):
            best = [0.0] * len(targets)
            for _ in range(rounds):
                for position, target in enumerate(targets):
                    got = anyio.run(rate, target.url, target.token, era, clients, seconds)
                    best[position] = max(best[position], got)
            print(f"| {era} | {clients} | " + " | ".join(f"{r:,.0f}" for r in best) + " |")


async def raw_lists(target: Target, era: str, repeats: int) -> tuple[list[float], float]:
    session = await RawSession(target.url, target.token, era).open()
    try:
        request = session.request("tools/list", {})
        for _ in range(3):
            assert (await request.send()).count(b'"inputSchema"') == 1001
        before = cpu_seconds(target.pid)
        timings = []
        for _ in range(repeats):
            started = time.perf_counter()
            await request.send()
            timings.append(time.perf_counter() - started)
        return timings, (cpu_seconds(target.pid) - before) / repeats * 1000
    finally:
        session.close()


async def client_lists(target: Target, era: str, repeats: int) -> list[float]:
    timings = []
    async with client(target.url, target.token, ERAS[era]) as session:
        for _ in range(repeats):
            started = time.perf_counter()
            listed = await session.list_tools(cache_mode="refresh")
            timings.append(time.perf_counter() - started)
            assert len(listed.tools) == 1001
    return timings


def list_table(skip: set[str], repeats: int) -> None:
    print(f"\n### tools/list of 1,001 tools ({repeats} lists each), median / p95 ms")
    with servers(skip, tools=1000) as targets:
        print("| era | measure | " + " | ".join(t.name for t in targets) + " |")
        print("|---|---|" + "---:|" * len(targets))
        for era in ERAS:
            raw = [anyio.run(raw_lists, t, era, repeats) for t in targets]
            print(f"| {era} | server time (raw POST) | " + " | ".join(ms(t) for t, _ in raw) + " |")
            print(f"| {era} | server CPU ms per list | " + " | ".join(f"{cpu:.1f}" for _, cpu in raw) + " |")
            seen = [anyio.run(client_lists, t, era, max(5, repeats // 4)) for t in targets]
            print(f"| {era} | mcp.Client | " + " | ".join(ms(t) for t in seen) + " |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--lists", type=int, default=40)
    parser.add_argument(
        "--skip", default="", help="comma-separated: kernel, public, fastmcp, httptools, latency, throughput, lists"
    )
    options = parser.parse_args()
    skip = set(filter(None, options.skip.split(",")))
    print(f"machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M')}; load average {os.getloadavg()[0]:.1f}")
    with servers(skip) as targets:
        if "latency" not in skip:
            latency_table(targets, options.calls)
        if "throughput" not in skip:
            throughput_table(targets, options.seconds, options.rounds)
    if "lists" not in skip:
        list_table(skip, options.lists)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    main()
