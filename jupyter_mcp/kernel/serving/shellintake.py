"""``ShellIntake``: the kernel channel's messages taken, and answered, where ipykernel 7 reads the shell socket.

ipykernel 7 (JEP 91) reads the shell socket in a thread of its own and passes each message on to
the thread of the subshell it names, which handles it as any shell message: status on IOPub,
IPython's hooks, then stdout and stderr flushed through the IOPub thread and waited for. For the
channel's frames all of that is waste, and each hand-off to another thread waits for the GIL (a
switch interval or more while a CPU-bound cell runs). So the channel's own ``comm_msg``s are taken
in the shell-channel thread and go straight to the MCP app's loop; every other message (and ours,
should this kernel's internals differ from what is expected here) goes the usual way.

Their answers go back on the shell socket to the sender alone, not on IOPub: IOPub reaches every
client of the kernel (JupyterLab's connections, the Jupyter server's activity watcher), each of
which would decode every frame of every MCP exchange.

Nothing is trusted before the message's signature is checked (and noted, as ``Session.deserialize``
does, so it cannot be replayed): by jupyter_client's fast path (``adapters.jupyter_client.verified``,
a third of this thread's time went to ``deserialize``), else by ``Session.deserialize`` itself.

This is ipykernel's fast path (``adapters.ipykernel.take_shell_messages``): the channel installs it only
when that adapter's check passed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from jupyter_mcp.adapters import ipykernel, jupyter_client
from jupyter_mcp.adapters.fastpaths import PUBLIC, FastPaths

logger = logging.getLogger(__name__)

_COMM_MSG = b'"comm_msg"'


@dataclass(frozen=True)
class Sender:
    """A message taken where its answers can go back to its sender alone: ``stream`` (the socket it came on, a
    ZMQStream of ipykernel's), by ``idents``, from ``stream``'s own thread (its ``io_loop``)."""

    msg: dict[str, Any]
    idents: list[bytes]
    stream: Any

    def reply(self, session: Any, msg_type: str, content: Mapping[str, Any], buffers: list[bytes]) -> None:
        """Send a message in answer to ``msg``, to its sender (from any thread)."""
        msg = session.msg(msg_type, dict(content), parent=self.msg)
        parts = [*session.serialize(msg, ident=self.idents), *buffers]
        with contextlib.suppress(RuntimeError):  # the kernel is going away
            self.stream.io_loop.add_callback(self._send, parts)

    def _send(self, parts: list[bytes]) -> None:
        if not self.stream.closed():
            self.stream.send_multipart(parts, copy=False)


Take = Callable[[dict[str, Any], Sender], None]
"""Receives one of the channel's messages, deserialized, and where its answers go (called in the thread that read
it)."""


class ShellIntake:
    """Routes ``comm_id``'s ``comm_msg``s to ``take`` (``install``; ``undo``); their answers go to their ``Sender``.

    Example::

        intake = ShellIntake(kernel, comm.comm_id, lambda msg, sender: sender.reply(kernel.session, ...))
        intake.install()
    """

    def __init__(self, kernel: Any, comm_id: str, take: Take, fast: FastPaths = PUBLIC) -> None:
        self.kernel = kernel
        self.comm_id = comm_id
        self._take = take
        self._wanted = comm_id.encode()
        self._quick_check = fast.takes(jupyter_client.LIBRARY)
        found = ipykernel.shell_channel(kernel)
        self._stream: Any = found[1] if found is not None else None
        self._usual: Callable[[list[Any]], object] | None = found[2] if found is not None else None
        self._undo: Callable[[], None] | None = None

    def install(self) -> bool:
        """Take the channel's messages from now on (``False``: this kernel has no shell-channel thread)."""
        self._undo = ipykernel.take_shell_messages(self.kernel, self._on_recv)
        return self._undo is not None

    def undo(self) -> None:
        if self._undo is not None:
            self._undo()

    def _on_recv(self, parts: list[Any]) -> object:
        taken = self._ours(parts)
        if taken is None:
            assert self._usual is not None
            return self._usual(parts)
        try:
            self._take(taken.msg, taken)
        except Exception:  # the shell-channel thread must keep reading
            logger.exception("the kernel channel failed on a message")
        return None

    def _ours(self, parts: list[Any]) -> Sender | None:
        """The message, when it is a signed ``comm_msg`` to the comm (else ``None``, nothing consumed).

        A look at the raw header and content first (most messages are not the channel's), then the
        signature and replay checks (see the module docstring)."""
        session = self.kernel.session
        try:
            idents, frames = session.feed_identities(parts, copy=False)
            if len(frames) < 5 or _COMM_MSG not in frames[1].bytes or self._wanted not in frames[4].bytes:
                return None
            header, content = session.unpack(frames[1].bytes), session.unpack(frames[4].bytes)
        except (ValueError, TypeError, IndexError):  # malformed: the usual path says so
            return None
        if header.get("msg_type") != "comm_msg" or not isinstance(content, dict):
            return None
        if content.get("comm_id") != self.comm_id or not self._authentic(session, frames):
            return None  # the usual path says what is wrong with it
        msg = {"header": header, "msg_type": "comm_msg", "content": content, "buffers": [f.bytes for f in frames[5:]]}
        return Sender(msg, [bytes(ident) for ident in idents], self._stream)

    def _authentic(self, session: Any, frames: list[Any]) -> bool:
        """Signed with the kernel's key and no replay; the signature is noted as used."""
        if self._quick_check:
            return jupyter_client.verified(session, [frame.bytes for frame in frames[:5]])
        try:
            session.deserialize(frames, content=True, copy=False)  # only unpacking notes the signature as used
        except Exception:  # a bad signature, a replay, a malformed message
            return False
        return True
