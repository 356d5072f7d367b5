"""Requests to one URL over pooled connections, each body sent in one piece: the bridge's client.

A thin layer on ``Exchange`` (see ``http`` for why the client is hand-written): fixed base headers
encoded once, and the one retry rule of the bridge: a request that a stale kept-alive connection
lost goes again on a fresh one only when it is ``repeatable`` (never a tool call).
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp._wire.http import Exchange, Response, encode_headers
from jupyter_mcp._wire.origin import split_url

_IDLE_TIMEOUT = 2.0
"""Seconds an idle connection stays reusable: well under servers' keep-alive timeouts (uvicorn: 5 s)."""


class HttpClient:
    """Requests to one URL with fixed base headers.

    Example::

        client = HttpClient("http://127.0.0.1:8888/mcp", {"authorization": "Bearer t"})
        response = await client.request("POST", {"content-type": "application/json"}, b"{}")
        body = await response.read()
    """

    def __init__(self, url: str, headers: Mapping[str, str] | None = None) -> None:
        self.url = url
        self.origin, self.target = split_url(url)
        self._preset = encode_headers([("host", self.origin.host_header), *(headers or {}).items()])
        self._pool = ConnectionPool(idle_timeout=_IDLE_TIMEOUT, max_idle=64)

    async def request(
        self, method: str, headers: Mapping[str, str], body: bytes = b"", *, repeatable: bool = True
    ) -> Response:
        """Send a request and read the response head.

        A kept-alive connection that breaks before answering may have been closed by the server
        while idle; a ``repeatable`` request then goes once more on a fresh connection, while any
        other counts as sent (the server may have run it).
        """
        fields = [*headers.items(), ("content-length", str(len(body)))] if body or method == "POST" else headers.items()
        exchange = await self._open(method, fields, fresh=False)
        try:
            return await _send(exchange, body)
        except HttpError as exc:
            if exc.sent or not exchange.reused:
                raise
            if not repeatable:
                raise HttpError(str(exc), sent=True) from exc
        return await _send(await self._open(method, fields, fresh=True), body)

    def _open(self, method: str, fields: Iterable[tuple[str, str]], *, fresh: bool) -> Awaitable[Exchange]:
        return Exchange.open(self._pool, self.origin, method, self.target, fields, preset=self._preset, fresh=fresh)

    def close(self) -> None:
        self._pool.close()


def _send(exchange: Exchange, body: bytes) -> Awaitable[Response]:
    exchange.send(body)
    exchange.end_request()
    return exchange.response()
