"""``ServerHost``: everything the views use from a server, and nothing else.

The views are typed against this protocol rather than the kernel's ``NotebookServer`` (which
satisfies it), so they never import kernel code and can be tested against any object with these
members — a plain ``ToolServer`` with a history attached is enough.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import mcp_types as mt

    from jupyter_mcp.tools.history import CallHistory
    from jupyter_mcp.tools.registry import ToolRegistry
    from jupyter_mcp.tools.sessions import ConnectedClient
    from jupyter_mcp.tools.stats import ToolStats
    from jupyter_mcp.tools.tool import Tool


class ServerHost(Protocol):
    """A tool server as the views see it: addresses, tools, history, clients, and a way to call."""

    registry: ToolRegistry
    history: CallHistory
    stats: ToolStats

    @property
    def url(self) -> str | None: ...

    @property
    def token(self) -> str: ...

    @property
    def tools(self) -> Mapping[str, Tool]: ...

    def connected_clients(self) -> list[ConnectedClient]: ...

    def client_config(self, client: str = "claude") -> dict[str, Any]: ...

    def call_in_background(self, name: str, arguments: Mapping[str, Any] | None = None) -> Future[mt.CallToolResult]:
        """Start a call from synchronous code (a widget callback) through the clients' call path."""
        ...

    def enable(
        self, names: Collection[str] | None = None, tags: Collection[str] | None = None, *, only: bool = False
    ) -> None: ...

    def disable(self, names: Collection[str] | None = None, tags: Collection[str] | None = None) -> None: ...
