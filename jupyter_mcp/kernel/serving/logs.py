"""Keep SDK, uvicorn and our own logging out of cells and away from the user's logging setup.

Their loggers stop propagating to the root logger (which the user may have configured to print
into cells); records go to a small in-memory ring that ``%mcp log`` shows instead.
"""

from __future__ import annotations

import logging
from collections import deque

LIBRARY_LOGGERS = (
    "mcp",
    "uvicorn",
    "uvicorn.error",
    "uvicorn.access",
    "httpx",
    "httpx2",
    "sse_starlette",
    "jupyter_mcp",
)


class RingHandler(logging.Handler):
    def __init__(self, capacity: int = 500) -> None:
        super().__init__(logging.DEBUG)
        self.lines: deque[str] = deque(maxlen=capacity)
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(self.format(record))
        except Exception:  # logging must never raise into the server
            self.handleError(record)


ring = RingHandler()


def quiet_library_loggers() -> None:
    """Idempotent: route library loggers to ``ring`` only."""
    for name in LIBRARY_LOGGERS:
        library_logger = logging.getLogger(name)
        library_logger.propagate = False
        if ring not in library_logger.handlers:
            library_logger.addHandler(ring)
        if library_logger.level == logging.NOTSET:
            library_logger.setLevel(logging.INFO if name != "uvicorn.access" else logging.WARNING)
