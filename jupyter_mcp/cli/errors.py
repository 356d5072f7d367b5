"""The one error a command raises to stop with a message (no traceback) and an exit status."""

from __future__ import annotations


class CLIError(Exception):
    """A user-facing failure: ``jupyter-mcp: <message>`` on stderr, then exit with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status
