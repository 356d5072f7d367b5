"""The one error of the network layer: a request that could not be completed."""

from __future__ import annotations

import asyncio


class HttpError(Exception):
    """A request could not be completed; ``sent`` says whether the server may have seen it (and run it).

    The message is one sentence a user can act on ("connection refused", "the server closed the
    connection"); callers say which server it was about.
    """

    def __init__(self, message: str, *, sent: bool) -> None:
        super().__init__(message)
        self.sent = sent


def describe(exc: BaseException) -> str:
    """A low-level network exception in a few words."""
    if isinstance(exc, asyncio.IncompleteReadError):
        return "the server closed the connection"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return str(exc) or type(exc).__name__
