"""jupyter_server's private parts this package reaches; ``adapter_for(kernel_manager).check()`` tests them.

The reach, why, and the public API that would end it:

- ``MappingKernelManager._pending_kernels`` (jupyter_client's ``MultiKernelManager``): whether a
  kernel is being shut down; it stays listed until its process has ended, and without this a slow
  shutdown reads as a death or a restart (``shutting_down``). Public alternative: a "shutting down"
  state on the kernel, or an event when a shutdown begins (the kernel-action events come at its end).

When the check fails, or the fast paths are off: a kernel counts as shutting down only once it is
no longer listed, so its notebook's tools stay in ``/mcp`` until its process ends (a call to them
then fails with "the kernel is gone").
"""

from __future__ import annotations

from typing import Any

from jupyter_mcp.adapters.fastpaths import Adapter

LIBRARY = "jupyter_server"


def shutting_down(kernel_manager: Any, kernel_id: str) -> bool:
    """Whether ``kernel_manager`` is starting or shutting ``kernel_id`` down (pending, in its terms)."""
    return kernel_id in kernel_manager._pending_kernels


def adapter_for(kernel_manager: Any) -> Adapter:
    """The adapter, checked against this Jupyter server's kernel manager."""
    return Adapter(LIBRARY, lambda: _check(kernel_manager), "the kernel manager's list of kernels only")


def _check(kernel_manager: Any) -> str | None:
    pending = getattr(kernel_manager, "_pending_kernels", None)
    if not isinstance(pending, dict):
        return f"{type(kernel_manager).__name__} has no _pending_kernels table"
    return None
