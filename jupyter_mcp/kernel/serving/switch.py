"""``SwitchInterval``: a lower GIL switch interval while the server serves, restored after.

With Python's 5 ms default a call waits about twenty switch intervals while a CPU-bound cell runs;
a lower interval (``JupyterMCP.switch_interval``) makes the serving thread answer promptly.
An observer of the server's lifecycle; it restores the old value only if nobody changed it since.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from jupyter_mcp.tools.transports.http.serving import Lifecycle

PYTHON_SWITCH_INTERVAL = 0.005


class SwitchInterval:
    """Apply ``interval()`` when serving starts; restore the previous value when it stops."""

    def __init__(self, interval: Callable[[], float | None]) -> None:
        self._interval = interval
        self._previous: float | None = None
        self._applied: float | None = None

    def __call__(self, state: Lifecycle) -> None:
        if state == "started":
            self.apply(self._interval())
        else:
            self.restore()

    def apply(self, interval: float | None) -> None:
        if interval is None or self._applied is not None or sys.getswitchinterval() != PYTHON_SWITCH_INTERVAL:
            return
        self._previous = sys.getswitchinterval()
        sys.setswitchinterval(interval)
        self._applied = sys.getswitchinterval()

    def restore(self) -> None:
        if self._applied is not None and self._previous is not None and sys.getswitchinterval() == self._applied:
            sys.setswitchinterval(self._previous)
        self._previous = self._applied = None
