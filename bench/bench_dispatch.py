"""Server CPU of one 2026-era ``tools/call``, in process: a ``ToolServer`` with its fast paths, and without.

Two ``ToolServer`` ASGI apps (the ``add`` tool of ``_our_server.py``): one taking the fast paths (the
result dumped once by the SDK adapter's ``ShapingRunner``, the envelope's connection copied, an
empty exit stack not unwound, the quick sync tool run inline), one with ``fast_paths=False`` (the
SDK's shaping, ``Connection.from_envelope``, the SDK's unwinding, a worker thread). Requests are
handed to each directly (no socket, no client), in blocks of 200 that alternate the two, so both see
the same machine load. Figures, not pass/fail.

    .venv/bin/python bench/bench_dispatch.py [--rounds 100]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from _common import META, MODERN, machine
from _our_server import build

BLOCK = 200
BODY = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 2}, "_meta": META},
    }
).encode()
HEADERS = [
    (b"host", b"127.0.0.1"),
    (b"content-type", b"application/json"),
    (b"accept", b"application/json, text/event-stream"),
    (b"mcp-protocol-version", MODERN.encode()),
    (b"mcp-method", b"tools/call"),
    (b"mcp-name", b"add"),
    (b"content-length", str(len(BODY)).encode()),
]
SCOPE = {
    "type": "http",
    "asgi": {"version": "3.0"},
    "http_version": "1.1",
    "method": "POST",
    "scheme": "http",
    "path": "/mcp",
    "raw_path": b"/mcp",
    "query_string": b"",
    "root_path": "",
    "headers": HEADERS,
    "client": ("127.0.0.1", 1),
    "server": ("127.0.0.1", 2),
}


async def post(app: Any, answers: list[bytes]) -> None:
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": BODY, "more_body": False}
        await asyncio.Event().wait()  # the client stays: no disconnect
        raise AssertionError

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            answers.append(message["body"])

    await app(dict(SCOPE), receive, send)


@asynccontextmanager
async def running(app: Any) -> AsyncIterator[Any]:
    """``app`` with its lifespan started (and stopped after)."""
    lifespan: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    lifespan.put_nowait({"type": "lifespan.startup"})
    started = asyncio.Event()

    async def lifespan_send(message: dict[str, Any]) -> None:
        if message["type"] == "lifespan.startup.complete":
            started.set()

    life = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}}, lifespan.get, lifespan_send))
    await started.wait()
    try:
        yield app
    finally:
        lifespan.put_nowait({"type": "lifespan.shutdown"})
        await asyncio.wait_for(life, 5)


async def measure(rounds: int) -> dict[str, list[float]]:
    answers: list[bytes] = []
    times: dict[str, list[float]] = {"fast paths": [], "public path": []}
    async with AsyncExitStack() as stack:
        apps = [
            (name, await stack.enter_async_context(running(build(0, public=public).streamable_http_app(path="/mcp"))))
            for name, public in (("fast paths", False), ("public path", True))
        ]
        for round_ in range(rounds):
            for name, app in apps if round_ % 2 else apps[::-1]:
                began = time.process_time()
                for _ in range(BLOCK):
                    await post(app, answers)
                times[name].append((time.process_time() - began) / BLOCK * 1e6)
    assert all(b'"text":"3"' in answer for answer in answers), answers[-1]
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=100)
    options = parser.parse_args()
    print(machine())
    times = asyncio.run(measure(options.rounds))
    print(f"\n### 2026 tools/call, server CPU µs per request, in process ({options.rounds} blocks of {BLOCK} each)")
    print("| server | median | min |\n|---|---:|---:|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.1f} | {min(values):.1f} |")
    ratio = statistics.median(times["fast paths"]) / statistics.median(times["public path"])
    print(f"\nfast paths / public path (medians): {ratio:.2f}×")


if __name__ == "__main__":
    main()
