"""The bridge: JSON-RPC lines from a stdio client, relayed to a kernel's streamable HTTP server.

It relays at the message level and stays era-agnostic: each line is POSTed as is (with the
headers its era needs) and every message of the answer stream is written back as a line —
progress, logs, server requests and the result alike. It interprets only what it must:
cancellation (2026: close the request's stream), ``subscriptions/listen`` (held across a
server restart), and the handshake (replayed on a new server). While nothing serves the
target it answers itself (``fallback``), so no call hangs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from jupyter_mcp.cli.bridge import fallback, messages
from jupyter_mcp.cli.bridge.links import ClientState, Links
from jupyter_mcp.cli.bridge.locator import Locator
from jupyter_mcp.cli.bridge.messages import Message, RequestId
from jupyter_mcp.cli.bridge.upstream import VERSION_HEADER, Link, Unreachable

logger = logging.getLogger(__name__)

PARSE_ERROR = -32700
_DRAIN_SECONDS = 30.0
"""After stdin closes, how long requests under way may take to answer (a client usually stops us sooner)."""


@dataclass
class InFlight:
    """A client request the bridge is working on."""

    message: Message
    raw: bytes
    modern: bool
    task: asyncio.Task[None] | None = None
    link: Link | None = None
    """Where it was last sent."""
    cancelled: bool = False
    acked: bool = False

    @property
    def id(self) -> RequestId:
        return self.message["id"]  # type: ignore[return-value]

    @property
    def method(self) -> str:
        return self.message.get("method", "")


@dataclass
class Bridge:
    """Relay a stdio client (``send`` writes one line to it) to whatever ``locator`` finds."""

    locator: Locator
    send: Callable[[bytes], None]
    poll_interval: float = 0.5
    client: ClientState = field(default_factory=ClientState)
    params: messages.ParamHeaders = field(default_factory=messages.ParamHeaders)

    def __post_init__(self) -> None:
        self.links = Links(self.locator, self.client, self.send, self._server_changed)
        self._inflight: dict[RequestId, InFlight] = {}
        self._listens: dict[RequestId, InFlight] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._initializing: asyncio.Task[None] | None = None

    async def run(self, lines: AsyncIterator[bytes]) -> None:
        """Relay until the client closes its end (stdin EOF), then finish the requests under way."""
        watcher = asyncio.get_running_loop().create_task(self.links.watch(self.poll_interval))
        try:
            async for line in lines:
                self.receive(line)
            await self._finish_requests()
        finally:
            watcher.cancel()
            for task in list(self._tasks):
                task.cancel()
            await self.links.close()

    async def _finish_requests(self) -> None:
        for listen in self._listens.values():
            if listen.task is not None:
                listen.task.cancel()  # a subscription never finishes by itself
        pending = [entry.task for entry in self._inflight.values() if entry.task is not None]
        if pending:
            await asyncio.wait(pending, timeout=_DRAIN_SECONDS)

    # ---- from the client -------------------------------------------------------------------------

    def receive(self, line: bytes) -> None:
        message = messages.decode(line)
        if message is None:
            self.send(messages.encode(messages.error(None, PARSE_ERROR, "jupyter-mcp: not a JSON-RPC message")))
            return
        if (refused := messages.refusal(message)) is not None:
            self.send(messages.encode(refused))
            return
        kind = messages.kind_of(message)
        if kind == "request":
            self._request(message, line)
        elif kind == "notification":
            self._notification(message, line)
        else:
            self._spawn(self._post(line, message))

    def _request(self, message: Message, raw: bytes) -> None:
        version = messages.modern_version(message)
        if version is not None:
            self.client.modern_meta = message["params"]["_meta"]
        elif message.get("method") == "logging/setLevel":
            self.client.log_level = message
        entry = InFlight(message, raw, modern=version is not None)
        if entry.method == messages.LISTEN:
            self._listens[entry.id] = entry
        self._start(entry)

    def _start(self, entry: InFlight) -> None:
        self._inflight[entry.id] = entry
        entry.task = self._spawn(self._answer(entry))
        if entry.method == "initialize":
            self._initializing = entry.task

    def _notification(self, message: Message, raw: bytes) -> None:
        method = message.get("method")
        if method == messages.CANCELLED:
            self._cancel(message, raw)
            return
        if method == messages.INITIALIZED:
            self.client.initialized = True
        self._spawn(self._post(raw, message))

    def _cancel(self, message: Message, raw: bytes) -> None:
        target = messages.cancelled_id(message)
        entry = self._inflight.get(target) if target is not None else None
        listen = self._listens.pop(target, None) if target is not None else None
        if entry is None and listen is not None:
            return  # a held listen: nothing upstream to tell
        if entry is not None:
            entry.cancelled = True
            if entry.modern and entry.task is not None:
                entry.task.cancel()  # 2026 era: closing the request's stream is the cancellation
                return
        self._spawn(self._post(raw, message))

    async def _post(self, raw: bytes, message: Message) -> None:
        await self._after_initialize()
        link = self.links.current
        if link is None:
            return  # notifications and answers for a server that is gone are moot
        version = messages.modern_version(message) or self._modern_version()
        headers = {VERSION_HEADER: version} if version else link.session_headers()
        await self.links.post_quietly(link, raw, headers)
        if message.get("method") == messages.INITIALIZED and link.session_id:
            self.links.open_session_stream(link)

    def _modern_version(self) -> str | None:
        meta = self.client.modern_meta if self.client.initialize is None else None
        return messages.modern_version({"params": {"_meta": meta}}) if meta else None

    # ---- to the server and back ------------------------------------------------------------------

    async def _after_initialize(self) -> None:
        """Wait for a handshake under way: a script may pipeline messages that need its session."""
        initializing = self._initializing
        if initializing is not None and not initializing.done() and initializing is not asyncio.current_task():
            await asyncio.wait([initializing])

    async def _answer(self, entry: InFlight) -> None:
        try:
            await self._after_initialize()
            reply = await self._exchange(entry)
        except Exception as exc:  # a bug here must cost one request an error, never a hang
            logger.exception("could not relay %s", entry.method)
            reply = messages.error(entry.id, fallback.INTERNAL_ERROR, f"jupyter-mcp: the bridge failed: {exc}")
        finally:
            if self._inflight.get(entry.id) is entry:
                del self._inflight[entry.id]
        if reply is not None and not entry.cancelled:
            self.send(messages.encode(reply))

    async def _exchange(self, entry: InFlight) -> Message | None:
        """Relay ``entry`` (``None``), or return the reply the bridge makes up itself."""
        for _attempt in range(2):
            link = await self.links.for_message(entry.message)
            if link is None:
                break
            try:
                await self._relay(entry, link)
                return None
            except Unreachable as exc:
                self.links.lost(link, exc.reason)
                if entry.method == messages.LISTEN:
                    self._hold(entry)
                    return None
                if entry.cancelled:
                    return None
                if exc.sent:
                    return fallback.lost_answer(entry.message, exc.reason)
        if entry.method == messages.LISTEN:
            self._hold(entry)
            return None
        if entry.method == "initialize":
            self._initialized_by(entry.message)
        return fallback.answer(entry.message, self.links.missing)

    async def _relay(self, entry: InFlight, link: Link) -> None:
        entry.link = link
        response = await link.post(entry.raw, self._headers(entry, link), repeatable=entry.method != "tools/call")
        if entry.method == "initialize":
            link.session_id = response.headers.get("mcp-session-id")
        if response.status != 200:
            body = await response.read()
            self.send(messages.encode(_http_error(entry.id, response.status, body, link)))
            return
        answered = False
        async for data in link.payloads(response):
            answered = self._deliver(entry, link, data) or answered
        if not answered and not entry.cancelled:
            raise Unreachable(f"{link.endpoint.name} ended the response without answering {entry.method}", sent=True)

    def _headers(self, entry: InFlight, link: Link) -> dict[str, str]:
        version = messages.modern_version(entry.message)
        if version is not None:
            return messages.modern_headers(entry.message, version, self.params)
        return {} if entry.method == "initialize" else link.session_headers()

    def _deliver(self, entry: InFlight, link: Link, data: bytes) -> bool:
        """Write one message of ``entry``'s answer stream to the client; ``True`` if it was the answer."""
        message = messages.decode(data)
        if message is None:
            logger.warning("dropped a message that is not JSON from %s: %r", link.endpoint.url, data[:200])
            return False
        if not messages.is_answer_to(message, entry.id):
            if message.get("method") == messages.LISTEN_ACK:
                if entry.acked:
                    return False  # the client has its acknowledgement from the first server
                entry.acked = True
            self.send(messages.one_line(data))
            return False
        self._learn(entry, link, message)
        if entry.method == messages.LISTEN:
            self._listens.pop(entry.id, None)
        if not entry.cancelled:
            self.send(messages.one_line(data))
        return True

    def _learn(self, entry: InFlight, link: Link, answer: Message) -> None:
        if entry.method == "initialize":
            version = (answer.get("result") or {}).get("protocolVersion")
            link.protocol_version = version if isinstance(version, str) else None
            link.session_ready = "result" in answer
            if link.session_ready:  # a handshake the server refused is not one to replay on the next server
                self._initialized_by(entry.message)
        elif entry.method == "tools/list" and entry.modern:
            self.params.learn(answer)

    def _initialized_by(self, request: Message) -> None:
        """The client's handshake, kept to replay on the next server."""
        self.client.initialize, self.client.initialized = request, False

    def _hold(self, entry: InFlight) -> None:
        """Keep a listen open for the client until a server is back (then it is sent again)."""
        if entry.id in self._listens and not entry.acked:
            entry.acked = True
            self.send(messages.encode(fallback.listen_ack(entry.message)))

    # ---- server changes --------------------------------------------------------------------------

    def _server_changed(self, up: bool) -> None:
        """A server appeared (or went): the client's tool list changed; listens move to the new one."""
        if up:
            for entry in list(self._listens.values()):
                self._move_listen(entry)
        if self.client.initialize is not None and self.client.initialized:
            self.send(messages.encode(fallback.tools_changed()))
        for listen_id, entry in self._listens.items():
            if _wants_tools(entry.message):
                self.send(messages.encode(fallback.tools_changed(listen_id)))

    def _move_listen(self, entry: InFlight) -> None:
        """Send a held listen again, or take one still open on the previous server to the current one."""
        running = self._inflight.get(entry.id) is entry
        if running and entry.link is self.links.current:
            return
        if running and entry.task is not None:
            entry.task.cancel()  # closes its stream on the old server
        again = InFlight(entry.message, entry.raw, entry.modern, acked=True)
        self._listens[entry.id] = again
        self._start(again)

    def _spawn(self, coroutine: object) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


def _wants_tools(listen: Message) -> bool:
    wanted = listen.get("params", {}).get("notifications")
    return isinstance(wanted, dict) and bool(wanted.get("toolsListChanged"))


def _http_error(request_id: RequestId, status: int, body: bytes, link: Link) -> Message:
    """A JSON-RPC error for a request the server refused at the HTTP level (its own error if it sent one)."""
    decoded = messages.decode(body)
    if decoded is not None and isinstance(decoded.get("error"), dict):
        return {"jsonrpc": "2.0", "id": request_id, "error": decoded["error"]}
    text = f"jupyter-mcp: {link.endpoint.name} answered HTTP {status} without a JSON-RPC error"
    return messages.error(request_id, fallback.INTERNAL_ERROR, text)
