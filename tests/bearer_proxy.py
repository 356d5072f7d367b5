"""A reverse proxy that adds ``Authorization: Bearer <token>`` to every request it forwards.

Several conformance scenarios send raw requests to the URL without its query string and without
headers, so ``?token=`` cannot carry the credential there. The proxy forwards method, path, query
and every header (Host and Origin included, so the server's DNS-rebinding checks still see what
the client sent) and streams the response back; the server keeps requiring its token.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

import httpx
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from jupyter_mcp.tools.serving import BackgroundServer

_HOP_BY_HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "te", "upgrade", "content-length"})


class BearerProxy:
    """ASGI app forwarding to ``upstream`` (scheme://host:port) with the bearer token added."""

    def __init__(self, upstream: str, token: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.token = token
        self.client = httpx.AsyncClient(timeout=httpx.Timeout(None), follow_redirects=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in _HOP_BY_HOP | {"authorization"}]
        headers.append(("authorization", f"Bearer {self.token}"))
        url = f"{self.upstream}{request.url.path}" + (f"?{request.url.query}" if request.url.query else "")
        upstream = self.client.build_request(request.method, url, headers=headers, content=await request.body())
        reply = await self.client.send(upstream, stream=True)
        kept = {k: v for k, v in reply.headers.items() if k.lower() not in _HOP_BY_HOP}
        response = StreamingResponse(_chunks(reply), status_code=reply.status_code, headers=kept)
        response.background = BackgroundTask(reply.aclose)
        await response(scope, receive, send)


async def _chunks(reply: httpx.Response) -> AsyncIterator[bytes]:
    async for chunk in reply.aiter_raw():
        yield chunk


@contextmanager
def bearer_proxy(url: str, token: str) -> Iterator[str]:
    """Serve a ``BearerProxy`` for ``url``'s server on a free loopback port; yields the proxied URL."""
    origin, _, path = url.partition("://")[2].partition("/")
    runner = BackgroundServer(BearerProxy(f"http://{origin}", token), "127.0.0.1", 0)
    runner.start()
    try:
        yield f"http://127.0.0.1:{runner.port}/{path}"
    finally:
        runner.stop()
