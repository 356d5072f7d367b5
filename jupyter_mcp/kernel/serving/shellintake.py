"""``take_on_shell_channel``: the kernel channel's messages taken where ipykernel 7 reads the shell socket.

ipykernel 7 (JEP 91) reads the shell socket in a thread of its own and passes each message on to
the thread of the subshell it names, which handles it as any shell message: status on IOPub,
IPython's hooks, then stdout and stderr flushed through the IOPub thread and waited for. For the
channel's frames all of that is waste, and each hand-off to another thread waits for the GIL (a
switch interval or more while a CPU-bound cell runs). So the channel's own ``comm_msg``s are taken
in the shell-channel thread and go straight to the MCP app's loop; every other message (and ours,
should this kernel's internals differ from what is expected here) goes the usual way.

Nothing is trusted before ``Session.deserialize`` has checked the message's signature (and noted
it, as ipykernel does, so it cannot be replayed).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

logger = logging.getLogger(__name__)

Take = Callable[[dict[str, Any]], None]
"""Receives one of the channel's messages, deserialized (called in the shell-channel thread)."""

_COMM_MSG = b'"comm_msg"'


def take_on_shell_channel(kernel: Any, comm_id: str, take: Take) -> Callable[[], None]:
    """Route ``comm_id``'s ``comm_msg``s to ``take``; returns what undoes it (a no-op where the kernel
    has no shell-channel thread, or not the one this expects)."""
    thread = getattr(kernel, "shell_channel_thread", None)
    stream = getattr(kernel, "shell_stream", None)
    usual = getattr(kernel, "shell_channel_thread_main", None)
    loop = getattr(thread, "io_loop", None)
    if thread is None or stream is None or usual is None or loop is None:
        return lambda: None
    wanted = comm_id.encode()

    def on_recv(parts: list[Any]) -> object:
        msg = _ours(kernel.session, parts, wanted, comm_id)
        if msg is None:
            return usual(parts)
        try:
            take(msg)
        except Exception:  # the shell-channel thread must keep reading
            logger.exception("the kernel channel failed on a message")
        return None

    # ZMQStream belongs to its thread: change its callback there.
    loop.add_callback(stream.on_recv, on_recv, copy=False)
    return lambda: _restore(loop, stream, usual)


def _restore(loop: Any, stream: Any, usual: Callable[[list[Any]], object]) -> None:
    def restore() -> None:
        if not stream.closed():
            stream.on_recv(usual, copy=False)

    with contextlib.suppress(RuntimeError):  # the thread's loop is closed: the kernel is going away
        loop.add_callback(restore)


def _ours(session: Any, parts: list[Any], wanted: bytes, comm_id: str) -> dict[str, Any] | None:
    """The message, when it is a signed ``comm_msg`` to ``comm_id`` (else ``None``, nothing consumed)."""
    try:
        _, frames = session.feed_identities(parts, copy=False)
        if len(frames) < 5 or _COMM_MSG not in frames[1].bytes or wanted not in frames[4].bytes:
            return None
        msg: dict[str, Any] = session.deserialize(frames, content=True, copy=False)
    except (ValueError, TypeError, IndexError):  # unsigned, replayed or malformed: the usual path says so
        return None
    content = msg.get("content")
    if msg.get("msg_type") == "comm_msg" and isinstance(content, dict) and content.get("comm_id") == comm_id:
        return msg
    session.digest_history.discard(frames[0].bytes)  # another comm's after all: its signature is not used up
    return None
