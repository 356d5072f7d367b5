"""Per-call stdout/stderr capture: a tool's output goes into its call record, not into a cell.

The streams are patched once; each write checks a context variable naming the running call.
The variable is set around the tool function in the thread (or task) that runs it, so threads
the tool starts with ``contextvars.copy_context()`` are captured too.

Not capturable: writes straight to file descriptors 1/2 (C extensions, subprocesses inheriting
them), and plain ``threading.Thread`` workers (they start with an empty context); those reach
whichever cell ipykernel routes them to.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TextIO

from jupyter_mcp.tools.calls.context import CallScope

Sink = Callable[[str, str, str], None]
"""``sink(call_id, stream_name, text)``."""

_current: ContextVar[tuple[str, Sink] | None] = ContextVar("jupyter_mcp_capture", default=None)


class OutputCapture:
    """Install once per process; ``hook`` is a tool-layer execution hook.

    The stream *class* is patched (ipykernel's ``OutStream``), beneath IPython's per-cell tee,
    which saves and restores the instance's ``write`` around every cell. A C-level stream (a
    plain terminal) is wrapped in a proxy instead.
    """

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self._undo: list[Callable[[], None]] = []

    @property
    def installed(self) -> bool:
        return bool(self._undo)

    def install(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Patch the streams; ``loop`` (the kernel's) lets us heal IPython's tee after this cell."""
        if self._undo:
            return
        for name in ("stdout", "stderr"):
            stream = getattr(sys, name)
            if _patch_class(type(stream), self._undo) or _is_patched(type(stream)):
                _heal(stream)
                if loop is not None:
                    # The running cell's tee will restore the stale instance attribute when the cell
                    # ends; the loop runs this callback after that.
                    loop.call_soon_threadsafe(_heal, stream)
            else:
                setattr(sys, name, _StreamProxy(stream, name))
                self._undo.append(lambda name=name, stream=stream: setattr(sys, name, stream))  # type: ignore[misc]

    def uninstall(self) -> None:
        while self._undo:
            self._undo.pop()()

    @contextlib.contextmanager
    def hook(self, scope: CallScope) -> Iterator[None]:
        token = _current.set((scope.call_id, self.sink))
        try:
            yield
        finally:
            # No flush: routed writes never reach the stream's buffer, and ipykernel's flush from
            # a non-IO thread waits for a round trip through its IOPub thread (measured cost).
            _current.reset(token)


def _captured(text: str, stream: Any) -> bool:
    """Send ``text`` to the running call's sink, if a call is running in this context.

    ``stream`` is a stream name or a stream object (named only when captured: this check runs on
    every write of every cell).
    """
    target = _current.get()
    if target is None:
        return False
    call_id, sink = target
    sink(call_id, stream if isinstance(stream, str) else _stream_name(stream), text)
    return True


def _stream_name(stream: Any) -> str:
    name = str(getattr(stream, "name", "stdout")).strip("<>")
    return name if name in ("stdout", "stderr") else "stdout"


_PATCHED_MARK = "__jupyter_mcp_capture__"


def _is_patched(cls: type) -> bool:
    return bool(getattr(cls.__dict__.get("write"), _PATCHED_MARK, False))


def _heal(stream: Any) -> None:
    """Drop an instance ``write`` that binds the unpatched method (IPython's tee leaves one)."""
    bound = vars(stream).get("write") if hasattr(stream, "__dict__") else None
    function = getattr(bound, "__func__", None)
    if function is not None and not getattr(function, _PATCHED_MARK, False):
        with contextlib.suppress(AttributeError):
            del stream.write


def _patch_class(cls: type, undo: list[Callable[[], None]]) -> bool:
    """Route ``cls.write`` through the capture; False when the class cannot be patched (or is already)."""
    original = cls.__dict__.get("write")
    if original is None or getattr(original, _PATCHED_MARK, False):
        return False

    def write(self: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        if _captured(text, self):
            return len(text)
        return original(self, text, *args, **kwargs)

    setattr(write, _PATCHED_MARK, True)
    try:
        cls.write = write  # type: ignore[attr-defined]
    except TypeError:
        return False  # a built-in type
    undo.append(lambda: setattr(cls, "write", original))
    return True


class _StreamProxy:
    def __init__(self, stream: TextIO, name: str) -> None:
        self._stream = stream
        self._name = name

    def write(self, text: str) -> int:
        if _captured(text, self._name):
            return len(text)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
