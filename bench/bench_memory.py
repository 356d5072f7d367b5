"""Kernel memory under load: RSS over 100,000 calls, and over 100 calls with 20 MB results.

A real kernel serves ``add`` and ``blob(mb)``. Phase 1 floods ``add`` through the full in-kernel call
path (``server.call_in_background``, 250 in flight) and prints the kernel's RSS every 10,000 calls:
after warm-up it should stay flat (the history is bounded by ``history_size`` and ``max_payload``).
Phase 2 calls ``blob`` from a real 2025-era HTTP session (the era with a resumption event store)
and prints RSS as results pile up and after the store's grace period. Each 20 MB result is over the
result budget, so the client gets a preview plus a ``result://`` link (under 1 MiB, as every SDK
client can receive), the last link is read in full, and the kernel keeps full values only within
``result_links_bytes``: RSS should stay bounded, not grow by 20 MB a call. Figures, not pass/fail.

    .venv/bin/python bench/bench_memory.py [--calls 100000] [--blobs 100] [--mb 20]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

import anyio
import httpx

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from _common import machine, raw_session  # noqa: E402

from tests.harness import Kernel  # noqa: E402

SETUP = """
%load_ext jupyter_mcp
import jupyter_mcp
from concurrent.futures import wait
server = jupyter_mcp.get_server()

@server.tool
def add(a: int, b: int) -> int:
    return a + b

@server.tool
def blob(mb: int) -> str:
    return "x" * (mb * 1_000_000)

def flood(n, batch=250):
    for _ in range(0, n, batch):
        wait([server.call_in_background("add", {"a": 1, "b": 2}) for _ in range(batch)])
"""


GRACE = 30.0
"""Seconds the event store keeps a delivered result for resumption (``MemoryEventStore.delivered_grace``)."""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def blobs(url: str, token: str, count: int, mb: int, pid: int) -> None:
    """Raw POSTs in one 2025 session, so a reply's size is seen as sent (the mcp client refuses SSE events over 1 MiB)."""
    async with httpx.AsyncClient(timeout=120) as http:
        session = await raw_session(http, url, {"Authorization": f"Bearer {token}"}, "2025", "tools/call", "blob")
        for index in range(1, count + 1):
            call = {
                "jsonrpc": "2.0",
                "id": index,
                "method": "tools/call",
                "params": {"name": "blob", "arguments": {"mb": mb}},
            }
            reply = await http.post(url, json=call, headers=session)
            if reply.status_code != 200 or b"result://" not in reply.content or len(reply.content) > 1_048_576:
                raise RuntimeError(f"blob call {index}: {reply.status_code}, {len(reply.content)} bytes")
            if index % 10 == 0:
                print(
                    f"  after {index:4} results of {mb} MB (each sent as {len(reply.content):,} bytes): "
                    f"RSS {rss_mb(pid):7.0f} MB",
                    flush=True,
                )
        uri = re.findall(r"result://[0-9a-f]+-[0-9]+", reply.text)[-1]
        read = {"jsonrpc": "2.0", "id": count + 1, "method": "resources/read", "params": {"uri": uri}}
        full = await http.post(url, json=read, headers=session)
        kind = full.headers.get("content-type")
        print(f"  read {uri}: {len(full.content):,} bytes as {kind}; RSS {rss_mb(pid):.0f} MB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--blobs", type=int, default=100)
    parser.add_argument("--mb", type=int, default=20)
    args = parser.parse_args()
    kernel = Kernel(env={"JUPYTER_RUNTIME_DIR": tempfile.mkdtemp(prefix="bench-runtime-")})
    try:
        kernel.run(SETUP)
        print(f"machine: {machine()}")
        print(f"kernel RSS at start (server running, 2 tools): {rss_mb(kernel.pid):.0f} MB")
        print(f"phase 1: {args.calls:,} calls of add through the call path")
        step = 10_000
        started = time.perf_counter()
        for done in range(step, args.calls + 1, step):
            kernel.run(f"flood({step})", timeout=600)
            print(f"  after {done:7,} calls: RSS {rss_mb(kernel.pid):7.0f} MB", flush=True)
        print(f"  {args.calls / (time.perf_counter() - started):,.0f} calls/s")
        url, token = kernel.value("(server.url, server.token)")
        print(f"phase 2: {args.blobs} calls of blob({args.mb}) from a 2025-era HTTP session")
        anyio.run(blobs, url, token, args.blobs, args.mb, kernel.pid)
        time.sleep(GRACE + 5)
        print(f"  {GRACE + 5:.0f} s later (delivered results are kept {GRACE:.0f} s): RSS {rss_mb(kernel.pid):.0f} MB")
        kept = kernel.value(
            "(len(server.result_links), server.result_links.size, server.result_links.settings.result_links_bytes)"
        )
        print(f"  full values kept for links: {kept[0]} ({kept[1]:,} bytes as JSON; at most {kept[2]:,})")
        # What the process still holds, against what glibc keeps in its arenas after the transients.
        kernel.run("import ctypes; ctypes.CDLL('libc.so.6').malloc_trim(0)")
        print(f"  after malloc_trim(0): RSS {rss_mb(kernel.pid):.0f} MB")
    finally:
        kernel.manager.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
