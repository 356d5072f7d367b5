"""Reliability tests reuse the real-kernel fixtures."""

from tests.kernel.conftest import kernel, runtime_dir

__all__ = ["kernel", "runtime_dir"]
