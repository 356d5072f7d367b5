"""``Peer``: a 2025-era client's connection as the protocol core sees it, on the SDK's public API only.

A handler needs to know which connection a request came on (to keep a session's resource
subscriptions and log level, to list who is connected, to tell a session that a list changed).
Whatever carries the connection gives it a peer and puts it in ``CURRENT`` before the SDK serves:
the HTTP app's front, one per 2025-era session (``transports/http/peering.py``); a loop transport
(stdio, in memory), one per ``Server.run`` (``serving_peer``). The SDK runs each request's handler
in the context of whoever handed it the message (its dispatcher's documented rule: the HTTP
request's task), else in its own task's, so every handler of the connection finds the same peer
(``peer_of``).

A peer tells the client something through the last request's ``ServerSession``, whose
notifications without a related request go on the connection's standalone channel.

Example::

    peer = peer_of(ctx)
    if peer is not None:
        peer.state["jupyter_mcp.log_level"] = "info"
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from typing import Any

import anyio
import mcp_types as mt
from mcp.server.context import ServerRequestContext
from mcp.server.session import ServerSession
from mcp.shared.message import SessionMessage

logger = logging.getLogger(__name__)

LOG_LEVEL_STATE_KEY = "jupyter_mcp.log_level"
"""Where a 2025-era session keeps the level it set (``logging/setLevel``)."""


class Peer:
    """One client connection (see the module docstring); ``session_id`` is its 2025-era HTTP session, if any."""

    def __init__(self, session_id: str | None = None) -> None:
        self.session_id = session_id
        self.state: dict[str, Any] = {}
        """Per-connection scratch state: it lives as long as the connection."""
        self.session: ServerSession | None = None
        """The last request's session: what the client is told goes through it."""
        self.last_seen = time.time()
        self.streams = 0
        """Requests of this connection under way (an open GET stream holds a session open)."""
        self.ended = False
        self._on_end: list[Callable[[], None]] = []

    def on_end(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` when the connection ends (at once if it has)."""
        if self.ended:
            callback()
        else:
            self._on_end.append(callback)

    def end(self) -> None:
        """The connection is over: say so once to whoever asked (``on_end``)."""
        if self.ended:
            return
        self.ended = True
        callbacks, self._on_end = self._on_end, []
        for callback in callbacks:
            try:
                callback()
            except Exception:
                logger.exception("a callback for the end of a connection failed")

    def alive(self, now: float, idle_timeout: float | None) -> bool:
        """Whether the connection may still be open: not ended, and busy or seen within ``idle_timeout`` seconds
        (after which the SDK has closed an idle session, whether or not anyone here heard of it)."""
        if self.ended:
            return False
        return idle_timeout is None or self.streams > 0 or now - self.last_seen <= idle_timeout

    @property
    def client_info(self) -> mt.Implementation | None:
        params = self.session.client_params if self.session is not None else None
        return params.client_info if params is not None else None

    async def send(self, method: str, *args: Any) -> None:
        """``method`` of the connection's ``ServerSession`` (``send_tool_list_changed``, ``send_resource_updated``);
        a connection that can no longer be told anything has ended."""
        session = self.session
        if session is None or self.ended:
            return
        try:
            await getattr(session, method)(*args)
        except Exception:
            logger.debug("could not tell a client %s; its connection is gone", method, exc_info=True)
            self.end()


CURRENT: ContextVar[Peer | None] = ContextVar("jupyter_mcp_peer", default=None)
"""The peer of the connection the running request came on (set by its transport)."""


def peer_of(request: ServerRequestContext[Any, Any]) -> Peer | None:
    """The peer of the connection ``request`` came on (``None``: a 2026-era request, which has none)."""
    peer = CURRENT.get()
    if peer is not None:
        peer.session = request.session
    return peer


def client_implementation(request: ServerRequestContext[Any, Any]) -> mt.Implementation | None:
    """The client's ``clientInfo``, in either era."""
    params = request.session.client_params
    return params.client_info if params is not None else None


@contextlib.asynccontextmanager
async def serving_peer(read_stream: Any) -> AsyncIterator[Any]:
    """A loop transport's connection gets a peer while it runs: its messages (``SessionMessage`` or ``Exception``,
    from the stream ``Server.run`` is given) are handed on through a plain stream
    from a task that holds the peer, so the SDK runs their handlers in that task's context (``peer_of`` finds it)
    rather than in the sender's (an in-memory client's task, stdio's reader)."""
    peer = Peer()
    token = CURRENT.set(peer)
    send, receive = anyio.create_memory_object_stream[SessionMessage | Exception]()

    async def relay() -> None:
        async with send:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                async for item in read_stream:
                    await send.send(item)

    try:
        async with anyio.create_task_group() as tasks, receive:
            tasks.start_soon(relay)
            yield receive
            tasks.cancel_scope.cancel()
    finally:
        peer.end()
        with contextlib.suppress(ValueError):  # unwound in another context: nothing left to reset there
            CURRENT.reset(token)
