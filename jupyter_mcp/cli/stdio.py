"""The stdio side of a stdio MCP server: JSON-RPC lines in on stdin, out on a private stdout.

``claim_stdout()`` moves the real stdout to a private descriptor and points fd 1 at stderr,
so nothing else in this process (or a child it starts, like a kernel) can write into the
client's JSON-RPC stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
from collections.abc import AsyncIterator
from typing import BinaryIO

_LINE_LIMIT = 64 * 1024 * 1024


def claim_stdout() -> BinaryIO:
    """The client's stream, for JSON-RPC only; fd 1 (``print``, children) now goes to stderr."""
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    return os.fdopen(private, "wb", buffering=0)


class LineWriter:
    """Writes one message per line without blocking the loop (a pipe transport buffers)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._transport: asyncio.WriteTransport | None = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(ValueError, OSError):  # not a pipe (a file, say): write directly
            self._transport, _ = await loop.connect_write_pipe(asyncio.Protocol, self._stream)

    def send(self, line: bytes) -> None:
        data = line + b"\n"
        if self._transport is not None:
            if not self._transport.is_closing():
                self._transport.write(data)
            return
        with contextlib.suppress(BrokenPipeError):
            self._stream.write(data)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()


async def read_lines(stream: BinaryIO | None = None) -> AsyncIterator[bytes]:
    """Non-empty lines from ``stream`` (stdin) until EOF."""
    stream = stream or sys.stdin.buffer
    reader = asyncio.StreamReader(limit=_LINE_LIMIT)
    loop = asyncio.get_running_loop()
    try:
        if not _pollable(stream):
            raise ValueError("not a pipe, socket or terminal")
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stream)
    except (ValueError, OSError):
        async for line in _read_lines_in_thread(stream):
            yield line
        return
    while True:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:
            if exc.partial.strip():
                yield exc.partial.strip()
            return
        except asyncio.LimitOverrunError as exc:
            # Drop what was read of an oversized line; its rest arrives as an invalid message.
            await reader.readexactly(exc.consumed)
            continue
        if line := line.strip():
            yield line


def _pollable(stream: BinaryIO) -> bool:
    """Pipes, sockets, terminals; not files or /dev/null, which epoll refuses after the fact (no EOF ever)."""
    descriptor = stream.fileno()
    mode = os.fstat(descriptor).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(descriptor)


async def _read_lines_in_thread(stream: BinaryIO) -> AsyncIterator[bytes]:
    while line := await asyncio.to_thread(stream.readline):
        if line := line.strip():
            yield line
