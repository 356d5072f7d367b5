"""``DiscoveryPublisher``: keeps this kernel's discovery file in step with its server.

An observer, not part of the server: told that the server started, that tools or clients changed,
or that it stopped, it writes ``describe()`` to the file or removes it (``jupyter_mcp.discovery``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from jupyter_mcp import discovery
from jupyter_mcp.tools.transports.http.serving import Lifecycle

logger = logging.getLogger(__name__)


class DiscoveryPublisher:
    """Writes ``<runtime_dir>/jupyter-mcp-<kernel_id>.json`` while the server serves.

    ``describe`` returns what to write, or ``None`` while the server is not serving.
    """

    def __init__(self, kernel_id: str, describe: Callable[[], discovery.ServerInfo | None]) -> None:
        self.kernel_id = kernel_id
        self.describe = describe

    def __call__(self, state: Lifecycle) -> None:
        if state == "started":
            self.publish()
        else:
            discovery.remove(self.kernel_id)

    def publish(self, *_change: object) -> None:
        """Write the file now (nothing while the server is stopped); any observer signature works."""
        info = self.describe()
        if info is None:
            return
        try:
            discovery.write(info)
        except OSError:
            logger.warning("could not write the discovery file", exc_info=True)
