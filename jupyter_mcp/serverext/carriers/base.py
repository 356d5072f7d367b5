"""What a carrier is: "send this HTTP-shaped request to that kernel, stream the response back".

The proxy routes, the forwarded approvals and questions, the status the REST API shows (and the
one-address router) all speak to a kernel's MCP app through a ``Carrier``; which one a kernel gets
is the directory's choice (``carriers.registry``). Both carriers have the surface of
``jupyter_mcp._wire``'s ``Exchange`` and ``Response``, so their callers do not know which they use,
and both raise ``HttpError`` when a request cannot be completed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Iterable
from typing import Protocol
from urllib.parse import urlsplit

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp._wire.http import Exchange
from jupyter_mcp._wire.origin import split_url
from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.shapes.rest import CarrierName


class UpstreamResponse(Protocol):
    """A response's head, and its body as it arrives."""

    status: int
    reason: str
    fields: list[tuple[str, str]]
    headers: dict[str, str]

    @property
    def content_type(self) -> str: ...

    def chunks(self) -> AsyncIterator[bytes]: ...

    async def read(self) -> bytes: ...

    def close(self) -> None: ...


class Upstream(Protocol):
    """One request on its way: body pieces, its end, then the response."""

    def send(self, chunk: bytes) -> Awaitable[None] | None: ...

    def end_request(self) -> None: ...

    async def response(self) -> UpstreamResponse: ...

    def close(self) -> None: ...


class Carrier(Protocol):
    """How requests reach one kernel's MCP app."""

    name: CarrierName
    mcp_path: str
    """The MCP endpoint's path on the kernel's app."""

    async def open(self, method: str, target: str, headers: Iterable[tuple[str, str]]) -> Upstream:
        """Start a request (``HttpError``, never sent, when the kernel cannot be reached)."""
        ...


def credentials(info: ServerInfo) -> list[tuple[str, str]]:
    """The Host and bearer token the kernel's app expects (its loopback address over the kernel channel)."""
    host = urlsplit(info.url).netloc if info.url else "127.0.0.1"
    return [("Host", host), ("Authorization", f"Bearer {info.token}")]


class HttpCarrier:
    """Loopback HTTP to the kernel's own port, on the extension's connection pool."""

    name: CarrierName = "http"

    def __init__(self, pool: ConnectionPool, info: ServerInfo) -> None:
        self.pool = pool
        self.origin, _ = split_url(info.url)
        self.mcp_path = urlsplit(info.url).path or "/mcp"

    async def open(self, method: str, target: str, headers: Iterable[tuple[str, str]]) -> Upstream:
        return await Exchange.open(self.pool, self.origin, method, target, headers)
