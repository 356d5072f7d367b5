"""List requests answered from bytes in both eras: ``tools/list`` and the other lists, cached since they changed.

A list of 1,001 tools is about half a megabyte of JSON; validating, dumping and encoding it again
for every request cost the SDK ~50 ms of CPU, and dumping the cached dict through its response
models still ~20 ms. The protocol core's ``ListCache`` keeps each list's wire form and encodes it
once (with an ETag); ``ListReplies`` answers a repeated list request with those bytes:

- 2026 era: ``StatelessEntry`` asks ``modern()`` once the SDK's checks of the request passed.
- 2025 era (a fast path: ``session_open`` comes from the SDK adapter's session manager): a list
  request in an open session goes out as a JSON body (the spec lets a server answer any POST with
  JSON or an SSE stream; a list sends nothing before its answer, so a stream would carry that one
  event). The session is the SDK's: it must be open to the request's credential (its idle clock is
  reset as a request to it would); anything else, and any list not cached yet, goes to the SDK.

The client is counted as seen either way (the panels list who is connected).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from mcp_types import RequestId
from starlette.types import Scope, Send

from jupyter_mcp.tools import codec
from jupyter_mcp.tools.peers import CURRENT
from jupyter_mcp.tools.protocol.listcache import envelope_capabilities


class CachedLists(Protocol):
    """Finished list answers as bytes (the server's ``ListCache``)."""

    def encoded(
        self, method: str, version: str, params: Mapping[str, Any] | None, capabilities: Mapping[str, Any] | None
    ) -> tuple[bytes, str] | None:
        """The result's JSON and its validator (an ETag), if this exact list is cached for a client declaring
        ``capabilities`` (lists differ by what a client renders: MCP Apps)."""
        ...


class Sessions(Protocol):
    """Who is connected (the server's ``ClientTracker``)."""

    def seen_modern(self, name: str, version: str, protocol_version: str) -> None: ...


class ListReplies:
    """See the module docstring; ``session_open(scope, id)`` says whether the SDK still serves that session to
    this request's credential (``None``: 2025-era lists go to the SDK)."""

    def __init__(
        self, lists: CachedLists, sessions: Sessions, session_open: Callable[[Scope, str], bool] | None = None
    ) -> None:
        self.lists = lists
        self.sessions = sessions
        self.session_open = session_open

    async def modern(self, send: Send, message: dict[str, Any], protocol_version: str, client_info: Any) -> bool:
        """Answer a checked 2026-era list request from bytes; ``False`` if it is not cached."""
        params = message.get("params")
        hit = self.lists.encoded(message["method"], protocol_version, params, envelope_capabilities(params))
        if hit is None:
            return False
        info = client_info if isinstance(client_info, dict) else {}
        name, version = info.get("name"), info.get("version")
        if isinstance(name, str) and isinstance(version, str):
            self.sessions.seen_modern(name, version, protocol_version)
        await _send_list(send, message["id"], *hit)
        return True

    async def in_session(self, scope: Scope, send: Send, message: dict[str, Any]) -> bool:
        """Answer a 2025-era list request in an open session from bytes; ``False`` to leave it to the SDK."""
        peer = CURRENT.get()  # the request's session, as SessionPeers found it
        session, session_id = (peer.session, peer.session_id) if peer is not None else (None, None)
        if self.session_open is None or session is None or session_id is None:
            return False
        declared = session.client_capabilities
        capabilities = declared.model_dump(by_alias=True, exclude_none=True) if declared is not None else None
        hit = self.lists.encoded(message["method"], session.protocol_version, message.get("params"), capabilities)
        if hit is None or not self.session_open(scope, session_id):
            return False
        await _send_list(send, message["id"], *hit, session_id=session_id)
        return True


async def _send_list(send: Send, request_id: RequestId, result: bytes, etag: str, *, session_id: str = "") -> None:
    body = b'{"jsonrpc":"2.0","id":' + codec.dumps(request_id) + b',"result":' + result + b"}"
    extra = [(b"etag", etag.encode("latin-1"))]
    if session_id:
        extra.append((b"mcp-session-id", session_id.encode("latin-1")))
    await send_json(send, 200, body, extra)


async def send_json(send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """One ``application/json`` response."""
    headers = [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json"), *(extra or ())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
