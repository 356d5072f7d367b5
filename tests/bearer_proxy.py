"""A reverse proxy that adds ``Authorization: Bearer <token>`` to every request it forwards.

Several 2026-07-28 conformance scenarios send raw requests to the server URL without its query
string and without headers, so ``?token=`` cannot reach them; this proxy stands in front of the
kernel in tests, never a switch that turns the token off. It forwards the method, path, query and
every header (Host and Origin too, so DNS-rebinding checks still see what the client sent) and
streams the answer back as it comes (SSE included); a client that goes away ends the upstream request.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import httpx
from starlette.types import Receive, Scope, Send

from jupyter_mcp.tools.transports.http.serving import BackgroundServer

_HOP_BY_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"te", b"upgrade", b"proxy-connection"}


class BearerProxy:
    """An ASGI app forwarding to ``upstream`` (scheme://host:port) with the bearer token added."""

    def __init__(self, upstream: str, token: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.token = token
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        body = await _body(receive)
        request = self._client_for().build_request(
            scope["method"], self._url(scope), headers=self._headers(scope), content=body
        )
        async with anyio.create_task_group() as group:
            group.start_soon(_cancel_on_disconnect, receive, group.cancel_scope)
            await self._relay(request, send)
            group.cancel_scope.cancel()

    async def _relay(self, request: httpx.Request, send: Send) -> None:
        response = await self._client_for().send(request, stream=True)
        try:
            headers = [(k, v) for k, v in response.headers.raw if k.lower() not in _HOP_BY_HOP]
            await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
            async for chunk in response.aiter_raw():
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            await response.aclose()

    def _client_for(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(None))
        return self._client

    def _url(self, scope: Scope) -> str:
        query = scope.get("query_string", b"").decode()
        return f"{self.upstream}{scope['path']}" + (f"?{query}" if query else "")

    def _headers(self, scope: Scope) -> list[tuple[bytes, bytes]]:
        # Values without their optional white space, as a proxy forwards them (its parser may keep it).
        kept = [(k, v.strip(b" \t")) for k, v in scope["headers"] if k.lower() not in _HOP_BY_HOP | {b"authorization"}]
        return [*kept, (b"authorization", f"Bearer {self.token}".encode())]


async def _body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


async def _cancel_on_disconnect(receive: Receive, scope: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    scope.cancel()


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


@contextmanager
def bearer_proxy(url: str, token: str) -> Iterator[str]:
    """Serve a ``BearerProxy`` for the MCP endpoint ``url``; yields the proxy's URL for the same path."""
    scheme, rest = url.split("://", 1)
    authority, _, path = rest.partition("/")
    runner = BackgroundServer(BearerProxy(f"{scheme}://{authority}", token), "127.0.0.1", 0)  # type: ignore[arg-type]
    runner.start()
    try:
        yield f"http://127.0.0.1:{runner.port}/{path}"
    finally:
        runner.stop()
