"""``ServerHost``: everything the views use from a server, and nothing else.

The views are typed against this protocol rather than the kernel's ``NotebookServer`` (which
satisfies it), so they never import kernel code and can be tested against any object with these
members — a plain ``ToolServer`` with a history attached is enough.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import mcp_types as mt

    from jupyter_mcp.endpoints import Endpoint
    from jupyter_mcp.hubenv import BrowserPage
    from jupyter_mcp.shapes.status import ClientEntry
    from jupyter_mcp.tools.approvals.policy import Approvals
    from jupyter_mcp.tools.calls.history import CallHistory
    from jupyter_mcp.tools.calls.path import CallPath
    from jupyter_mcp.tools.calls.stats import ToolStats
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.tools.components.prompts import Prompt, PromptRegistry
    from jupyter_mcp.tools.components.registry import Registry, ToolRegistry
    from jupyter_mcp.tools.components.resources import AnyResource, ResourceRegistry
    from jupyter_mcp.tools.components.tool import Tool
    from jupyter_mcp.tools.observers import Observers


class ServerHost(Protocol):
    """A server as the views see it: addresses, tools, resources, prompts, history, clients, ways to call."""

    registry: ToolRegistry
    resource_registry: ResourceRegistry
    prompt_registry: PromptRegistry
    history: CallHistory
    stats: ToolStats
    resource_updates: Observers[Callable[[str], None]]
    """Told the URI (or template) of every ``notify_resource_updated``: resource cards re-read."""
    calls: CallPath
    """The call path; a tool card reads where its calls run now (``calls.execution.quick_state``)."""

    @property
    def url(self) -> str | None: ...

    def endpoint(self, page: BrowserPage | None = None) -> Endpoint | None:
        """Where clients connect (``None`` while not serving): the server's URL, or a Jupyter server's route."""
        ...

    @property
    def approvals(self) -> Approvals:
        """Calls waiting for the notebook user, the pause switch, client limits."""
        ...

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    @property
    def token(self) -> str: ...

    @property
    def tools(self) -> Mapping[str, Tool]: ...

    @property
    def resources(self) -> Mapping[str, AnyResource]: ...

    @property
    def prompts(self) -> Mapping[str, Prompt]: ...

    @property
    def registries(self) -> tuple[Registry[Any], ...]: ...

    def registry_of(self, kind: Kind) -> Registry[Any]: ...

    def connected_clients(self) -> list[ClientEntry]: ...

    def client_config(self, client: str = "claude", page: BrowserPage | None = None) -> dict[str, Any]:
        """A client's config; ``page`` (where a browser shows the notebook) matters under JupyterHub."""
        ...

    def call_in_background(self, name: str, arguments: Mapping[str, Any] | None = None) -> Future[mt.CallToolResult]:
        """Start a call from synchronous code (a widget callback) through the clients' call path."""
        ...

    def read_in_background(self, uri: str) -> Future[mt.ReadResourceResult]:
        """Start a read of ``uri`` from synchronous code, through the clients' path (so it is recorded)."""
        ...

    def get_prompt_in_background(
        self, name: str, arguments: Mapping[str, Any] | None = None
    ) -> Future[mt.GetPromptResult]:
        """Start a prompt get from synchronous code, through the clients' path (so it is recorded)."""
        ...

    def enable(
        self, names: Collection[str] | None = None, tags: Collection[str] | None = None, *, only: bool = False
    ) -> None: ...

    def disable(self, names: Collection[str] | None = None, tags: Collection[str] | None = None) -> None: ...
