"""The kernel channel's messages: HTTP exchanges carried as Jupyter comm messages (one typed shape).

A kernel that the Jupyter server cannot reach on loopback serves its MCP app over its own
messaging. The kernel keeps one comm with the target ``COMM_TARGET``, unannounced: the Jupyter
server finds it with a ``comm_info_request`` on the control channel (which answers while a cell
runs, and lists nothing for a kernel without jupyter_mcp) and sends ``comm_msg`` to it, on a
subshell of its own where the kernel has them (ipykernel 7, JEP 91), else on the control channel.

Each message's ``data`` is one frame below; a body piece, when there is one, is the message's one
binary buffer (never base64). Frames of one exchange share an ``id`` chosen by the sender of the
request; response frames are numbered (``seq``) so a lost message (IOPub drops messages when a
reader falls behind) ends the exchange with an error instead of a silently damaged body.
"""

from __future__ import annotations

from typing import Literal, TypedDict

COMM_TARGET = "jupyter_mcp"
"""The comm's target name, as ``comm_info_request`` lists it."""

PROTOCOL = 1
"""This frame vocabulary's version, in the ``hello`` reply."""

PIECE = 1024 * 1024
"""The largest body piece in one message: far below the websocket limits of gateways (10 MiB)."""

Header = tuple[str, str]


class RequestFrame(TypedDict, total=False):
    """Server -> kernel: ``request`` (the head, maybe the first body piece), ``body`` (more of it),
    ``cancel`` (the client went away), ``hello`` (what the kernel serves; answered with ``HelloFrame``)."""

    op: Literal["request", "body", "cancel", "hello"]
    id: str
    method: str
    target: str
    """Path and query, as in an HTTP request line."""
    headers: list[list[str]]
    more: bool
    """More body pieces follow (``request``, ``body``)."""


class ResponseFrame(TypedDict, total=False):
    """Kernel -> server: the answer's head (first frame only), body pieces, the end; or an error."""

    op: Literal["response", "error"]
    id: str
    seq: int
    status: int
    headers: list[list[str]]
    more: bool
    """More frames follow; ``False`` ends the response."""
    message: str
    """``error`` only: why the exchange failed, in one sentence."""


class HelloFrame(TypedDict):
    """Kernel -> server: the answer to ``hello``."""

    op: Literal["hello"]
    id: str
    protocol: int
    info: dict[str, object]
    """The kernel's ``discovery.ServerInfo`` as JSON, its credentials included."""


def pieces(body: bytes, size: int = PIECE) -> list[bytes]:
    """``body`` cut into pieces of at most ``size`` bytes (none for an empty body)."""
    view = memoryview(body)
    return [bytes(view[start : start + size]) for start in range(0, len(body), size)]
