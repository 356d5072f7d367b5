"""``settle``: which libraries' fast paths a server takes, decided once when it starts, said once in its log.

A fast path is taken when the server's ``fast_paths`` setting allows it, the environment does not
turn it off (``JUPYTER_MCP_FAST_PATHS=0``), and its adapter's self-check passes. Otherwise the
server serves through the library's public API: the log says so once (an INFO line when the fast
paths are off on purpose: once per process for ``JUPYTER_MCP_FAST_PATHS=0``, however many servers and
adapters it settles, once per server for its ``fast_paths`` setting; one WARNING per adapter whose
check failed, with the reason).

Example::

    paths = settle([sdk.ADAPTER, stdlib.ADAPTER], wanted=settings.fast_paths, logger=logger)
    if paths.takes("mcp"):
        ...
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

ENV = "JUPYTER_MCP_FAST_PATHS"
"""``0`` turns every fast path off in this process (kernels, the Jupyter server, standalone servers)."""


@dataclass(frozen=True)
class Adapter:
    """One library's reaches: ``check()`` returns ``None`` when they all hold, else one sentence saying why not."""

    library: str
    check: Callable[[], str | None]
    fallback: str
    """What serves instead when the fast paths are off (for the log)."""


@dataclass(frozen=True)
class FastPaths:
    """The libraries whose fast paths a server takes (see the module docstring)."""

    on: frozenset[str] = field(default_factory=frozenset)

    def takes(self, library: str) -> bool:
        return library in self.on


PUBLIC = FastPaths()
"""Every library through its public API."""

_ENV_OFF_SAID = threading.Event()
"""Set once this process's log has said that ``JUPYTER_MCP_FAST_PATHS=0`` turned every fast path off."""


def env_allows() -> bool:
    """Whether the environment leaves the fast paths on (``JUPYTER_MCP_FAST_PATHS`` is not ``0``)."""
    return os.environ.get(ENV, "1").strip() != "0"


def settle(adapters: Sequence[Adapter], *, wanted: bool, logger: logging.Logger) -> FastPaths:
    """Check each adapter; the fast paths to take, logged once (see the module docstring)."""
    if not wanted:
        libraries = ", ".join(adapter.library for adapter in adapters)
        logger.info(
            "jupyter_mcp: fast paths are off (the fast_paths setting is False): %s served through their public APIs",
            libraries,
        )
        return PUBLIC
    if not env_allows():
        if not _ENV_OFF_SAID.is_set():
            _ENV_OFF_SAID.set()
            logger.info("jupyter_mcp: fast paths are off (%s=0): every library served through its public API", ENV)
        return PUBLIC
    on = set()
    for adapter in adapters:
        reason = _verdict(adapter)
        if reason is None:
            on.add(adapter.library)
        else:
            logger.warning(
                "jupyter_mcp: %s's fast paths are off: %s; serving through %s",
                adapter.library,
                reason,
                adapter.fallback,
            )
    return FastPaths(frozenset(on))


def _verdict(adapter: Adapter) -> str | None:
    try:
        return adapter.check()
    except Exception as exc:  # a check that cannot even run is a check that failed
        return f"its self-check raised {type(exc).__name__}: {exc}"
