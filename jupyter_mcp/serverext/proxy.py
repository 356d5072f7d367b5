"""``/mcp/kernels/<id>`` and ``/mcp/notebooks/<path>``: Jupyter-authenticated reverse proxy to a
kernel's in-kernel MCP server (streamable HTTP, both protocol eras), over whichever carrier reaches
it (``carriers``: loopback HTTP, or the kernel's own channels).

Bodies stream both ways: request chunks go upstream as they arrive (the request is authorized in
``prepare``, before its body is read), response chunks go to the client as they arrive, so SSE
events (progress notifications mid-call, ``subscriptions/listen``, the GET stream) are not held
back. The client's Jupyter credentials stay here; upstream gets the kernel's bearer token.
Loopback exchanges use ``jupyter_mcp._wire`` (the HTTP/1.1 client the ``connect`` bridge uses too;
its module docstring says why it is hand-written and why one client serves both).
"""

from __future__ import annotations

import json
import logging
from asyncio import Future
from collections.abc import Awaitable
from typing import Any

from jupyter_server.base.handlers import APIHandler
from jupyter_server.extension.handler import ExtensionHandlerMixin
from tornado import httputil, web
from tornado.ioloop import IOLoop

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.serverext.carriers.base import Upstream, UpstreamResponse, credentials
from jupyter_mcp.serverext.carriers.registry import Reach
from jupyter_mcp.serverext.directory import NoToolServer, UnknownKernel
from jupyter_mcp.serverext.keepalive import SSEKeepalive
from jupyter_mcp.serverext.oauth.guard import SignInGuard, jupyter_or_grant
from jupyter_mcp.serverext.oauth.signin import SignIn
from jupyter_mcp.serverext.services import Services
from jupyter_mcp.shapes import signedin

logger = logging.getLogger(__name__)

AUTH_RESOURCE = "kernels"
AUTH_ACTION = "execute"  # calling a tool runs code in the kernel

_HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding"}
    | {"upgrade", "proxy-connection"}
)
# Jupyter's credentials and browser context stay on this side; the kernel gets its own token.
_NOT_UPSTREAM = _HOP_BY_HOP | {"host", "authorization", "cookie", "origin", "referer", "x-xsrftoken", "x-xsrf-token"}
_NOT_UPSTREAM |= {signedin.HEADER}  # only this server vouches for a signed-in client
# Date and Server are this server's own; an upstream auth challenge would be about the kernel token.
_NOT_DOWNSTREAM = _HOP_BY_HOP | {"date", "server", "set-cookie", "www-authenticate"}
_SSE = "text/event-stream"
_HEADER_GRACE = 0.05  # seconds an SSE response's headers wait for its first event
_JSONRPC_SERVER_ERROR = -32000
_UNREACHABLE = "Kernel tool server unreachable"
_STOPPED = "Kernel tool server stopped answering"


def upstream_headers(
    incoming: httputil.HTTPHeaders, info: ServerInfo, signed_in: signedin.SignedIn | None = None
) -> httputil.HTTPHeaders:
    """The client's headers minus Jupyter's credentials, plus the kernel's Host and token (and, for a client
    that signed in with Jupyter, who it is)."""
    headers = httputil.HTTPHeaders()
    for name, value in incoming.get_all():
        if name.lower() not in _NOT_UPSTREAM:
            headers.add(name, value)
    for name, value in credentials(info):
        headers[name] = value
    if signed_in is not None:
        headers[signedin.HEADER] = signedin.encode(signed_in)
    return headers


def jsonrpc_error(status: int, message: str) -> str:
    """A JSON-RPC error body: MCP clients show its message instead of a bare HTTP status."""
    error = {"code": _JSONRPC_SERVER_ERROR, "message": message, "data": {"status": status}}
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": error})


class JsonRpcErrors(web.RequestHandler):
    """A handler that MCP clients talk to: its errors are JSON-RPC error bodies, and its answers
    (streams) are never given an ETag."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, web.HTTPError) and error.log_message:
            message = error.log_message % error.args
        else:
            message = self._reason
        self.finish(jsonrpc_error(status_code, message))

    def compute_etag(self) -> None:
        return None


@web.stream_request_body
class ProxyHandler(SignInGuard, JsonRpcErrors, ExtensionHandlerMixin, APIHandler):
    """Base: subclasses say which kernel (``locate``)."""

    SUPPORTED_METHODS = ("GET", "POST", "DELETE", "OPTIONS")
    auth_resource = AUTH_RESOURCE

    def initialize(self, name: str, services: Services) -> None:
        super().initialize(name)
        self.services = services
        self._exchange: Upstream | None = None
        self._keepalive: SSEKeepalive | None = None
        self._header_timer: object | None = None
        self._content_type = ""
        self._client_gone = False
        self._head_sent = False
        """Whether the response's head went out (with the first flush): tornado keeps that to itself."""

    async def locate(self) -> Reach:
        raise NotImplementedError

    def sign_in(self) -> SignIn | None:
        return self.services.signin

    # ---- request: authorize, resolve and open upstream before the body arrives --------------------

    async def prepare(self) -> None:  # type: ignore[override]
        await _maybe(super().prepare())
        if self.request.method != "OPTIONS":
            await _maybe(self._open_upstream())

    @jupyter_or_grant(AUTH_ACTION, AUTH_RESOURCE)
    async def _open_upstream(self) -> None:
        _no_delay(self.request)
        try:
            reach = await self.locate()
        except UnknownKernel as error:
            raise web.HTTPError(404, "%s", error, reason="Unknown kernel or notebook") from None
        except NoToolServer as error:
            raise web.HTTPError(503, "%s", error, reason="No MCP tool server yet") from None
        except ValueError as error:  # the discovery file's URL is none
            raise web.HTTPError(502, "the kernel advertised an unusable URL: %s", error, reason=_UNREACHABLE) from None
        carrier = reach.carrier
        headers = upstream_headers(self.request.headers, reach.info, self.signed_in()).get_all()
        try:
            self._exchange = await carrier.open(self.request.method or "GET", carrier.mcp_path, headers)
        except HttpError as error:
            where = reach.info.url or "over the kernel's channel"
            message = "cannot connect to the kernel's tool server %s: %s"
            raise web.HTTPError(502, message, where, error, reason=_UNREACHABLE) from None

    def data_received(self, chunk: bytes) -> Awaitable[None] | None:
        if self._exchange is None:
            return None
        # A failed upstream write shows up in the response (a 502), not as an error in tornado's body reader.
        return self._exchange.send(chunk)

    # ---- verbs ---------------------------------------------------------------------------------------

    @jupyter_or_grant(AUTH_ACTION, AUTH_RESOURCE)
    async def post(self, **_: str) -> None:
        await self._relay()

    @jupyter_or_grant(AUTH_ACTION, AUTH_RESOURCE)
    async def get(self, **_: str) -> None:
        await self._relay()

    @jupyter_or_grant(AUTH_ACTION, AUTH_RESOURCE)
    async def delete(self, **_: str) -> None:
        await self._relay()

    async def _relay(self) -> None:
        exchange = self._exchange
        assert exchange is not None
        try:
            exchange.end_request()
            response = await exchange.response()
            self.start(response)
            async for chunk in response.chunks():
                if (slow_client := self.body(chunk)) is not None:
                    await slow_client
        except HttpError as error:
            if not self._client_gone:
                self._upstream_failed(error)
            return
        finally:
            self._stop_keepalive()
        if not self._client_gone:
            self.finish(set_content_type=self._content_type or "application/json")

    def _upstream_failed(self, error: HttpError) -> None:
        if not self._head_sent:
            raise web.HTTPError(502, "the kernel's tool server stopped answering: %s", error, reason=_STOPPED)
        # Mid-response: end the client's connection without a clean end, so it sees a cut stream.
        logger.info("upstream ended mid-response: %s", error)
        self.request.connection.close()  # type: ignore[union-attr]

    # ---- response -----------------------------------------------------------------------------------

    def start(self, response: UpstreamResponse) -> None:
        self.set_status(response.status, response.reason)
        self.clear_header("Content-Type")
        for name, value in response.fields:
            if name.lower() not in _NOT_DOWNSTREAM:
                self.add_header(name, value)
        self._content_type = response.headers.get("content-type", "")
        if self._content_type.startswith(_SSE):
            self._keepalive = SSEKeepalive(self.services.keepalive_interval, self._write_now)
            # Headers go out with the first event (one write instead of two), or alone if it is slow to come.
            self._header_timer = IOLoop.current().call_later(_HEADER_GRACE, self._flush_headers)

    def body(self, chunk: bytes) -> Awaitable[None] | None:
        if self._keepalive is not None:
            self._keepalive.passed(chunk)
        self._cancel_header_timer()
        self.write(chunk)
        return self._flush_or_drop()

    def _flush_headers(self) -> None:
        self._header_timer = None
        if not self._head_sent:
            self._flush_or_drop()

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            IOLoop.current().remove_timeout(self._header_timer)
            self._header_timer = None

    def _write_now(self, chunk: bytes) -> None:
        if chunk:
            self.write(chunk)
        self._flush_or_drop()

    def _flush_or_drop(self) -> Future[None] | None:
        """Flush to the client. A future only when the client is slow to take the data (back-pressure):
        waiting on an already-finished write would cost the relay a loop turn per chunk."""
        if self._client_gone:
            return None
        self._head_sent = True
        flushed = self.flush()
        if flushed.done():
            self._flushed(flushed)
            return None
        sent: Future[None] = Future()
        flushed.add_done_callback(lambda done: self._flushed(done, sent))
        return sent

    def _flushed(self, flushed: Future[None], sent: Future[None] | None = None) -> None:
        if flushed.exception() is not None:  # StreamClosedError: the client went away
            self.on_connection_close()
        if sent is not None:
            sent.set_result(None)

    # ---- the client went away -------------------------------------------------------------------------

    def on_connection_close(self) -> None:
        self._client_gone = True
        self._stop_keepalive()
        if self._exchange is not None:
            self._exchange.close()

    def on_finish(self) -> None:
        # An exchange the relay did not complete (an error, a refused body) must not leak its socket;
        # after a completed one this is a no-op (the connection went back to the pool).
        if self._exchange is not None:
            self._exchange.close()

    def _stop_keepalive(self) -> None:
        self._cancel_header_timer()
        if self._keepalive is not None:
            self._keepalive.stop()
            self._keepalive = None


class KernelProxyHandler(ProxyHandler):
    """``/mcp/kernels/<kernel_id>``: one kernel, for as long as it runs."""

    async def locate(self) -> Reach:
        return await self.services.directory.server_of_kernel(self.path_kwargs["kernel_id"])


class NotebookProxyHandler(ProxyHandler):
    """``/mcp/notebooks/<path>``: whatever kernel the notebook has now (survives restarts)."""

    async def locate(self) -> Reach:
        return await self.services.directory.server_of_notebook(self.path_kwargs["path"])


async def _maybe(result: Awaitable[None] | None) -> None:
    if result is not None:
        await result


def _no_delay(request: httputil.HTTPServerRequest) -> None:
    """Small SSE events go out at once instead of waiting for the client's delayed ACK."""
    stream = getattr(request.connection, "stream", None)
    if stream is not None and not stream.closed():
        stream.set_nodelay(True)
