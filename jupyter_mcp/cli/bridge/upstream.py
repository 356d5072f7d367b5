"""One connection of the bridge to one server: HTTP client, 2025-era session, status checks.

A ``Link`` lives as long as its server does; after a kernel restart the bridge opens a new one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from jupyter_mcp._wire.client import HttpClient
from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp._wire.http import Response
from jupyter_mcp._wire.sse import EventParser
from jupyter_mcp.cli.bridge.locator import Endpoint

logger = logging.getLogger(__name__)

SESSION_HEADER = "mcp-session-id"
VERSION_HEADER = "mcp-protocol-version"
_BASE_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
_REFUSED = {401: "rejected the bridge's token", 403: "refused the request", 421: "refused the Host header"}


class Unreachable(Exception):
    """The server did not take the message; ``sent`` when it may have run it anyway."""

    def __init__(self, reason: str, *, sent: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.sent = sent


class Link:
    """HTTP to one server, plus the 2025-era session the bridge holds there (if any)."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        auth = {"authorization": f"Bearer {endpoint.token}"} if endpoint.token else {}
        self.http = HttpClient(endpoint.url, {**_BASE_HEADERS, **auth})
        self.session_id: str | None = None
        self.protocol_version: str | None = None
        self.session_ready = False
        """Whether the 2025-era handshake was done here (by the client or replayed by the bridge)."""
        self.stream_task: asyncio.Task[None] | None = None
        """The session's GET stream (2025 era)."""
        self.closed = False

    def session_headers(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        if self.session_id:
            headers[SESSION_HEADER] = self.session_id
        if self.protocol_version:
            headers[VERSION_HEADER] = self.protocol_version
        return headers

    async def post(self, body: bytes, headers: dict[str, str], *, repeatable: bool = True) -> Response:
        """POST one message; statuses that mean "not this server (any more)" raise ``Unreachable``.

        ``repeatable=False`` for a message that must not run twice (a tool call).
        """
        return await self._send("POST", headers, body, repeatable=repeatable)

    async def probe(self) -> None:
        """Check that the server answers and takes the token, before a client message needs it.

        A GET without a session is harmless on any streamable HTTP server: it answers 400 or 405, or
        opens a stream this closes at once.
        """
        response = await self._send("GET", {"accept": "text/event-stream"})
        response.close()
        if response.status >= 500:  # a gateway (a Jupyter server's route) with no MCP server behind it now
            raise Unreachable(
                f"{self.endpoint.name} answered {_status(response)}: no MCP server behind it now", sent=False
            )

    async def get_stream(self) -> Response:
        return await self._send("GET", {**self.session_headers(), "accept": "text/event-stream"})

    async def _send(
        self, method: str, headers: dict[str, str], body: bytes = b"", *, repeatable: bool = True
    ) -> Response:
        try:
            response = await self.http.request(method, headers, body, repeatable=repeatable)
        except HttpError as exc:
            hint = "" if exc.sent else "; its kernel may be restarting or gone"
            raise Unreachable(f"{self.endpoint.name} is not answering ({exc}){hint}", sent=exc.sent) from exc
        problem = self._problem(response, headers)
        if problem is not None:
            response.close()
            raise Unreachable(f"{self.endpoint.name} {problem}", sent=False)
        return response

    def _problem(self, response: Response, headers: dict[str, str]) -> str | None:
        status = response.status
        if status in _REFUSED:
            return f"{_REFUSED[status]} (HTTP {status})"
        if status == 404 and SESSION_HEADER in headers:
            return "no longer knows the bridge's session (HTTP 404): the server was restarted"
        if status == 404:
            return f"answered {_status(response)}: nothing serves MCP at that path now; check the URL"
        return None

    async def terminate(self) -> None:
        """End the 2025-era session politely (DELETE), ignoring a server that is already gone."""
        if self.session_id is None:
            return
        try:
            response = await self.http.request("DELETE", self.session_headers())
            await response.read()
        except HttpError:
            logger.debug("could not end the session at %s", self.endpoint.url)

    async def payloads(self, response: Response) -> AsyncIterator[bytes]:
        """Each JSON-RPC message in a response body, as it arrives (a JSON body or SSE events)."""
        try:
            if response.content_type == "application/json":
                if body := await response.read():
                    yield body
            elif response.content_type == "text/event-stream":
                parser = EventParser()
                async for chunk in response.chunks():
                    for event in parser.feed(chunk):
                        if event.data and event.event == b"message":  # a resumption primer carries nothing
                            yield event.data
            else:
                await response.read()
        except HttpError as exc:
            raise Unreachable(f"{self.endpoint.name} broke off its answer ({exc})", sent=True) from exc
        finally:
            response.close()

    def close(self) -> None:
        self.closed = True
        if self.stream_task is not None and self.stream_task is not asyncio.current_task():
            self.stream_task.cancel()
        self.http.close()


def _status(response: Response) -> str:
    """``HTTP 503 (No MCP tool server yet)``: the status with the server's reason phrase."""
    return f"HTTP {response.status} ({response.reason})" if response.reason else f"HTTP {response.status}"
