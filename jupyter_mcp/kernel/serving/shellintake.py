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
does, so it cannot be replayed).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from hmac import compare_digest
from typing import Any

logger = logging.getLogger(__name__)

_COMM_MSG = b'"comm_msg"'


@dataclass(frozen=True)
class ShellParent:
    """A message taken on the shell socket: its answers go back there, to ``idents`` (its sender)."""

    msg: dict[str, Any]
    idents: list[bytes]


Take = Callable[[dict[str, Any], ShellParent], None]
"""Receives one of the channel's messages, deserialized (called in the shell-channel thread)."""


class ShellIntake:
    """Routes ``comm_id``'s ``comm_msg``s to ``take`` (``install``; ``undo``), and sends answers (``reply``).

    Example::

        intake = ShellIntake(kernel, comm.comm_id, lambda msg, parent: ...)
        if intake.install():
            intake.reply(parent, "comm_msg", {"comm_id": comm.comm_id, "data": {}}, [])
    """

    def __init__(self, kernel: Any, comm_id: str, take: Take) -> None:
        self.kernel = kernel
        self.comm_id = comm_id
        self._take = take
        self._wanted = comm_id.encode()
        thread = getattr(kernel, "shell_channel_thread", None)
        self._loop: Any = getattr(thread, "io_loop", None)
        self._stream: Any = getattr(kernel, "shell_stream", None)
        self._usual: Callable[[list[Any]], object] | None = getattr(kernel, "shell_channel_thread_main", None)

    def install(self) -> bool:
        """Take the channel's messages from now on (``False``: this kernel has no shell-channel thread)."""
        if self._loop is None or self._stream is None or self._usual is None:
            return False
        # A ZMQStream belongs to its thread: change its callback there.
        self._loop.add_callback(self._stream.on_recv, self._on_recv, copy=False)
        return True

    def undo(self) -> None:
        stream, usual = self._stream, self._usual
        if self._loop is None or usual is None:
            return

        def restore() -> None:
            if not stream.closed():
                stream.on_recv(usual, copy=False)

        with contextlib.suppress(RuntimeError):  # the thread's loop is closed: the kernel is going away
            self._loop.add_callback(restore)

    def reply(self, parent: ShellParent, msg_type: str, content: Mapping[str, Any], buffers: list[bytes]) -> None:
        """Send a message to ``parent``'s sender on the shell socket (from any thread)."""
        session = self.kernel.session
        msg = session.msg(msg_type, dict(content), parent=parent.msg)
        parts = [*session.serialize(msg, ident=parent.idents), *buffers]
        with contextlib.suppress(RuntimeError):  # the kernel is going away
            self._loop.add_callback(self._send, parts)

    def _send(self, parts: list[bytes]) -> None:
        if not self._stream.closed():
            self._stream.send_multipart(parts, copy=False)

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

    def _ours(self, parts: list[Any]) -> ShellParent | None:
        """The message, when it is a signed ``comm_msg`` to the comm (else ``None``, nothing consumed).

        Lighter than ``Session.deserialize`` (a third of this thread's time went there): the same
        signature and replay checks, but no metadata, no dates parsed, no version adaptation."""
        session = self.kernel.session
        try:
            idents, frames = session.feed_identities(parts, copy=False)
            if len(frames) < 5 or _COMM_MSG not in frames[1].bytes or self._wanted not in frames[4].bytes:
                return None
            signed = [frame.bytes for frame in frames[:5]]
            if not _authentic(session, signed):
                return None  # the usual path says what is wrong with it
            header, content = session.unpack(signed[1]), session.unpack(signed[4])
        except (ValueError, TypeError, IndexError):  # malformed: the usual path says so
            return None
        if header.get("msg_type") != "comm_msg" or not isinstance(content, dict):
            return None
        if content.get("comm_id") != self.comm_id:
            return None
        if session.auth is not None:
            session._add_digest(signed[0])  # used up, as ``Session.deserialize`` records it (bounded there)
        msg = {"header": header, "msg_type": "comm_msg", "content": content, "buffers": [f.bytes for f in frames[5:]]}
        return ShellParent(msg, [bytes(ident) for ident in idents])


def _authentic(session: Any, signed: list[bytes]) -> bool:
    """Signed with the kernel's key, and not a replay (``Session.deserialize``'s checks)."""
    if session.auth is None:
        return True
    signature = signed[0]
    return (
        bool(signature)
        and signature not in session.digest_history
        and compare_digest(signature, session.sign(signed[1:5]))
    )
