"""One JSON-RPC message to a kernel's own MCP endpoint, and the messages of its answer.

The union reaches kernels the way the proxy routes do (the kernel's ``Carrier``: loopback HTTP on
the extension's connection pool, or the kernel's own channel; the kernel's bearer token), but
message by message: it reads each answer (a JSON body or an SSE stream) to rewrite names on the way
back.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from typing import Any

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp._wire.sse import EventParser
from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.serverext.carriers.base import Carrier, UpstreamResponse, credentials

ACCEPT = "application/json, text/event-stream"
SESSION_HEADER = "mcp-session-id"
VERSION_HEADER = "mcp-protocol-version"


async def post(
    carrier: Carrier, info: ServerInfo, body: bytes, headers: Iterable[tuple[str, str]] = ()
) -> UpstreamResponse:
    """POST ``body`` to the kernel's MCP endpoint; the response head (``HttpError`` if unreachable).

    A kept-alive connection the kernel had closed while idle fails before anything was sent: the
    message then goes once more on a fresh connection (never twice to the kernel).
    """
    fields = [
        *credentials(info),
        ("Content-Type", "application/json"),
        ("Accept", ACCEPT),
        *headers,
        ("Content-Length", str(len(body))),
    ]
    try:
        return await _send(carrier, "POST", fields, body)
    except HttpError as error:
        if error.sent:
            raise
    return await _send(carrier, "POST", fields, body)


async def _send(carrier: Carrier, method: str, fields: list[tuple[str, str]], body: bytes = b"") -> UpstreamResponse:
    exchange = await carrier.open(method, carrier.mcp_path, fields)
    try:
        if body:
            exchange.send(body)
        exchange.end_request()
        return await exchange.response()
    except BaseException:
        exchange.close()
        raise


async def get_stream(carrier: Carrier, info: ServerInfo, headers: Iterable[tuple[str, str]]) -> UpstreamResponse:
    """Open a 2025-era session's GET stream (server messages outside any request, or a resumed one)."""
    return await _send(carrier, "GET", [*credentials(info), ("Accept", "text/event-stream"), *headers])


async def delete(carrier: Carrier, info: ServerInfo, headers: Iterable[tuple[str, str]]) -> None:
    """End a 2025-era session (errors ignored: the kernel may be gone already)."""
    try:
        await (await _send(carrier, "DELETE", [*credentials(info), *headers])).read()
    except HttpError:
        return


async def messages(response: UpstreamResponse) -> AsyncIterator[bytes]:
    """Each JSON-RPC message of a response body as it arrives (a JSON body, or SSE ``message`` events).

    The response is closed when the caller stops early, so the kernel sees the client go.
    """
    async for _, data in events(response):
        yield data


async def events(response: UpstreamResponse) -> AsyncIterator[tuple[bytes, bytes]]:
    """``messages`` with each one's SSE event id (empty for a JSON body): where a stream can resume."""
    try:
        if response.content_type == "text/event-stream":
            parser = EventParser()
            async for chunk in response.chunks():
                for event in parser.feed(chunk):
                    if event.data and event.event == b"message":  # a resumption primer carries nothing
                        yield event.id, event.data
                    elif event.id:
                        yield event.id, b""
        elif body := await response.read():
            yield b"", body
    finally:
        response.close()


async def answer(response: UpstreamResponse, request_id: Any) -> dict[str, Any]:
    """The answer to ``request_id`` in a response (other messages skipped); ``HttpError`` if none came."""
    async for data in messages(response):
        try:
            message = json.loads(data)
        except ValueError:
            continue
        if isinstance(message, dict) and "method" not in message and message.get("id") == request_id:
            return message
    raise HttpError(f"the kernel answered HTTP {response.status} without a JSON-RPC answer", sent=True)
