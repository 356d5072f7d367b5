"""The REST API's replies (``/api/mcp/servers``, ``/api/mcp/config``): their one typed definition.

``labextension/src/types.ts`` is generated from this module by ``scripts/labextension_types.py``;
a test fails when the two differ, and another checks real replies against these shapes.
"""

from __future__ import annotations

from typing import Any, TypedDict

from jupyter_mcp.clientconfig import ClientKind

__all__ = [
    "ClientEntry",
    "ClientKind",
    "ConfigReply",
    "PendingEntry",
    "PromptEntry",
    "QuestionEntry",
    "ResourceEntry",
    "Routes",
    "ServerEntry",
    "ToolEntry",
]


class ToolEntry(TypedDict):
    """A tool and its call counts."""

    name: str
    title: str | None
    description: str | None
    enabled: bool
    calls: int
    errors: int
    running: int


class ResourceEntry(TypedDict):
    """A resource or resource template and its read count."""

    uri: str
    """The URI, or the URI template of a template."""
    name: str
    title: str | None
    description: str | None
    mime_type: str | None
    template: bool
    enabled: bool
    calls: int
    """Reads."""


class PromptEntry(TypedDict):
    """A prompt, its argument names and its get count."""

    name: str
    title: str | None
    description: str | None
    arguments: list[str]
    enabled: bool
    calls: int
    """Gets."""


class ClientEntry(TypedDict):
    """An MCP client that has talked to the kernel's server."""

    name: str
    version: str
    protocol_version: str
    kind: str
    since: float
    last_seen: float


class PendingEntry(TypedDict):
    """A client's call waiting for the notebook user's approval."""

    id: str
    tool: str
    arguments: dict[str, Any]
    call: str
    """The call as every view writes it: ``reset_sales(region='north')``."""
    client: str | None
    asked_at: float


class QuestionEntry(TypedDict):
    """A tool's question for the notebook user (``ctx.ask_notebook_user``), waiting for an answer."""

    id: str
    tool: str
    message: str
    schema: dict[str, Any]
    """The form's JSON schema (an object whose properties are the fields)."""
    client: str | None
    asked_at: float


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
    transport: str
    """What carries the Jupyter server's requests to the kernel: "http" (its loopback port) or "kernel"
    (its own messaging: a gateway's kernels, kernels with JupyterMCP.transport = "kernel")."""
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
