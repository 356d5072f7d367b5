"""The public path tested as seriously as the fast one: the same tests, with the fast paths off or fallen back.

- ``JUPYTER_MCP_FAST_PATHS=0``: every server in this run (and the kernels and Jupyter servers it starts)
  serves through the libraries' public APIs.
- ``JUPYTER_MCP_TEST_HIDE_PRIVATE=1``: the private parts the adapters reach are hidden from
  ``jupyter_mcp`` here and in every Python process started (``tests/privacy.py``): each adapter's
  self-check fails, warns once and falls back.

A test marked ``fast_path`` is about a fast path itself (its answer's shape, its timing) and is
skipped in those runs; every other test must pass in them as it does in the normal run.
"""

from __future__ import annotations

import os
import sys

import pytest

from jupyter_mcp.adapters.fastpaths import ENV, env_allows
from tests.privacy import HIDE_ENV, SITE, install


def hiding() -> bool:
    return os.environ.get(HIDE_ENV) == "1"


def public_run() -> bool:
    """Whether this run serves through the public path (fast paths off, or their private parts hidden)."""
    return hiding() or not env_allows()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"fast_path: tests a fast path itself (skipped when {ENV}=0 or {HIDE_ENV}=1)")
    if hiding():
        install()
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [SITE, os.environ.get("PYTHONPATH")]))
        sys.path.append(SITE)  # pytest-jupyter gives its servers' kernels PYTHONPATH = this process's sys.path


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not public_run():
        return
    skip = pytest.mark.skip(reason="tests a fast path; this run serves through the public path")
    for item in items:
        if item.get_closest_marker("fast_path") is not None:
            item.add_marker(skip)
