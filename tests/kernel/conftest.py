"""Kernel fixtures: real python3 kernels with the extension loaded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness import Kernel


@pytest.fixture
def runtime_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An isolated Jupyter runtime dir shared by this test process and its kernels."""
    directory = tmp_path / "runtime"
    directory.mkdir()
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(directory))
    return directory


@pytest.fixture
def kernel(runtime_dir: Path) -> Iterator[Kernel]:
    """A fresh kernel with ``%load_ext jupyter_mcp`` done."""
    started = Kernel(env={"JUPYTER_RUNTIME_DIR": str(runtime_dir)})
    try:
        started.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")
        yield started
    finally:
        started.shutdown()


def endpoint(kernel: Kernel) -> tuple[str, str]:
    """The kernel server's URL and token."""
    url, token = kernel.value("(server.url, server.token)")
    return str(url), str(token)
