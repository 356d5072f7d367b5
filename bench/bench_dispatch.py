"""Server CPU of one 2026-era ``tools/call``, in process: the SDK's result shaping against ``DirectRunner``.

One ``ToolServer`` ASGI app (the ``add`` tool of ``_our_server.py``), requests handed to it directly
(no socket, no client), in blocks of 200 that alternate the two ways of shaping the result, so both
see the same machine load. Figures, not pass/fail.

    .venv/bin/python bench/bench_dispatch.py [--rounds 100]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

from _common import META, MODERN, machine
from _our_server import build
from mcp.server.runner import ServerRunner

from jupyter_mcp.tools.transports.http import stateless
from jupyter_mcp.tools.transports.http.direct import DirectRunner

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


class SdkShaped(DirectRunner):
    """Every result shaped by the SDK (validated again against the result surface, stamp deep-copied)."""

    _serialize = ServerRunner._serialize


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


async def measure(rounds: int) -> dict[str, list[float]]:
    app = build(0).streamable_http_app(path="/mcp")
    lifespan: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    lifespan.put_nowait({"type": "lifespan.startup"})
    started = asyncio.Event()

    async def lifespan_send(message: dict[str, Any]) -> None:
        if message["type"] == "lifespan.startup.complete":
            started.set()

    life = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}}, lifespan.get, lifespan_send))
    await started.wait()
    answers: list[bytes] = []
    times: dict[str, list[float]] = {"SDK shaping": [], "DirectRunner": []}
    runners = [("SDK shaping", SdkShaped), ("DirectRunner", DirectRunner)]
    try:
        for round_ in range(rounds):
            for name, runner in runners if round_ % 2 else runners[::-1]:
                stateless.DirectRunner = runner  # type: ignore[misc]
                began = time.process_time()
                for _ in range(BLOCK):
                    await post(app, answers)
                times[name].append((time.process_time() - began) / BLOCK * 1e6)
    finally:
        stateless.DirectRunner = DirectRunner  # type: ignore[misc]
        lifespan.put_nowait({"type": "lifespan.shutdown"})
        await asyncio.wait_for(life, 5)
    assert all(b'"text":"3"' in answer for answer in answers), answers[-1]
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=100)
    options = parser.parse_args()
    print(machine())
    times = asyncio.run(measure(options.rounds))
    print(f"\n### 2026 tools/call, server CPU µs per request, in process ({options.rounds} blocks of {BLOCK} each)")
    print("| result shaping | median | min |\n|---|---:|---:|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.1f} | {min(values):.1f} |")
    ratio = statistics.median(times["DirectRunner"]) / statistics.median(times["SDK shaping"])
    print(f"\nDirectRunner / SDK shaping (medians): {ratio:.2f}×")


if __name__ == "__main__":
    main()
