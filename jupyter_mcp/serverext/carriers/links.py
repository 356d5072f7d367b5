"""A client of one kernel's channels, as the kernel channel needs it: ``ZmqLink`` and ``GatewayLink``.

Neither is jupyter_client's ``KernelClient``: the carrier needs replies matched to their requests
on the control channel, one callback for everything else, the subshell header, binary buffers both
ways, and (on ZeroMQ) an IOPub subscription to the carrier's own topic only, so the output of cells
never reaches this process. ``GatewayLink`` speaks to a Kernel or Enterprise Gateway's websocket
(jupyter_server's ``GatewayKernelClient`` carries JSON text only and polls its queues).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

import zmq
from jupyter_client.jsonutil import json_default
from jupyter_client.session import Session

logger = logging.getLogger(__name__)

Message = dict[str, Any]

_WEBSOCKET_LIMIT = 512 * 1024 * 1024
"""The largest message the gateway link accepts: any kernel's IOPub output reaches it, and a message
over the limit would close the link."""


class Link:
    """What both links share: messages from a session of their own, replies matched to requests."""

    text_bodies = False
    """Whether answers must carry their bodies as text, not buffers (``_wire.frames`` says why)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.on_message: Callable[[str, Message], None] = lambda channel, msg: None
        """Called with every message that answers no ``request`` (IOPub, shell replies)."""
        self.on_lost: Callable[[str], None] = lambda why: None
        self.lost: str | None = None
        self._waiting: dict[str, asyncio.Future[Message]] = {}

    @property
    def session_id(self) -> str:
        return str(self.session.session)

    def message(self, msg_type: str, content: dict[str, Any], subshell_id: str | None = None) -> Message:
        msg: Message = self.session.msg(msg_type, content)
        if subshell_id is not None:
            msg["header"]["subshell_id"] = subshell_id
        return msg

    async def request(self, channel: str, msg_type: str, content: dict[str, Any]) -> Message:
        """Send a request and return its reply's content (the caller bounds the wait)."""
        msg = self.message(msg_type, content)
        waiting: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[msg["header"]["msg_id"]] = waiting
        try:
            self.send(channel, msg)
            reply = await waiting
        finally:
            self._waiting.pop(msg["header"]["msg_id"], None)
        answer = reply.get("content")
        return answer if isinstance(answer, dict) else {}

    def send(self, channel: str, msg: Message, buffers: Sequence[bytes] = ()) -> None:
        raise NotImplementedError

    def subscribe(self, topic: bytes) -> None:
        """Hear IOPub messages whose topic starts with ``topic`` (the gateway's websocket hears them all)."""

    async def start(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _received(self, channel: str, msg: Message) -> None:
        parent = msg.get("parent_header") or {}
        waiting = self._waiting.get(str(parent.get("msg_id", "")))
        if waiting is not None and channel != "iopub" and not waiting.done():
            waiting.set_result(msg)
            return
        try:
            self.on_message(channel, msg)
        except Exception:
            logger.exception("the kernel channel failed on a %s message", msg.get("msg_type"))

    def _lose(self, why: str) -> None:
        if self.lost is None:
            self.lost = why
            self.on_lost(why)


class ZmqLink(Link):
    """ZeroMQ sockets of the kernel's connection (a kernel this Jupyter server's kernel manager runs),
    as the kernel manager hands them out: ``ZMQStream``s on the server's loop."""

    def __init__(self, kernel_manager: Any) -> None:
        own = kernel_manager.session
        super().__init__(Session(config=own.config, key=own.key, signature_scheme=own.signature_scheme))
        self.kernel_manager = kernel_manager
        self._streams: dict[str, Any] = {}

    async def start(self) -> None:
        manager = self.kernel_manager
        self._streams = {
            "control": manager.connect_control(),
            "shell": manager.connect_shell(),
            "iopub": manager.connect_iopub(),
        }
        self._streams["iopub"].socket.setsockopt(zmq.UNSUBSCRIBE, b"")
        for name, stream in self._streams.items():
            stream.on_recv(lambda parts, channel=name: self._read(channel, parts), copy=False)

    def subscribe(self, topic: bytes) -> None:
        self._streams["iopub"].socket.setsockopt(zmq.SUBSCRIBE, topic)

    def send(self, channel: str, msg: Message, buffers: Sequence[bytes] = ()) -> None:
        self.session.send(self._streams[channel], msg, buffers=list(buffers))

    def _read(self, channel: str, parts: list[Any]) -> None:
        try:
            _, frames = self.session.feed_identities(parts, copy=False)
            msg = self.session.deserialize(frames, content=True, copy=False)
        except Exception as error:  # a message that is not one (or not signed with the kernel's key)
            logger.warning("ignored a malformed message on the kernel's %s channel: %s", channel, error)
            return
        msg["buffers"] = [bytes(buffer) for buffer in msg.get("buffers", [])]
        self._received(channel, msg)

    def close(self) -> None:
        for stream in self._streams.values():
            if not stream.closed():
                stream.close(linger=0)
        self._streams = {}


class GatewayLink(Link):
    """The websocket of a Kernel or Enterprise Gateway (``GatewayClient``'s URL, headers and TLS options).

    Messages with buffers go as binary frames (the websocket's legacy binary format); the gateway
    signs what it forwards to the kernel, so this session signs nothing. Answers come with their
    bodies as text: the Jupyter server relays the same IOPub to JupyterLab and cannot pass binary
    frames on.
    """

    text_bodies = True

    def __init__(self, kernel_id: str) -> None:
        super().__init__(Session(key=b""))
        self.kernel_id = kernel_id
        self._socket: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        from jupyter_server.gateway.gateway_client import GatewayClient
        from jupyter_server.utils import url_path_join
        from tornado.escape import url_escape
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        gateway = GatewayClient.instance()
        url = url_path_join(gateway.ws_url or "", gateway.kernels_endpoint, url_escape(self.kernel_id), "channels")
        options = gateway.load_connection_args()  # type: ignore[no-untyped-call]
        request = HTTPRequest(f"{url}?session_id={url_escape(self.session_id)}", **options)
        self._socket = await websocket_connect(request, max_message_size=_WEBSOCKET_LIMIT)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    def send(self, channel: str, msg: Message, buffers: Sequence[bytes] = ()) -> None:
        from jupyter_server.services.kernels.connection.base import serialize_binary_message

        if self._socket is None:
            raise ConnectionError("the gateway's websocket is closed")
        framed = {**msg, "channel": channel}
        if buffers:
            binary = serialize_binary_message({**framed, "buffers": list(buffers)})  # type: ignore[no-untyped-call]
            self._socket.write_message(binary, binary=True)
        else:
            self._socket.write_message(json.dumps(framed, default=json_default))

    async def _read(self) -> None:
        from jupyter_server.services.kernels.connection.base import deserialize_binary_message

        while True:
            data = await self._socket.read_message()
            if data is None:
                self._lose("the gateway closed the kernel's websocket")
                return
            try:
                msg = _decode(data, deserialize_binary_message)
                channel = str(msg.pop("channel", ""))
            except (ValueError, TypeError, KeyError) as error:
                logger.warning("ignored a malformed message from the gateway: %s", error)
                continue
            msg["buffers"] = [bytes(buffer) for buffer in msg.get("buffers") or []]
            self._received(channel, msg)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self._socket is not None:
            with contextlib.suppress(Exception):
                self._socket.close()
        self._socket = self._reader = None


def _decode(data: bytes | str, binary: Callable[[bytes], Message]) -> Message:
    """A websocket message: JSON text, or the legacy binary format (JSON, then the buffers)."""
    decoded = binary(data) if isinstance(data, bytes) else json.loads(data)
    if not isinstance(decoded, dict):
        raise TypeError("not a message")
    return decoded
