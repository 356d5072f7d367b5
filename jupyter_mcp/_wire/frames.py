"""The kernel channel's messages: HTTP exchanges carried as Jupyter comm messages (one typed shape).

A kernel that the Jupyter server cannot reach on loopback serves its MCP app over its own
messaging. The kernel keeps one comm with the target ``COMM_TARGET``, unannounced: the Jupyter
server finds it with a ``comm_info_request`` on the control channel (which answers while a cell
runs, and lists nothing for a kernel without jupyter_mcp) and sends ``comm_msg`` to it, on a
subshell of its own where the kernel has them (ipykernel 7, JEP 91), else on the control channel.

Each message's ``data`` is one frame below; a body piece, when there is one, is the message's one
binary buffer (never base64), except where the request asks for ``text``. ipykernel 7 answers on the
shell socket, to the Jupyter server alone; the control route answers on the control socket, to the
Jupyter server alone, when the request says the server reads it there (``here``); otherwise (a
subshell handled by ipykernel itself, an older kernel) answers go on IOPub, which reaches every front
end of the kernel, and through a gateway the Jupyter server relays IOPub to JupyterLab
and decodes every websocket frame as UTF-8 text (jupyter_server's ``GatewayWebSocketConnection``),
so a binary frame there would cut JupyterLab's connection to the kernel. Such answers carry their
pieces as UTF-8 text in the frame (``body``; ``body64``, base64, only for a piece that is not UTF-8:
MCP's bodies always are).

Frames of one exchange share an ``id`` chosen by the sender of the request; response frames are
numbered (``seq``) so a lost message (IOPub drops messages when a reader falls behind) ends the
exchange with an error instead of a silently damaged body.
"""

from __future__ import annotations

import base64
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
    text: bool
    """``request``: answer with body pieces as text in the frames, not as buffers."""
    here: bool
    """Answer on the channel this message came on, to its sender alone (the control channel: the Jupyter server
    reads answers there; a kernel that does not know this answers on IOPub, where it reads them too)."""


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
    body: str
    """A body piece as UTF-8 text (when the request asked for ``text``)."""
    body64: str
    """A body piece in base64 (asked for ``text``, and the piece is not UTF-8)."""


class HelloFrame(TypedDict):
    """Kernel -> server: the answer to ``hello``."""

    op: Literal["hello"]
    id: str
    protocol: int
    info: dict[str, object]
    """The kernel's ``discovery.ServerInfo`` as JSON, its credentials included."""


def as_text(piece: bytes) -> ResponseFrame:
    """A body piece for a frame that carries it as text."""
    try:
        return {"body": piece.decode("utf-8")}
    except UnicodeDecodeError:
        return {"body64": base64.b64encode(piece).decode("ascii")}


def from_text(frame: ResponseFrame) -> bytes:
    """The body piece a frame carries as text (``b""`` when none)."""
    if "body" in frame:
        return frame["body"].encode("utf-8")
    return base64.b64decode(frame["body64"]) if "body64" in frame else b""


def pieces(body: bytes, size: int = PIECE) -> list[bytes]:
    """``body`` cut into pieces of at most ``size`` bytes (none for an empty body)."""
    view = memoryview(body)
    return [bytes(view[start : start + size]) for start in range(0, len(body), size)]
