"""SSE keepalive: a comment line when a stream has been quiet, only between events.

A long tool call sends nothing until its result; proxies (JupyterHub's, nginx) and clients close
connections that stay silent too long. An SSE comment (``: keepalive``) is ignored by every
client, and is written only at an event boundary so it never splits an event.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tornado.ioloop import IOLoop

COMMENT = b": keepalive\n\n"


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
        self._tail = b"\n\n"  # before the first event we are at a boundary
        self._handle: object | None = None
        if interval > 0:
            self._arm(interval)

    @property
    def at_boundary(self) -> bool:
        return self._tail.endswith((b"\n\n", b"\r\n\r\n", b"\r\r"))

    def passed(self, chunk: bytes) -> None:
        """Note a chunk forwarded to the client."""
        if chunk:
            self._tail = (self._tail + chunk)[-4:]
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
