"""``status()``: what a server serves and who uses it, as JSON (``GET /status``, the REST API, panels)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Protocol

from mcp.server import Server

from jupyter_mcp.tools.approvals.policy import Approvals
from jupyter_mcp.tools.calls.stats import ToolStats
from jupyter_mcp.tools.components.prompts import Prompt, PromptRegistry
from jupyter_mcp.tools.components.registry import Registry, ToolRegistry
from jupyter_mcp.tools.components.resources import AnyResource, ResourceRegistry
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.protocol.sessions import ConnectedClient, ThreadSafeBus


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
    def connected_clients(self) -> list[ConnectedClient]: ...


def status(server: Described) -> dict[str, Any]:
    """Name, version, every tool, resource and prompt with its counters, the clients and the call count."""
    return {
        "name": server.name,
        "version": server.lowlevel.version,
        "tools": [{**_entry(server, tool, server.registry), "run_on": tool.run_on} for tool in server.tools.values()],
        "resources": [
            {
                **_entry(server, item, server.resource_registry),
                "uri": item.key,
                "template": item.is_template,
                "mime_type": item.mime_type,
            }
            for item in server.resources.values()
        ],
        "prompts": [
            {**_entry(server, prompt, server.prompt_registry), "arguments": [a.name for a in prompt.arguments]}
            for prompt in server.prompts.values()
        ],
        "clients": [asdict(client) for client in server.connected_clients()],
        "listeners": server.bus.listener_count,
        "calls": server.stats.total_calls,
        "paused": server.approvals.paused,
        "pending": [pending.describe() for pending in server.approvals.pending],
        "questions": [question.describe() for question in server.approvals.questions],
        "read_only_clients": sorted(server.approvals.read_only_clients),
    }


def _entry(server: Described, item: Any, registry: Registry[Any]) -> dict[str, Any]:
    return {
        "name": item.name,
        "title": item.title,
        "description": item.description,
        "enabled": registry.is_visible(item),
        "tags": sorted(item.tags),
        **server.stats.for_tool(item.key, registry.kind).to_json(),
    }
