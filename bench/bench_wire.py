"""The shared HTTP/1.1 client (``jupyter_mcp._wire``) against the proxy's former tornado client.

Both run on one tornado IOLoop (asyncio underneath, as in the Jupyter server), against one
uvicorn server in a subprocess that answers like the kernel's: a JSON body, or an SSE reply (a
priming event, then the result event). Exchanges alternate between the clients, so both see the
same machine load; each keeps its connection alive. The figure that matters is the client's CPU
time per exchange (``time.process_time``: the server runs in another process). Figures, not pass/fail.

    .venv/bin/python bench/bench_wire.py [--exchanges 3000] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from _common import machine
from _tornado_client import ConnectionPool as TornadoPool
from _tornado_client import Exchange as TornadoExchange
from _tornado_client import Origin as TornadoOrigin
from tornado import httputil
from tornado.ioloop import IOLoop

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp._wire.http import Exchange
from jupyter_mcp._wire.origin import Origin

BODY = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'
RESULT = b'{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"3"}],"isError":false}}'
SERVER = """
import asyncio, socket, sys
import uvicorn
from starlette.applications import Starlette
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

RESULT = %r

async def reply_json(request):
    await request.body()
    return Response(RESULT, media_type="application/json")

async def reply_sse(request):
    await request.body()
    async def events():
        yield b"id: 1\\r\\nretry: 1000\\r\\ndata: \\r\\n\\r\\n"
        await asyncio.sleep(0)
        yield b"event: message\\r\\nid: 2\\r\\ndata: " + RESULT + b"\\r\\n\\r\\n"
    return StreamingResponse(events(), media_type="text/event-stream")

app = Starlette(routes=[Route("/json", reply_json, methods=["POST"]), Route("/sse", reply_sse, methods=["POST"])])
sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
sock.bind(("127.0.0.1", int(sys.argv[1])))
uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_listening(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the bench server did not start")


class _Collect:
    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.code = 0

    def start(self, code: int, reason: str, headers: httputil.HTTPHeaders) -> None:
        self.code = code

    def body(self, chunk: bytes) -> None:
        self.chunks.append(chunk)


def headers(port: int) -> httputil.HTTPHeaders:
    fields = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json", "Content-Length": str(len(BODY))}
    return httputil.HTTPHeaders(fields)


async def tornado_exchange(pool: TornadoPool, port: int, path: str) -> bytes:
    exchange = await TornadoExchange.open(pool, TornadoOrigin("127.0.0.1", port), "POST", path, headers(port))
    await exchange.send(BODY)
    await exchange.end_request()
    sink = _Collect()
    await exchange.receive(sink)
    return b"".join(sink.chunks)


async def wire_exchange(pool: ConnectionPool, port: int, path: str) -> bytes:
    origin = Origin("http", "127.0.0.1", port)
    exchange = await Exchange.open(pool, origin, "POST", path, headers(port).get_all())
    exchange.send(BODY)
    exchange.end_request()
    response = await exchange.response()
    return b"".join([chunk async for chunk in response.chunks()])


async def measure(port: int, exchanges: int) -> dict[str, dict[str, dict[str, float]]]:
    tornado_pool = TornadoPool(connect_timeout=5, max_idle=8, idle_timeout=3)
    wire_pool = ConnectionPool(connect_timeout=5, max_idle=8, idle_timeout=3)
    clients: dict[str, Callable[[str], Awaitable[bytes]]] = {
        "tornado HTTP1Connection (before)": lambda path: tornado_exchange(tornado_pool, port, path),
        "_wire (asyncio streams)": lambda path: wire_exchange(wire_pool, port, path),
    }
    results: dict[str, dict[str, dict[str, float]]] = {}
    for path in ("/json", "/sse"):
        walls: dict[str, list[float]] = {name: [] for name in clients}
        cpu = dict.fromkeys(clients, 0.0)
        for index in range(100 + exchanges):
            for name, exchange in clients.items():
                cpu_start, started = time.process_time(), time.perf_counter()
                body = await exchange(path)
                if index >= 100:
                    walls[name].append(time.perf_counter() - started)
                    cpu[name] += time.process_time() - cpu_start
                assert RESULT in body, body
        results[path.strip("/")] = {
            name: {"median_ms": statistics.median(walls[name]) * 1000, "cpu_ms": cpu[name] / exchanges * 1000}
            for name in clients
        }
    tornado_pool.close()
    wire_pool.close()
    return results


def report(results: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = [machine(), f"{'reply':<6} {'client':<34} {'median':>9} {'client CPU/exchange':>20}"]
    for reply, clients in results.items():
        for name, figures in clients.items():
            lines.append(f"{reply:<6} {name:<34} {figures['median_ms']:>7.3f}ms {figures['cpu_ms']:>18.3f}ms")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exchanges", type=int, default=3000, help="measured exchanges per client and reply kind")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER % RESULT, str(port)], cwd=Path(__file__).parent)
    try:
        wait_listening(port)
        results = IOLoop.current().run_sync(lambda: measure(port, args.exchanges))
    finally:
        server.terminate()
        server.wait(10)
    print(json.dumps(results, indent=2) if args.json else report(results))


if __name__ == "__main__":
    asyncio.set_event_loop(asyncio.new_event_loop())
    main()
