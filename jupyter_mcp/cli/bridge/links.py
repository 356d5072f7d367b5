"""Keeping the bridge connected: find the server, set up a session there, notice when it goes.

``Links`` owns the current ``Link``. It re-reads the locator on a timer (and at once when a
stream breaks), replays the client's handshake on a new server, and reports ``up``/``down``
transitions so the relay can tell the client its tools changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jupyter_mcp.cli.bridge import messages
from jupyter_mcp.cli.bridge.locator import Endpoint, Locator, Missing
from jupyter_mcp.cli.bridge.messages import Message
from jupyter_mcp.cli.bridge.upstream import SESSION_HEADER, Link, Unreachable

logger = logging.getLogger(__name__)

_HANDSHAKE_ID = "jupyter-mcp-bridge-initialize"
_PROBE_ID = "jupyter-mcp-bridge-discover"
_LEVEL_ID = "jupyter-mcp-bridge-set-level"
_STREAM_RETRY = 0.05


@dataclass
class ClientState:
    """What the stdio client has set up, so a new server can be brought to the same state."""

    initialize: Message | None = None
    """Its ``initialize`` request (2025 era); replayed on a new server."""
    initialized: bool = False
    log_level: Message | None = None
    """Its last ``logging/setLevel`` request (2025 era); replayed too."""
    modern_meta: dict[str, Any] | None = field(default=None, repr=False)
    """The ``_meta`` envelope of its last 2026-era request; used to probe a new server."""


class Links:
    """The bridge's connection to whichever server serves its target now."""

    def __init__(
        self,
        locator: Locator,
        client: ClientState,
        emit: Callable[[bytes], None],
        on_change: Callable[[bool], None],
    ) -> None:
        self.locator = locator
        self.client = client
        self.current: Link | None = None
        self.missing = "the bridge has not looked for its server yet"
        self._told: str | None = None
        """The last reason for not connecting that went to the log (each is said once)."""
        self._interval = 0.5
        self._emit = emit
        self._on_change = on_change
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    # ---- the link a message goes to ------------------------------------------------------------

    async def for_message(self, message: Message) -> Link | None:
        """The link to send ``message`` on, set up for the client's era; ``None`` while nothing serves."""
        link = self.current
        if link is not None and not self._needs_handshake(link, message):
            return link
        async with self._lock:
            if self.current is None:
                await self._refresh()
            link = self.current
            if link is not None and self._needs_handshake(link, message):
                try:
                    await self._handshake(link)
                except Unreachable as exc:
                    self.lost(link, exc.reason)
                    return None
            return link

    def _needs_handshake(self, link: Link, message: Message) -> bool:
        return self.client.initialize is not None and not link.session_ready and message.get("method") != "initialize"

    def lost(self, link: Link, reason: str) -> None:
        """``link`` failed: forget it, say why, and look for a replacement at once."""
        if link is not self.current:
            return
        logger.warning("lost the server: %s", reason)
        self.current = None
        self.missing = reason
        link.close()
        self._wake.set()
        self._on_change(False)

    # ---- watching ------------------------------------------------------------------------------

    async def watch(self, interval: float) -> None:
        """Re-read the locator every ``interval`` seconds, or sooner when a stream breaks."""
        self._interval = interval
        while True:
            async with self._lock:
                try:
                    await self._refresh()
                except Exception:  # keep watching: the next look may work
                    logger.exception("could not look for the server")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), interval)
            self._wake.clear()

    async def _refresh(self) -> None:
        found = self.locator.locate()
        if isinstance(found, Missing):
            self.missing = found.reason
            if self.current is not None and self.locator.authoritative:
                self.lost(self.current, found.reason)
            return
        if self.current is not None and self.current.endpoint.identity == found.identity:
            return
        await self._connect(found)

    async def _connect(self, endpoint: Endpoint) -> None:
        link = Link(endpoint)
        try:
            await self._establish(link)
        except Unreachable as exc:
            link.close()
            if self.current is None:
                self.missing = exc.reason
                self._tell(exc.reason)
            return
        old, self.current = self.current, link
        self._told = None
        logger.info("connected to %s", endpoint.name)
        if old is not None:
            self._spawn(self._retire(old))
        self._on_change(True)

    async def _establish(self, link: Link) -> None:
        """One real exchange with the server (a handshake, a discover, or a probe): it is there."""
        if self.client.initialize is not None:
            await self._handshake(link)
        elif self.client.modern_meta is not None:
            await self._request(link, "server/discover", {"_meta": self.client.modern_meta}, _PROBE_ID)
        else:
            await link.probe()

    def _tell(self, reason: str) -> None:
        """Say once on stderr why the bridge is not connected, and that it keeps trying."""
        if reason == self._told:
            return
        self._told = reason
        logger.warning(
            "not connected: %s. Check the address and token, or start the server; this bridge tries again "
            "every %g s and connects by itself.",
            reason,
            self._interval,
        )

    # ---- the 2025-era session -------------------------------------------------------------------

    async def _handshake(self, link: Link) -> None:
        """Open a session on ``link`` as the client did on the first server (initialize, initialized)."""
        assert self.client.initialize is not None
        params = self.client.initialize.get("params") or {}
        answer = await self._request(link, "initialize", params, _HANDSHAKE_ID)
        link.protocol_version = str((answer.get("result") or {}).get("protocolVersion", "")) or None
        link.session_ready = True
        if self.client.initialized:
            await self.post_quietly(link, messages.encode(messages.notification(messages.INITIALIZED)))
            self.open_session_stream(link)
        if self.client.log_level is not None:
            await self._request(link, "logging/setLevel", self.client.log_level.get("params") or {}, _LEVEL_ID)

    async def _request(self, link: Link, method: str, params: dict[str, Any], request_id: str) -> Message:
        """A request of the bridge's own; its answer stays here. Errors raise ``Unreachable``."""
        request: Message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        version = messages.modern_version(request)
        headers = messages.modern_headers(request, version, messages.ParamHeaders()) if version else {}
        if method != "initialize" and not version:
            headers = link.session_headers()
        response = await link.post(messages.encode(request), headers)
        if method == "initialize":
            link.session_id = response.headers.get(SESSION_HEADER)
        async for data in link.payloads(response):
            answer = messages.decode(data)
            if answer is not None and messages.is_answer_to(answer, request_id):
                if "error" in answer:
                    problem = answer["error"].get("message", "an error")
                    raise Unreachable(f"{link.endpoint.name} refused {method}: {problem}", sent=False)
                return answer
        raise Unreachable(f"{link.endpoint.name} did not answer {method}", sent=False)

    def open_session_stream(self, link: Link) -> None:
        """The GET stream of a 2025-era session: server notifications; its end means look again."""
        if link.stream_task is None or link.stream_task.done():
            link.stream_task = self._spawn(self._session_stream(link))

    async def _session_stream(self, link: Link) -> None:
        pause = _STREAM_RETRY
        while not link.closed:
            try:
                response = await link.get_stream()
                if response.status != 200:
                    response.close()
                    return  # the server offers no standalone stream
                async for data in link.payloads(response):
                    self._emit(messages.one_line(data))
                    pause = _STREAM_RETRY
            except Unreachable as exc:
                self.lost(link, exc.reason)
                return
            self._wake.set()  # an ended stream is how a stopping server usually shows first
            await asyncio.sleep(pause)
            pause = min(pause * 2, 2.0)

    async def post_quietly(self, link: Link, body: bytes, headers: dict[str, str] | None = None) -> None:
        """POST a notification or a client's answer; nothing comes back but an acknowledgement."""
        try:
            response = await link.post(body, link.session_headers() if headers is None else headers)
            async for data in link.payloads(response):
                self._emit(messages.one_line(data))
        except Unreachable as exc:
            logger.debug("could not deliver a message: %s", exc.reason)

    async def _retire(self, link: Link) -> None:
        if link.stream_task is not None:
            link.stream_task.cancel()  # events from the old server no longer concern the client
        await link.terminate()
        link.close()

    # ---- housekeeping ----------------------------------------------------------------------------

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        link, self.current = self.current, None
        if link is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(link.terminate(), 2.0)
            link.close()
