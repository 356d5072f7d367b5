"""The REST API's replies (``/api/mcp/servers``, ``/api/mcp/config``, ``/api/mcp/union``): their one
typed definition.

A server's components, clients and waiting calls are the kernel's own entries (``status``), passed
through as the kernel said them.
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

from jupyter_mcp.shapes.status import ClientEntry, PendingEntry, PromptEntry, QuestionEntry, ResourceEntry, ToolEntry

ClientKind = Literal["claude", "vscode", "cursor", "inspector"]
CarrierName = Literal["http", "kernel", "server"]
"""What carries the Jupyter server's requests to a tool server: a kernel's loopback port, the kernel's own
messaging, or (``"server"``) nothing at all: the notebook tools run in the Jupyter server itself."""


class Routes(TypedDict):
    """The proxy routes (under the Jupyter server's base URL) that reach a kernel's tools."""

    kernel: str
    notebook: str | None


class ServerEntry(TypedDict):
    """One live tool server (``GET /api/mcp/servers`` is a list of these)."""

    kernel_id: str
    notebook_path: str | None
    started: float
    version: str
    live: bool
    """The kernel answered its ``GET /status`` in time; if not, the entry is from its discovery file."""
    transport: CarrierName
    """What carries the Jupyter server's requests to the kernel: "http" (its loopback port) or "kernel"
    (its own messaging: a gateway's kernels, kernels with JupyterMCP.transport = "kernel"); "server" for the
    notebook tools (jupyter_read, jupyter_edit, ...), which the Jupyter server serves itself."""
    tools: list[ToolEntry]
    resources: list[ResourceEntry]
    prompts: list[PromptEntry]
    clients: list[ClientEntry]
    calls: int
    routes: Routes
    paused: bool
    """The notebook user paused all tools: client calls are refused."""
    pending: list[PendingEntry]
    """Client calls waiting for the notebook user (POST /api/mcp/kernels/<id>/approvals/<call id> answers)."""
    questions: list[QuestionEntry]
    """Tools' questions for the notebook user (POST /api/mcp/kernels/<id>/questions/<call id> answers)."""
    read_only_clients: list[str]
    """Clients limited to read-only tools (POST /api/mcp/kernels/<id>/limits sets or lifts a limit)."""


class ConfigReply(TypedDict):
    """A ready client config (``GET /api/mcp/config``)."""

    client: ClientKind
    notebook: str | None
    kernel_id: str | None
    url: str
    config: dict[str, Any]


class UnionNotebook(TypedDict):
    """A notebook in ``<base_url>/mcp``: the prefix its names carry there, and why if it is not its own."""

    notebook_path: str | None
    kernel_id: str
    prefix: str
    collision: str | None
    """Why the prefix is longer than the notebook's own (another notebook wants the same one), if it is."""
    tools: list[str]
    """Its tools as clients of ``/mcp`` see them (``sales_forecast``)."""


class UnionReply(TypedDict):
    """``GET /api/mcp/union``: every notebook's tools as one MCP server, and who uses it."""

    route: str
    """``<base_url>/mcp`` (``?notebooks=a.ipynb,dir/`` scopes a client)."""
    notebooks: list[UnionNotebook]
    renamed: list[str]
    """Tools whose prefixed names still collided, numbered: ``'forecast' of a.ipynb is a_forecast_2``."""
    clients: list[ClientEntry]
    """Clients of ``/mcp``."""
    read_only_clients: list[str]
    """Clients limited to read-only tools in every notebook (``POST /api/mcp/limits``)."""


class AppEntry(TypedDict):
    """A client signed in with Jupyter: one grant (``GET /api/mcp/apps`` is a list of these)."""

    grant_id: str
    client_name: str
    """The name the client gave when it registered, or in its metadata document."""
    client_id: str
    verified: bool
    """A metadata document at its ``client_id`` URL vouches for it (else it registered itself)."""
    redirect_host: str
    user: str
    """The Jupyter user who allowed it (by the name the consent page showed)."""
    resource: str
    """The MCP route its tokens are good for (an absolute URL)."""
    read_only: bool
    notebooks: list[str]
    """Notebooks and folders it may see (empty: all the route reaches)."""
    notebook_tools: str | None
    created: float
    expires_at: float | None
    """When the grant ends (``None``: when revoked)."""
    last_used: float | None
