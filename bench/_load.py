"""A lean raw MCP client for the benches: pre-encoded JSON-RPC POSTs on kept-alive connections.

The same client for every server, so what differs between rows is the server. It is the HTTP/1.1
client the proxy and ``connect`` share (``jupyter_mcp._wire``): ~0.25 ms of CPU per exchange,
against ~1.5 ms for ``mcp.Client`` over HTTP (see bench/README.md, "connect"). Each ``RawSession``
is one client: in the 2025 era it opens its own MCP session (initialize, initialized); in the
2026 era every request stands alone.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from _common import META, MODERN

from jupyter_mcp._wire.client import HttpClient

HANDSHAKE = "2025-11-25"
_BASE = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


class RawSession:
    """One client of one server in one era (``"2025"`` or ``"2026"``)."""

    def __init__(self, url: str, token: str | None, era: str) -> None:
        self.era = era
        self.http = HttpClient(url)
        self.base = {**_BASE, **({"authorization": f"Bearer {token}"} if token else {})}
        self.session: dict[str, str] = {}

    async def open(self) -> RawSession:
        if self.era == "2025":
            init = {"protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
            reply = await self._post(self.base, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init})
            self.session = {"mcp-session-id": reply.headers["mcp-session-id"], "mcp-protocol-version": HANDSHAKE}
            await reply.read()
            note = await self._post(
                {**self.base, **self.session}, {"jsonrpc": "2.0", "method": "notifications/initialized"}
            )
            await note.read()
        return self

    def request(self, method: str, params: dict[str, Any], name: str | None = None) -> Request:
        """A pre-encoded request of ``method`` (``name``: the tool, for the 2026 routing headers)."""
        if self.era == "2026":
            params = {**params, "_meta": META}
            routing = {"mcp-protocol-version": MODERN, "mcp-method": method} | ({"mcp-name": name} if name else {})
            headers = {**self.base, **routing}
        else:
            headers = {**self.base, **self.session}
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
        return Request(self, headers, body)

    async def _post(self, headers: dict[str, str], message: dict[str, Any]) -> Any:
        return await self.http.request("POST", headers, json.dumps(message).encode(), repeatable=False)

    def close(self) -> None:
        self.http.close()


class Request:
    def __init__(self, session: RawSession, headers: dict[str, str], body: bytes) -> None:
        self.session = session
        self.headers = headers
        self.body = body

    async def send(self) -> bytes:
        reply = await self.session.http.request("POST", self.headers, self.body, repeatable=False)
        data = await reply.read()
        if reply.status != 200 or b'"error"' in data[:200] or b'"isError":true' in data:
            raise RuntimeError(f"{reply.status}: {data[:300]!r}")
        return data


def call_add(session: RawSession) -> Request:
    return session.request("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}, "add")


async def latencies(requests: list[Request], count: int, warmup: int = 20) -> list[list[float]]:
    """Seconds per request, one request at a time, alternating between ``requests`` (one per server)."""
    timings: list[list[float]] = [[] for _ in requests]
    for index in range(warmup + count):
        for position, request in enumerate(requests):
            started = time.perf_counter()
            await request.send()
            if index >= warmup:
                timings[position].append(time.perf_counter() - started)
    return timings


async def rate(url: str, token: str | None, era: str, clients: int, seconds: float) -> float:
    """Requests per second that ``clients`` concurrent clients get, each sending its next call at once."""
    sessions = [await RawSession(url, token, era).open() for _ in range(clients)]
    try:
        requests = [call_add(session) for session in sessions]
        await asyncio.gather(*(request.send() for request in requests))  # every connection open and warm
        done = 0
        deadline = time.perf_counter() + seconds

        async def client(request: Request) -> None:
            nonlocal done
            while time.perf_counter() < deadline:
                await request.send()
                done += 1

        started = time.perf_counter()
        await asyncio.gather(*(client(request) for request in requests))
        return done / (time.perf_counter() - started)
    finally:
        for session in sessions:
            session.close()
