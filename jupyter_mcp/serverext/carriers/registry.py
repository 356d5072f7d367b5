"""``Carriers``: which carrier reaches a kernel, and the kernel channels kept open.

Loopback HTTP when the kernel's port is within reach: a kernel this server runs on this machine
(jupyter_client's local provisioner) whose discovery file gives a URL. The kernel channel
otherwise: a gateway's kernels, kernels of remote provisioners (pods, containers), and kernels with
``JupyterMCP.transport = "kernel"``. A channel stays open while its kernel serves; a kernel found
serving nothing is not asked again for ``probe_interval`` seconds by listings (a request to its
route always asks).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.serverext.carriers.base import Carrier, HttpCarrier
from jupyter_mcp.serverext.carriers.kernel import KernelCarrier, NoServer
from jupyter_mcp.serverext.carriers.links import GatewayLink, Link, ZmqLink

if TYPE_CHECKING:
    from jupyter_events import EventLogger

logger = logging.getLogger(__name__)

KERNEL_ACTIONS = "https://events.jupyter.org/jupyter_server/kernel_actions/v1"
"""jupyter_server's event for kernel starts, restarts and shutdowns (its own kernels and a gateway's)."""


@dataclass(frozen=True)
class Reach:
    """A kernel's tool server and the carrier that reaches it."""

    info: ServerInfo
    carrier: Carrier


@dataclass(frozen=True)
class ChannelOptions:
    timeout: float = 5.0
    """Seconds a control request (and the hello) may take."""
    watch_interval: float = 2.0
    """Seconds between checks that a kernel still serves, while requests are under way."""
    probe_interval: float = 10.0
    """Seconds a listing trusts that a kernel serves nothing over its channel."""
    route: str = "subshell"
    """``"subshell"``: a subshell of the channel's own where the kernel has them; ``"control"``: always
    the control channel."""


class Carriers:
    """Per kernel: an HTTP carrier from a discovery file, or a kernel channel (connected on demand)."""

    def __init__(self, kernel_manager: Any, pool: ConnectionPool, options: ChannelOptions | None = None) -> None:
        self.kernel_manager = kernel_manager
        self.pool = pool
        self.options = options or ChannelOptions()
        self._channels: dict[str, KernelCarrier] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._absent: dict[str, float] = {}

    @property
    def gateway(self) -> bool:
        """Whether this server's kernels run on a Kernel or Enterprise Gateway (``--gateway-url``)."""
        return type(self.kernel_manager).__name__ == "GatewayMappingKernelManager"

    def local(self, kernel_id: str) -> bool:
        """Whether the kernel runs on this machine, sharing its runtime directory (discovery files count)."""
        if self.gateway:
            return False
        from jupyter_client.provisioning.local_provisioner import LocalProvisioner

        manager = self.kernel_manager.get_kernel(kernel_id)
        return isinstance(getattr(manager, "provisioner", None), LocalProvisioner)

    def http(self, info: ServerInfo) -> HttpCarrier:
        """``ValueError`` when the kernel advertised a URL that is not one."""
        return HttpCarrier(self.pool, info)

    async def channel(self, kernel_id: str, *, fresh: bool = True) -> Reach | None:
        """The kernel's channel, connected (``None``: it serves nothing; when not ``fresh`` that may be
        what it said within ``probe_interval``)."""
        async with self._locks.setdefault(kernel_id, asyncio.Lock()):
            carrier = self._channels.get(kernel_id)
            if carrier is not None and carrier.lost is None and carrier.info is not None:
                return Reach(carrier.info, carrier)
            if carrier is not None:
                self.forget(kernel_id, carrier.lost or "replaced")
            if not fresh and time.monotonic() - self._absent.get(kernel_id, -1e9) < self.options.probe_interval:
                return None
            return await self._connect(kernel_id)

    async def _connect(self, kernel_id: str) -> Reach | None:
        options = self.options
        carrier = KernelCarrier(
            self._link(kernel_id),
            timeout=options.timeout,
            watch_interval=options.watch_interval,
            subshell=options.route == "subshell",
        )
        try:
            info = await carrier.connect()
        except (NoServer, TimeoutError, HttpError, OSError) as error:
            logger.debug("no MCP server over kernel %s's channel: %s", kernel_id, error)
            carrier.close()
            self._absent[kernel_id] = time.monotonic()
            return None
        self._absent.pop(kernel_id, None)
        self._channels[kernel_id] = carrier
        logger.info("kernel %s: MCP over its channel (%s)", kernel_id, carrier.via)
        return Reach(info, carrier)

    def _link(self, kernel_id: str) -> Link:
        if self.gateway:
            return GatewayLink(kernel_id)
        return ZmqLink(self.kernel_manager.get_kernel(kernel_id))

    def via(self, kernel_id: str) -> str | None:
        """Where the kernel's channel sends requests (``"subshell"`` or ``"control"``); ``None``: no channel."""
        carrier = self._channels.get(kernel_id)
        return carrier.via if carrier is not None else None

    def forget(self, kernel_id: str, why: str) -> None:
        """Close the kernel's channel: requests under way hear ``why``; the next one connects anew."""
        carrier = self._channels.pop(kernel_id, None)
        self._absent.pop(kernel_id, None)
        if carrier is not None:
            carrier.lose(why)
            carrier.close()

    async def kernel_action(self, logger: EventLogger, schema_id: str, data: dict[str, Any]) -> None:
        """jupyter_server's kernel-action event: a restarted or shut-down kernel loses its channel.

        (jupyter_events passes ``logger``, ``schema_id`` and ``data`` by name.)
        """
        kernel_id = data.get("kernel_id")
        if kernel_id and data.get("action") in ("restart", "shutdown") and kernel_id in self._channels:
            self.forget(
                str(kernel_id),
                f"the kernel was {'restarted' if data['action'] == 'restart' else 'shut down'} "
                "while the request was under way; its outcome is unknown",
            )

    def close(self) -> None:
        for kernel_id in list(self._channels):
            self.forget(kernel_id, "the Jupyter server is stopping")
