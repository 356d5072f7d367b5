"""``SessionPeers``: every 2025-era HTTP session gets a ``Peer``, in ``peers.CURRENT`` while its requests are served.

A request without a session id (``initialize``) gets a new peer, named by the ``Mcp-Session-Id``
its answer carries (an answer that opens no session drops it); a request with one gets that
session's peer. The SDK starts a session's tasks from the request that opened it, so the
session's handlers and its event store's writes find the peer too (``tools/peers.py``).

A session ends for its peer when it is deleted (``DELETE`` answered with success), when the SDK
answers a request to it with 404 (it expired or never was), or when the session manager says so
(``end``, the fast path). A peer counts its requests under way (an open GET stream holds a session
open) and when it was last seen; a session quiet past the SDK's idle timeout is gone either way
(``Peer.alive``).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jupyter_mcp.tools.peers import CURRENT, Peer
from jupyter_mcp.tools.transports.http.inbound import header

Named = Callable[[Peer], None]


class SessionPeers:
    """The peers of the 2025-era sessions open now (see the module docstring); ``named(peer)`` is told when a
    new session's peer gets its id."""

    def __init__(self, idle_timeout: float | None, named: Named = lambda peer: None) -> None:
        self.idle_timeout = idle_timeout
        """The session manager's: a session quiet this long (no request under way) is gone."""
        self.named = named
        self._peers: dict[str, Peer] = {}

    def get(self, session_id: str) -> Peer | None:
        return self._peers.get(session_id)

    def end(self, session_id: str) -> None:
        """The session is over (its peer is told, once)."""
        peer = self._peers.pop(session_id, None)
        if peer is not None:
            peer.end()

    async def serve(self, scope: Scope, receive: Receive, send: Send, app: ASGIApp) -> None:
        """``app`` answers a 2025-era request with its session's peer current."""
        session_id = header(scope, b"mcp-session-id")
        peer = self._peers.get(session_id) if session_id is not None else None
        if peer is None:
            peer = Peer(session_id)  # new (named by the answer) or unknown (the SDK answers 404)
        peer.last_seen = time.time()
        peer.streams += 1
        token = CURRENT.set(peer)
        try:
            await app(scope, receive, self._watching(scope, peer, send, opening=session_id is None))
        finally:
            CURRENT.reset(token)
            peer.streams -= 1
            peer.last_seen = time.time()

    def _watching(self, scope: Scope, peer: Peer, send: Send, *, opening: bool) -> Callable[[Message], Awaitable[None]]:
        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                self._answered(scope, peer, message, opening=opening)
            await send(message)

        return watched

    def _answered(self, scope: Scope, peer: Peer, start: Message, *, opening: bool) -> None:
        status = int(start["status"])
        if opening:
            named = _session_header(start)
            if named is not None and status < 400 and peer.session_id is None:
                peer.session_id = named
                self._sweep()
                self._peers[named] = peer
                self.named(peer)
            return
        if peer.session_id is not None and (status == 404 or (scope["method"] == "DELETE" and status < 300)):
            self.end(peer.session_id)

    def _sweep(self) -> None:
        """Forget the sessions that ended without a word (an idle expiry), as new ones open."""
        now = time.time()
        for session_id, peer in list(self._peers.items()):
            if not peer.alive(now, self.idle_timeout):
                self.end(session_id)


def _session_header(start: Message) -> str | None:
    for key, value in start.get("headers", ()):
        if key.lower() == b"mcp-session-id":
            return bytes(value).decode("latin-1")
    return None
