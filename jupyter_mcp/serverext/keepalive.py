"""SSE keepalive: a comment line when a stream has been quiet, only between events.

A long tool call sends nothing until its result; proxies (JupyterHub's, nginx) and clients close
connections that stay silent too long. An SSE comment (``: keepalive``) is ignored by every
client, and is written only at an event boundary (as the one SSE parser, ``_wire.sse``, sees the
stream) so it never splits an event.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tornado.ioloop import IOLoop

from jupyter_mcp._wire.sse import EventParser, comment

COMMENT = comment("keepalive")


class SSEKeepalive:
    """Calls ``write(COMMENT)`` after ``interval`` seconds without data, until ``stop()``.

    Example::

        keepalive = SSEKeepalive(15.0, handler_write)
        keepalive.passed(chunk)   # after forwarding each chunk
        keepalive.stop()
    """

    def __init__(self, interval: float, write: Callable[[bytes], None]) -> None:
        self.interval = interval
        self._write = write
        self._last = time.monotonic()
        self._stream = EventParser()
        self._handle: object | None = None
        if interval > 0:
            self._arm(interval)

    @property
    def at_boundary(self) -> bool:
        return self._stream.at_boundary

    def passed(self, chunk: bytes) -> None:
        """Note a chunk forwarded to the client."""
        if chunk:
            self._stream.feed(chunk)
            self._last = time.monotonic()

    def stop(self) -> None:
        if self._handle is not None:
            IOLoop.current().remove_timeout(self._handle)
            self._handle = None

    def _arm(self, delay: float) -> None:
        self._handle = IOLoop.current().call_later(delay, self._tick)

    def _tick(self) -> None:
        quiet = time.monotonic() - self._last
        if quiet >= self.interval and self.at_boundary:
            self._write(COMMENT)
            self._last = time.monotonic()
            quiet = 0.0
        self._arm(max(self.interval - quiet, 0.05))
