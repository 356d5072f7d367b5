"""``status()``: what a server serves and who uses it, as JSON (``GET /status``, the REST API, panels)."""

from __future__ import annotations

from typing import Any, Protocol

from mcp.server import Server

from jupyter_mcp.shapes.status import (
    ClientEntry,
    ComponentEntry,
    PromptEntry,
    ResourceEntry,
    ServerStatus,
    ToolEntry,
)
from jupyter_mcp.tools.approvals.policy import Approvals
from jupyter_mcp.tools.calls.stats import ToolStats
from jupyter_mcp.tools.components.prompts import Prompt, PromptRegistry
from jupyter_mcp.tools.components.registry import Registry, ToolRegistry
from jupyter_mcp.tools.components.resources import AnyResource, ResourceRegistry
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.protocol.sessions import ThreadSafeBus


class Described(Protocol):
    """What ``status()`` reads from a server (a ``ToolServer`` is one)."""

    name: str
    lowlevel: Server[Any]
    registry: ToolRegistry
    resource_registry: ResourceRegistry
    prompt_registry: PromptRegistry
    stats: ToolStats
    bus: ThreadSafeBus

    @property
    def tools(self) -> dict[str, Tool]: ...
    @property
    def resources(self) -> dict[str, AnyResource]: ...
    @property
    def prompts(self) -> dict[str, Prompt]: ...
    @property
    def approvals(self) -> Approvals: ...
    def connected_clients(self) -> list[ClientEntry]: ...


def status(server: Described) -> ServerStatus:
    """Name, version, every tool, resource and prompt with its counters, the clients and the call count."""
    approvals = server.approvals
    return {
        "name": server.name,
        "version": server.lowlevel.version or "",
        "tools": [_tool(server, tool) for tool in server.tools.values()],
        "resources": [_resource(server, item) for item in server.resources.values()],
        "prompts": [_prompt(server, prompt) for prompt in server.prompts.values()],
        "clients": server.connected_clients(),
        "listeners": server.bus.listener_count,
        "calls": server.stats.total_calls,
        "paused": approvals.paused,
        "pending": [pending.describe() for pending in approvals.pending],
        "questions": [question.describe() for question in approvals.questions],
        "read_only_clients": sorted(approvals.read_only_clients),
    }


def _tool(server: Described, tool: Tool) -> ToolEntry:
    return {**_entry(server, tool, server.registry), "run_on": tool.run_on}


def _resource(server: Described, item: AnyResource) -> ResourceEntry:
    entry = _entry(server, item, server.resource_registry)
    return {**entry, "uri": item.key, "template": item.is_template, "mime_type": item.mime_type}


def _prompt(server: Described, prompt: Prompt) -> PromptEntry:
    return {**_entry(server, prompt, server.prompt_registry), "arguments": [a.name for a in prompt.arguments]}


def _entry(server: Described, item: Tool | AnyResource | Prompt, registry: Registry[Any]) -> ComponentEntry:
    return {
        "name": item.name,
        "title": item.title,
        "description": item.description,
        "enabled": registry.is_visible(item),
        "tags": sorted(item.tags),
        **server.stats.for_tool(item.key, registry.kind).to_json(),
    }
