"""Widget fixtures: an in-process ``NotebookServer`` for view tests, and the kernel fixtures.

The kernel fixtures (``kernel``, ``runtime_dir``) are the ones ``tests/kernel`` uses: a real
python3 kernel with ``%load_ext jupyter_mcp`` done and ``server = jupyter_mcp.get_server()``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from jupyter_mcp.kernel.server import NotebookServer
from tests.kernel.conftest import kernel, runtime_dir

__all__ = ["eventually", "kernel", "runtime_dir"]

T = TypeVar("T")


@pytest.fixture
def server(runtime_dir: Path) -> Iterator[NotebookServer]:
    """A ``NotebookServer`` in this process (no kernel): widgets get a dummy comm, calls are real."""
    notebook_server = NotebookServer()
    try:
        yield notebook_server
    finally:
        notebook_server.stop()  # also puts sys.stdout/stderr back


def eventually(probe: Callable[[], T], *, timeout: float = 15.0, what: str = "condition") -> T:
    """Poll ``probe`` until it returns something truthy; fail after ``timeout`` seconds.

    The timeout only bounds a hang: the panels refresh within 0.1 s, and nothing here
    measures speed.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached in {timeout}s; last value: {value!r}")
        time.sleep(0.02)
