"""``KernelCarrier``: requests to a kernel's MCP app over the kernel's own messaging.

Connecting: ``kernel_info`` (does it have subshells?) and ``comm_info`` for ``COMM_TARGET`` (does it
serve tools, and on which comm?) on the control channel, which answers while a cell runs; then a
subshell of the carrier's own where there are subshells; then ``hello``, which the kernel answers
with its ``ServerInfo`` (its token and admin token: the kernel's messaging is authenticated, as the
discovery file's mode 0600 is). Requests then go as ``comm_msg`` on the subshell (or on control)
and their frames come back to this carrier alone, on the shell channel (ipykernel 7) or on control
(asked for with ``here``), or else on IOPub.

Subshells die with their kernel. Whatever ends the carrier (the kernel restarted or shut down, its
tool server stopped, the link broke) fails every exchange under way with a sentence saying so, and
the registry connects a new carrier on the next request. While exchanges are under way a watch
asks the control channel every ``watch_interval`` seconds whether the comm is still there, so a
kernel restarted behind this server's back (a crash and its automatic restart, another client of a
gateway) is noticed too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp._wire.frames import COMM_TARGET, PROTOCOL, RequestFrame
from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.serverext.carriers.exchange import ChannelExchange
from jupyter_mcp.serverext.carriers.links import Link, Message
from jupyter_mcp.shapes.rest import CarrierName

logger = logging.getLogger(__name__)

RESTARTED = "the kernel restarted (or its tool server stopped) while the request was under way; its outcome is unknown"
STOPPED = "the notebook's tool server stopped while the request was under way; its outcome is unknown"
_HELLO_REPEAT = 0.2
"""Seconds between hellos until one is answered: a new IOPub subscription takes a moment to hold."""


class NoServer(LookupError):
    """The kernel answers but serves no tools over its channel (no jupyter_mcp comm)."""


class KernelCarrier:
    """One kernel's app over its channels (``open`` like ``HttpCarrier``); ``connect`` first.

    Example::

        carrier = KernelCarrier(ZmqLink(kernel_manager), timeout=5.0, watch_interval=2.0)
        info = await carrier.connect()
        exchange = await carrier.open("GET", "/status", credentials(info))
    """

    name: CarrierName = "kernel"
    mcp_path = "/mcp"

    def __init__(self, link: Link, *, timeout: float, watch_interval: float, subshell: bool = True) -> None:
        self.link = link
        self.use_subshell = subshell
        self.timeout = timeout
        self.watch_interval = watch_interval
        self.comm_id: str | None = None
        self.subshell_id: str | None = None
        self.info: ServerInfo | None = None
        self.lost: str | None = None
        self._exchanges: dict[str, ChannelExchange] = {}
        self._hellos: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._watch: asyncio.Task[None] | None = None
        link.on_message = self._message
        link.on_lost = self.lose

    @property
    def via(self) -> str:
        """Where requests go: ``"subshell"`` or ``"control"``."""
        return "subshell" if self.subshell_id is not None else "control"

    async def connect(self) -> ServerInfo:
        """Find the kernel's comm, take a subshell, say hello (``NoServer``; ``TimeoutError``)."""
        await self.link.start()
        features = (await self._control("kernel_info_request", {})).get("supported_features") or []
        comms = (await self._control("comm_info_request", {"target_name": COMM_TARGET})).get("comms") or {}
        if not comms:
            raise NoServer("the kernel serves no MCP tools")
        self.comm_id = str(next(iter(comms)))
        self.link.subscribe(f"comm-{self.comm_id}".encode())
        if self.use_subshell and "kernel subshells" in features:
            reply = await self._control("create_subshell_request", {})
            self.subshell_id = reply.get("subshell_id") if reply.get("status") == "ok" else None
        self.info = ServerInfo.from_json({**await self._hello(), "transport": "kernel"})
        return self.info

    async def open(self, method: str, target: str, headers: Iterable[tuple[str, str]]) -> ChannelExchange:
        if self.lost is not None:
            raise HttpError(self.lost, sent=False)
        exchange = ChannelExchange(self._send, method, target, headers, text=self.link.text_bodies)
        exchange.on_done = self._done
        self._exchanges[exchange.id] = exchange
        if self._watch is None or self._watch.done():
            self._watch = asyncio.get_running_loop().create_task(self._watch_comm())
        return exchange

    def lose(self, why: str) -> None:
        """End the carrier: every exchange under way fails with ``why``, later requests too."""
        if self.lost is not None:
            return
        self.lost = why
        for exchange in list(self._exchanges.values()):
            exchange.fail(why)
        for hello in self._hellos.values():
            if not hello.done():
                hello.set_exception(HttpError(why, sent=True))
        if self._watch is not None and self._watch is not asyncio.current_task():
            self._watch.cancel()

    def close(self) -> None:
        """Give the subshell back (when the kernel is still there) and drop the link."""
        if self.subshell_id is not None and self.lost is None:
            goodbye = self.link.message("delete_subshell_request", {"subshell_id": self.subshell_id})
            with contextlib.suppress(Exception):
                self.link.send("control", goodbye)
        self.lose("the Jupyter server closed the kernel channel")
        self.link.close()

    # ---- frames out ----------------------------------------------------------------------------

    def _send(self, frame: RequestFrame, buffers: list[bytes]) -> None:
        if self.lost is not None:
            return
        on_control = self.subshell_id is None
        content = {"comm_id": self.comm_id, "data": {**frame, "here": True} if on_control else dict(frame)}
        message = self.link.message("comm_msg", content, self.subshell_id)
        try:
            self.link.send("control" if on_control else "shell", message, buffers)
        except Exception as error:  # a closed socket or websocket
            self.lose(f"the kernel channel is closed ({error})")

    def _done(self, exchange: ChannelExchange) -> None:
        self._exchanges.pop(exchange.id, None)

    # ---- messages in ---------------------------------------------------------------------------

    def _message(self, channel: str, msg: Message) -> None:
        kind, content = msg.get("msg_type"), msg.get("content") or {}
        if channel in ("iopub", "shell", "control") and content.get("comm_id") == self.comm_id:
            if kind == "comm_close" and channel == "iopub":
                self.lose(STOPPED)
            elif kind == "comm_msg" and (msg.get("parent_header") or {}).get("session") == self.link.session_id:
                self._frame(content.get("data") or {}, msg.get("buffers") or [])
        elif channel == "shell" and kind == "comm_reply" and content.get("status") == "error":
            self.lose(RESTARTED)  # ipykernel >= 7.4 answers a message to a subshell that is gone

    def _frame(self, frame: Mapping[str, Any], buffers: list[bytes]) -> None:
        key = str(frame.get("id", ""))
        if frame.get("op") == "hello":
            hello = self._hellos.get(key)
            if hello is not None and not hello.done():
                hello.set_result(dict(frame))
        elif (exchange := self._exchanges.get(key)) is not None:
            exchange.feed(frame, buffers)

    # ---- control -------------------------------------------------------------------------------

    async def _control(self, msg_type: str, content: dict[str, Any]) -> dict[str, Any]:
        async with asyncio.timeout(self.timeout):
            return await self.link.request("control", msg_type, content)

    async def _hello(self) -> dict[str, Any]:
        key = uuid.uuid4().hex
        answered: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._hellos[key] = answered
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    self._send({"op": "hello", "id": key}, [])
                    with contextlib.suppress(TimeoutError):
                        frame = await asyncio.wait_for(asyncio.shield(answered), _HELLO_REPEAT)
                        break
        finally:
            self._hellos.pop(key, None)
        if frame.get("protocol") != PROTOCOL or not isinstance(frame.get("info"), dict) or not frame["info"]:
            raise NoServer(f"the kernel's jupyter_mcp speaks kernel-channel protocol {frame.get('protocol')!r}")
        return dict(frame["info"])

    async def _watch_comm(self) -> None:
        """While exchanges are under way: is the comm still there (the kernel the same)?"""
        missed = 0
        while self._exchanges and self.lost is None:
            await asyncio.sleep(self.watch_interval)
            try:
                comms = (await self._control("comm_info_request", {"target_name": COMM_TARGET})).get("comms") or {}
            except TimeoutError:
                missed += 1
                if missed >= 2:
                    self.lose("the kernel stopped answering while the request was under way; its outcome is unknown")
                continue
            missed = 0
            if self.comm_id not in comms:
                self.lose(RESTARTED)
