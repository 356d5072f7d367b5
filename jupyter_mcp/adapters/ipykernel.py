"""ipykernel's private parts and internal hooks this package reaches; ``adapter_for(kernel).check()`` tests them.

Each reach, why, and the public API that would end it:

- ``Kernel._publish_status``, replaced on the kernel instance: no busy/idle on IOPub for the kernel
  channel's messages (``quiet_status``). JupyterLab shows a kernel's state from every status
  message, so a call answered on a subshell would show "idle" while a cell still runs. Public
  alternative: a way to handle a message without status (as ``comm_info_request`` cannot either).
- The shell-channel thread's receive callback (``shell_stream.on_recv``, normally
  ``shell_channel_thread_main``), swapped: the channel's own ``comm_msg``s are taken in that thread
  and answered on the shell socket, to the Jupyter server alone, without the hand-off to a subshell
  thread, its status messages and its output flushes (``take_shell_messages``). Public alternative:
  a per-comm handler that runs in the shell-channel thread.

When the check fails, or the fast paths are off: status messages go out for the channel's
messages as for any other, and its messages on a subshell are handled by ipykernel's subshell
thread like any comm message (answered on IOPub).
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from jupyter_mcp.adapters.fastpaths import Adapter

LIBRARY = "ipykernel"

Ours = Callable[[Mapping[str, Any] | None], bool]
OnRecv = Callable[[list[Any]], object]


def quiet_status(kernel: Any, ours: Ours) -> Callable[[], None]:
    """Publish no status for a message ``ours(parent)`` says is the channel's; returns the undo."""
    publish = kernel._publish_status

    def publish_status(status: str, channel: str, parent: Mapping[str, Any] | None = None) -> None:
        if not ours(parent or kernel.get_parent(channel)):
            publish(status, channel, parent)

    kernel._publish_status = publish_status

    def undo() -> None:
        if kernel.__dict__.get("_publish_status") is publish_status:
            del kernel.__dict__["_publish_status"]

    return undo


def shell_channel(kernel: Any) -> tuple[Any, Any, OnRecv] | None:
    """The shell-channel thread's loop, the shell stream and its usual receive callback (``None``: this kernel
    reads the shell socket in its main thread: no subshells)."""
    thread = getattr(kernel, "shell_channel_thread", None)
    loop, stream = getattr(thread, "io_loop", None), getattr(kernel, "shell_stream", None)
    usual = getattr(kernel, "shell_channel_thread_main", None)
    if loop is None or stream is None or usual is None:
        return None
    return loop, stream, usual


def take_shell_messages(kernel: Any, on_recv: OnRecv) -> Callable[[], None] | None:
    """Have ``on_recv(parts)`` read the shell socket first (it hands what it does not take to the usual callback,
    ``shell_channel(kernel)[2]``); returns the undo, or ``None`` for a kernel without the shell-channel thread."""
    found = shell_channel(kernel)
    if found is None:
        return None
    loop, stream, usual = found
    loop.add_callback(stream.on_recv, on_recv, copy=False)  # a ZMQStream belongs to its thread: changed there

    def undo() -> None:
        def restore() -> None:
            if not stream.closed():
                stream.on_recv(usual, copy=False)

        with contextlib.suppress(RuntimeError):  # the thread's loop is closed: the kernel is going away
            loop.add_callback(restore)

    return undo


def adapter_for(kernel: Any) -> Adapter:
    """The adapter, checked against this kernel."""
    return Adapter(LIBRARY, lambda: _check(kernel), "ipykernel's own status messages and subshell handling")


def _check(kernel: Any) -> str | None:
    publish = getattr(kernel, "_publish_status", None)
    if not callable(publish) or list(inspect.signature(publish).parameters)[:3] != ["status", "channel", "parent"]:
        return "Kernel._publish_status(status, channel, parent) changed"
    if getattr(kernel, "shell_channel_thread", None) is None:
        return None  # no shell-channel thread (no subshells): nothing more is reached
    found = shell_channel(kernel)
    if found is None:
        return "the shell-channel thread's loop, shell_stream or shell_channel_thread_main is gone"
    loop, stream, usual = found
    if not callable(getattr(loop, "add_callback", None)) or not callable(getattr(stream, "on_recv", None)):
        return "the shell-channel thread's loop or shell_stream changed"
    if list(inspect.signature(usual).parameters) != ["msg"]:
        return "Kernel.shell_channel_thread_main(msg) changed"
    return None
