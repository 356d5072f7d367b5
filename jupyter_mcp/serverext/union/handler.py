"""``<base_url>/mcp`` and ``<base_url>/mcp/scope/<notebooks>``: the union's HTTP handler, Jupyter's auth.

Thin: it reads the request (with the client's scope), asks the router, and writes the reply — a
JSON body, or an SSE stream written event by event as the router yields it (with keepalive
comments while it is quiet, as the proxy routes send them). A client that goes away stops the
stream, which closes the kernel's stream behind it (2026 era: that is how a call is cancelled).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Coroutine
from typing import Any

from jupyter_server.base.handlers import APIHandler
from jupyter_server.extension.handler import ExtensionHandlerMixin
from tornado import web
from tornado.iostream import StreamClosedError

from jupyter_mcp._wire.sse import line_safe
from jupyter_mcp.serverext.keepalive import SSEKeepalive
from jupyter_mcp.serverext.oauth.guard import SignInGuard, jupyter_or_grant
from jupyter_mcp.serverext.oauth.signin import SignIn
from jupyter_mcp.serverext.proxy import JsonRpcErrors
from jupyter_mcp.serverext.services import Services
from jupyter_mcp.serverext.union.live.scope import BadScope, Scope
from jupyter_mcp.serverext.union.routing.legacy import Legacy
from jupyter_mcp.serverext.union.routing.modern import Modern
from jupyter_mcp.serverext.union.routing.replies import Reply
from jupyter_mcp.serverext.union.routing.router import Incoming, is_modern

AUTH_RESOURCE = "kernels"
AUTH_ACTION = "execute"  # calling a tool runs code in a kernel


class UnionHandler(SignInGuard, JsonRpcErrors, ExtensionHandlerMixin, APIHandler):
    """Every notebook's tools, resources and prompts as one MCP server (streamable HTTP, both eras)."""

    SUPPORTED_METHODS = ("GET", "POST", "DELETE")
    auth_resource = AUTH_RESOURCE

    def initialize(self, name: str, services: Services) -> None:
        super().initialize(name)
        self.services = services
        self._pump: asyncio.Task[None] | None = None
        self._gone = False

    def sign_in(self) -> SignIn | None:
        return self.services.signin

    @jupyter_or_grant(AUTH_ACTION, AUTH_RESOURCE)
    async def post(self, scope: str | None = None) -> None:
        incoming = self._incoming(scope)
        union = self.services.union
        router = Modern(union) if is_modern(incoming) else Legacy(union)
        await self._until_gone(self._answer(router.post(incoming)))

    async def _answer(self, reply: Awaitable[Reply]) -> None:
        await self._send(await reply)

    async def _until_gone(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` until it is done or the client goes (which cancels it: the kernel then sees its
        stream close, which is how a 2026-era call is cancelled)."""
        self._pump = asyncio.ensure_future(work)
        with contextlib.suppress(asyncio.CancelledError):
            await self._pump

    @jupyter_or_grant(AUTH_ACTION, AUTH_RESOURCE)
    async def get(self, scope: str | None = None) -> None:
        incoming = self._incoming(scope)
        if is_modern(incoming):
            self.set_header("Allow", "POST")
            await self._send(Reply(405))
            return
        await self._until_gone(self._answer(Legacy(self.services.union).get(incoming)))

    @jupyter_or_grant(AUTH_ACTION, AUTH_RESOURCE)
    async def delete(self, scope: str | None = None) -> None:
        incoming = self._incoming(scope)
        if is_modern(incoming):
            self.set_header("Allow", "POST")
            await self._send(Reply(405))
            return
        await self._send(await Legacy(self.services.union).delete(incoming))

    def _incoming(self, scope: str | None) -> Incoming:
        try:
            parsed = Scope.parse(self.request.query, scope)
            if self.grant is not None:
                parsed = parsed.bounded(self.grant.choices.notebooks)
        except BadScope as error:
            raise web.HTTPError(400, "%s", error, reason="Bad scope") from None
        headers = [(name.lower(), value) for name, value in self.request.headers.get_all()]
        return Incoming(headers, self.request.body, parsed, self._principal(), self.signed_in())

    def _principal(self) -> str:
        """Who a 2025-era session belongs to: the user, or (for the server's own token, which Jupyter gives a
        new anonymous user on every request without its cookie) that token's holder, or a signed-in client's grant."""
        if self.grant is not None:
            return f"grant {self.grant.grant_id}"
        provider = self.identity_provider
        server_token = getattr(provider, "token", None)
        if server_token and provider.get_token(self) == server_token:
            return "holder of the server's token"
        user = self.current_user
        return str(getattr(user, "username", None) or user)

    # ---- writing --------------------------------------------------------------------------------------

    async def _send(self, reply: Reply) -> None:
        self.set_status(reply.status)
        for name, value in reply.headers.items():
            self.set_header(name, value)
        if reply.events is not None:
            await self._stream(reply)
            return
        if reply.body is not None:
            self.set_header("Content-Type", reply.headers.get("Content-Type", "application/json"))
            self.finish(reply.body)
        else:
            self.finish()

    async def _stream(self, reply: Reply) -> None:
        events = reply.events
        assert events is not None
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("Cache-Control", "no-cache, no-transform")
        self.set_header("X-Accel-Buffering", "no")
        keepalive = SSEKeepalive(self.services.keepalive_interval, self._write_quietly)
        try:
            async for message in events:
                chunk = b"event: message\r\ndata: " + _one_line(message) + b"\r\n\r\n"
                keepalive.passed(chunk)
                self.write(chunk)
                await self.flush()
        except StreamClosedError:
            self._gone = True
        finally:
            keepalive.stop()
            with contextlib.suppress(Exception):
                await events.aclose()  # type: ignore[attr-defined]
        if not self._gone:
            self.finish()

    def _write_quietly(self, chunk: bytes) -> None:
        if not self._gone:
            self.write(chunk)
            self.flush()

    def on_connection_close(self) -> None:
        self._gone = True
        if self._pump is not None:
            self._pump.cancel()


def _one_line(message: bytes) -> bytes:
    """An SSE ``data`` line cannot hold a line break: a pretty-printed message is re-encoded compactly, and
    what line readers break at goes as escapes (``line_safe``)."""
    if b"\n" in message or b"\r" in message:
        message = json.dumps(json.loads(message), separators=(",", ":"), ensure_ascii=False).encode()
    return line_safe(message)
