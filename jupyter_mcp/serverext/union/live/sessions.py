"""2025-era client sessions of the union, and each one's sessions with the kernels it reaches.

A client's ``initialize`` opens a session here; the first request that goes to a notebook opens
a session with that notebook's kernel, replaying the client's handshake (so the kernel knows the
client by its own name and capabilities, and its sampling and elicitation requests can reach it).
A kernel's requests to the client get ids of the union's own (two kernels may both use id 0), and
the client's answers go back to the kernel that asked.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.serverext.union.live import upstream
from jupyter_mcp.serverext.union.live.members import Member
from jupyter_mcp.serverext.union.live.scope import Scope

_OUTBOX = 1000
"""Messages kept for a session's GET stream while the client has none open (the oldest go first)."""
_IDLE = 3600.0
"""Seconds a session without requests and without a GET stream is kept (clients seldom DELETE)."""
_ids = itertools.count(1)


class LinkFailed(Exception):
    """The kernel would not open a session for the client (its message says why)."""


@dataclass
class Link:
    """The client's session with one kernel."""

    member: Member
    session_id: str | None = None
    protocol_version: str | None = None
    stream: asyncio.Task[None] | None = None
    """The kernel session's GET stream (opened once the client subscribes to one of its resources)."""
    vouched: tuple[tuple[str, str], ...] = ()
    """What tells the kernel who a signed-in client is, on every request of the session."""

    def headers(self) -> list[tuple[str, str]]:
        found = list(self.vouched)
        if self.session_id:
            found.append(("Mcp-Session-Id", self.session_id))
        if self.protocol_version:
            found.append(("Mcp-Protocol-Version", self.protocol_version))
        return found


@dataclass
class ClientSession:
    """One 2025-era client of the union."""

    id: str
    user: str
    scope: Scope
    initialize: dict[str, Any]
    """The client's ``initialize`` params, replayed to each kernel."""
    protocol_version: str
    vouched: tuple[tuple[str, str], ...] = ()
    """A signed-in client's: the header that names it (by its grant) to each kernel."""
    initialized: bool = False
    log_level: dict[str, Any] | None = None
    links: dict[tuple[object, ...], asyncio.Task[Link]] = field(default_factory=dict)
    inflight: dict[str, Link] = field(default_factory=dict)
    """The client's request id (as JSON) -> the kernel working on it (for ``notifications/cancelled``)."""
    asked: dict[str, tuple[Link, Any]] = field(default_factory=dict)
    """A kernel request's id as the client knows it -> the kernel and its own id for it."""
    outbox: asyncio.Queue[bytes] = field(default_factory=lambda: asyncio.Queue(_OUTBOX))
    streaming: bool = False
    last_seen: float = field(default_factory=time.monotonic)

    @property
    def client_name(self) -> str:
        info = self.initialize.get("clientInfo")
        return str(info.get("name", "")) if isinstance(info, dict) else ""

    @property
    def capabilities(self) -> str:
        """The client's capabilities as JSON (what lists are cached by)."""
        found = self.initialize.get("capabilities")
        return json.dumps(found if isinstance(found, dict) else {}, sort_keys=True)

    def tell(self, message: bytes) -> None:
        """Queue a message for the client's GET stream."""
        if self.outbox.full():
            self.outbox.get_nowait()
        self.outbox.put_nowait(message)

    def ask(self, link: Link, original: Any) -> str:
        """A union id for a kernel's request to the client."""
        asked = f"jupyter-mcp-{next(_ids)}"
        self.asked[asked] = (link, original)
        return asked


class Sessions:
    """The union's 2025-era client sessions, by id."""

    def __init__(self) -> None:
        self._sessions: dict[str, ClientSession] = {}
        self._closing: set[asyncio.Task[None]] = set()

    def open(
        self, user: str, scope: Scope, initialize: dict[str, Any], version: str, vouched: list[tuple[str, str]]
    ) -> ClientSession:
        self._expire()
        session = ClientSession(uuid.uuid4().hex, user, scope, initialize, version, tuple(vouched))
        self._sessions[session.id] = session
        return session

    def get(self, session_id: str, user: str) -> ClientSession | None:
        """The session, if it exists and belongs to ``user`` (another user's is as good as unknown)."""
        session = self._sessions.get(session_id)
        if session is None or session.user != user:
            return None
        session.last_seen = time.monotonic()
        return session

    def __iter__(self) -> Any:
        return iter(list(self._sessions.values()))

    async def close(self, session: ClientSession) -> None:
        self._sessions.pop(session.id, None)
        await asyncio.gather(*(self._end(task) for task in session.links.values()))

    def forget_member(self, identity: tuple[object, ...]) -> None:
        """A kernel went away: its sessions with clients went with it."""
        for session in self._sessions.values():
            task = session.links.pop(identity, None)
            if task is not None and task.done() and not task.cancelled() and task.exception() is None:
                _stop_stream(task.result())

    async def link(self, session: ClientSession, member: Member) -> Link:
        """The client's session with ``member``'s kernel, opened on first use (``LinkFailed`` if refused)."""
        task = session.links.get(member.identity)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = asyncio.get_running_loop().create_task(self._open(session, member))
            session.links[member.identity] = task
        return await asyncio.shield(task)

    async def _open(self, session: ClientSession, member: Member) -> Link:
        link = Link(member, vouched=session.vouched)
        body = _request("jupyter-mcp-initialize", "initialize", session.initialize)
        try:
            response = await upstream.post(member.carrier, member.info, body, link.headers())
            link.session_id = response.headers.get(upstream.SESSION_HEADER)
            answer = await upstream.answer(response, "jupyter-mcp-initialize")
        except HttpError as error:
            raise LinkFailed(f"{member.label} did not answer: {error}") from error
        result = answer.get("result")
        if not isinstance(result, dict):
            raise LinkFailed(f"{member.label} refused the session: {answer.get('error')}")
        link.protocol_version = str(result.get("protocolVersion") or session.protocol_version)
        await self.quietly(link, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode())
        if session.log_level is not None:
            await self.quietly(link, _request("jupyter-mcp-set-level", "logging/setLevel", session.log_level))
        return link

    async def quietly(self, link: Link, body: bytes) -> None:
        """POST a notification, an answer or a request whose answer stays here."""
        try:
            response = await upstream.post(link.member.carrier, link.member.info, body, link.headers())
            await response.read()
        except HttpError:
            return

    async def _end(self, task: asyncio.Task[Link]) -> None:
        if not task.done():
            task.cancel()
            return
        if task.cancelled() or task.exception() is not None:
            return
        link = task.result()
        _stop_stream(link)
        await upstream.delete(link.member.carrier, link.member.info, link.headers())

    def _expire(self) -> None:
        """Sessions idle for long are ended as if the client had said DELETE (few clients do)."""
        deadline = time.monotonic() - _IDLE
        for session in list(self._sessions.values()):
            if session.last_seen < deadline and not session.streaming:
                self._closing.add(asyncio.get_running_loop().create_task(self.close(session)))

    def drop(self) -> None:
        for session in list(self._sessions.values()):
            for task in session.links.values():
                if task.done() and not task.cancelled() and task.exception() is None:
                    _stop_stream(task.result())
                else:
                    task.cancel()
        self._sessions.clear()


def _stop_stream(link: Link) -> None:
    if link.stream is not None:
        link.stream.cancel()


def _request(request_id: str, method: str, params: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode()
