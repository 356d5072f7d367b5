"""``KernelChannel``: the kernel's side of the kernel-channel transport, on ipykernel's messaging.

The Jupyter server reaches a kernel it cannot reach on loopback (a gateway's, a kernel pod's, or
one with ``transport = "kernel"``) through the kernel's own channels. This module keeps one comm
with the target ``COMM_TARGET`` registered but unannounced (a comm_open on IOPub would reach every
front end, and JupyterLab closes comms whose target it does not know), hands each of its messages
to ``MessageExchanges`` on the server's loop, and sends the frames back as ``comm_msg``s.

Where the kernel has subshells (ipykernel 7) the Jupyter server sends on a subshell of its own, so
requests are taken while a cell runs; with ipykernel's fast path they are taken in ipykernel's
shell-channel thread before they reach the subshell, and answered on the shell socket
(``shellintake``); without it, the subshell handles them and they are answered on IOPub. Without
subshells (or when told to) it sends on the control channel, which ipykernel runs in its own thread
but does not route comm messages on: this module adds that route, and answers there, to the Jupyter
server alone, when its request says it reads answers there (``RequestFrame.here``). An answer on
IOPub reaches every front end of the kernel (each JupyterLab tab of the notebook).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from comm.base_comm import BaseComm
from starlette.types import ASGIApp

from jupyter_mcp._wire.frames import COMM_TARGET
from jupyter_mcp.adapters import ipykernel
from jupyter_mcp.adapters.fastpaths import PUBLIC, FastPaths
from jupyter_mcp.kernel.serving.shellintake import Sender, ShellIntake, Take
from jupyter_mcp.tools.transports.messages.exchanges import MessageExchanges

logger = logging.getLogger(__name__)

_CLOSE_WAIT = 2.0
"""Seconds ``close`` waits for the exchanges under way to be told (a stuck loop must not hang the kernel)."""
_STOPPED = "the notebook's tool server stopped (it serves again when its cells run or %mcp start)"


class _ChannelComm(BaseComm):
    """The kernel end of the channel. It runs no IPython hooks for a message: ``BaseComm.handle_msg``
    triggers pre/post_execute around each one, which would flush the inline backend's figures (and
    run the user's hooks) for every MCP request."""

    def __init__(self, kernel: Any, on_frame: Callable[[dict[str, Any]], None]) -> None:
        super().__init__(target_name=COMM_TARGET, primary=False)
        self.kernel = kernel
        self._on_frame = on_frame

    def publish_msg(
        self,
        msg_type: str,
        data: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
        buffers: list[bytes] | None = None,
        **keys: Any,
    ) -> None:
        content = {"data": data or {}, "comm_id": self.comm_id, **keys}
        self.kernel.session.send(
            self.kernel.iopub_socket, msg_type, content, metadata=metadata or {}, ident=self.topic, buffers=buffers
        )

    def handle_msg(self, msg: dict[str, Any]) -> None:
        self._on_frame(msg)


class KernelChannel:
    """Serves ``app`` (running on ``loop``) to the Jupyter server through ``kernel``'s messaging.

    With ipykernel's fast paths (``fast``), the channel's messages publish no status and are taken in
    the shell-channel thread (``adapters.ipykernel``); without them ipykernel handles them as any
    comm message.

    Example::

        channel = KernelChannel(kernel, server.fast_paths_taken)
        channel.open(app, runner.loop, hello=lambda: server.describe().to_json())
        ...
        channel.close()
    """

    def __init__(self, kernel: Any, fast: FastPaths = PUBLIC) -> None:
        self.kernel = kernel
        self.fast = fast
        self.comm: _ChannelComm | None = None
        self.exchanges: MessageExchanges | None = None
        self._undo: list[Callable[[], None]] = []
        self._intake: ShellIntake | None = None

    @property
    def comm_id(self) -> str | None:
        return self.comm.comm_id if self.comm is not None else None

    @property
    def subshells(self) -> bool:
        """Whether the kernel has subshells (JEP 91), so the Jupyter server sends on one of its own."""
        return getattr(self.kernel, "shell_channel_thread", None) is not None

    def open(self, app: ASGIApp, loop: asyncio.AbstractEventLoop, hello: Callable[[], dict[str, Any]]) -> None:
        if self.comm is not None:
            return
        self.exchanges = MessageExchanges(app, loop, self._send, hello)
        self.comm = _ChannelComm(self.kernel, self._receive)
        self.kernel.comm_manager.register_comm(self.comm)
        self._undo = [_route_comms_on_control(self.kernel, self.comm.comm_id, self._receive)]
        if not self.fast.takes(ipykernel.LIBRARY):
            return
        self._undo.append(ipykernel.quiet_status(self.kernel, self._ours))
        intake = ShellIntake(self.kernel, self.comm.comm_id, self._receive, self.fast)
        if intake.install():
            self._intake = intake
            self._undo.append(intake.undo)

    def close(self) -> None:
        """Fail what is under way, tell the Jupyter server (a comm_close on IOPub), unregister."""
        exchanges = self.exchanges
        if exchanges is not None:
            _on_loop(exchanges.loop, lambda: exchanges.close(_STOPPED))
        comm, undo = self.comm, self._undo
        self.comm, self.exchanges, self._undo, self._intake = None, None, [], None
        if comm is not None:
            comm.close()
        for step in reversed(undo):
            step()

    # ---- messages ------------------------------------------------------------------------------

    def _receive(self, msg: dict[str, Any], parent: Sender | None = None) -> None:
        """A comm_msg from the Jupyter server (on the shell-channel, a subshell's or the control thread);
        ``parent`` when its answers go back to its sender alone."""
        exchanges = self.exchanges
        data = msg.get("content", {}).get("data")
        if exchanges is None or not isinstance(data, Mapping):
            return
        exchanges.receive(data, msg.get("buffers") or [], str(msg["header"].get("session", "")), parent or msg)

    def _send(self, frame: Mapping[str, Any], buffers: list[bytes], reply_to: object) -> None:
        """One frame out as a comm_msg, in reply to the request's message (on the server's loop): to its
        sender alone when it can be (a ``Sender``), else on IOPub."""
        comm = self.comm
        if comm is None:
            return
        content = {"comm_id": comm.comm_id, "data": dict(frame)}
        if isinstance(reply_to, Sender):
            reply_to.reply(self.kernel.session, "comm_msg", content, buffers)
            return
        self.kernel.session.send(
            self.kernel.iopub_socket, "comm_msg", content, parent=reply_to, ident=comm.topic, buffers=buffers
        )

    def _ours(self, parent: Mapping[str, Any] | None) -> bool:
        if not parent or self.comm is None:
            return False
        content = parent.get("content")
        return isinstance(content, Mapping) and content.get("comm_id") == self.comm.comm_id


def _on_loop(loop: asyncio.AbstractEventLoop, step: Callable[[], object]) -> None:
    """Run ``step`` on ``loop`` and wait for it (at once when this is the loop's thread)."""
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        step()
        return

    async def run() -> None:
        step()

    with contextlib.suppress(RuntimeError, TimeoutError, concurrent.futures.TimeoutError):
        asyncio.run_coroutine_threadsafe(run(), loop).result(_CLOSE_WAIT)


def _route_comms_on_control(kernel: Any, comm_id: str, take: Take) -> Callable[[], None]:
    """ipykernel takes comm messages on the shell only, which (without subshells) waits for the running cell: the
    control channel takes them too. The channel's own that ask for it (``here``) go to ``take`` with their sender,
    to be answered on the control socket; every other goes to the comm manager, as on the shell."""
    if "comm_msg" in kernel.control_handlers:
        return lambda: None
    usual = kernel.comm_manager.comm_msg

    def on_control(stream: Any, idents: list[bytes], msg: dict[str, Any]) -> None:
        content = msg.get("content")
        data = content.get("data") if isinstance(content, Mapping) and content.get("comm_id") == comm_id else None
        if isinstance(data, Mapping) and data.get("here") is True:
            take(msg, Sender(msg, list(idents), stream))
        else:
            usual(stream, idents, msg)

    kernel.control_handlers["comm_msg"] = on_control
    return lambda: kernel.control_handlers.pop("comm_msg", None)


def current_kernel() -> Any | None:
    """The ipykernel kernel this process runs, if it is one (``None`` in plain Python)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    return kernel if hasattr(kernel, "comm_manager") and hasattr(kernel, "iopub_socket") else None
