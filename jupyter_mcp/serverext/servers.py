"""What ``GET /api/mcp/servers`` says: each live server, its tools, resources, prompts, clients and routes.

The discovery file gives the address and the tool list as of its last write; the kernel's own
``GET /status`` adds what changes per call (call counts, connected clients). When a kernel does
not answer in time its entry is still listed, from the file, with ``live: false``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from typing import Any, TypedDict
from urllib.parse import quote, urlsplit

from jupyter_server.utils import url_path_join
from tornado import httputil

from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.serverext.directory import Located
from jupyter_mcp.serverext.upstream import ConnectionPool, Exchange, Origin, UpstreamError


class ToolEntry(TypedDict):
    name: str
    title: str | None
    description: str | None
    enabled: bool
    calls: int
    errors: int
    running: int


class ResourceEntry(TypedDict):
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
    name: str
    title: str | None
    description: str | None
    arguments: list[str]
    enabled: bool
    calls: int
    """Gets."""


class ClientEntry(TypedDict):
    name: str
    version: str
    protocol_version: str
    kind: str
    since: float
    last_seen: float


class Routes(TypedDict):
    kernel: str
    notebook: str | None


class ServerEntry(TypedDict):
    kernel_id: str
    notebook_path: str | None
    started: float
    version: str
    live: bool
    tools: list[ToolEntry]
    resources: list[ResourceEntry]
    prompts: list[PromptEntry]
    clients: list[ClientEntry]
    calls: int
    routes: Routes


def kernel_route(base_url: str, kernel_id: str) -> str:
    return url_path_join(base_url, "mcp/kernels", quote(kernel_id, safe=""))


def notebook_route(base_url: str, path: str) -> str:
    return url_path_join(base_url, "mcp/notebooks", quote(path, safe="/"))


async def describe_all(located: list[Located], pool: ConnectionPool, base_url: str, within: float) -> list[ServerEntry]:
    """Entries for every server, asking all kernels for their status at once."""
    statuses = await asyncio.gather(*(fetch_status(pool, item.info, within) for item in located))
    return [describe(item, status, base_url) for item, status in zip(located, statuses, strict=True)]


def describe(item: Located, status: dict[str, Any] | None, base_url: str) -> ServerEntry:
    info = item.info
    return {
        "kernel_id": info.kernel_id,
        "notebook_path": item.notebook_path,
        "started": info.started,
        "version": info.version,
        "live": status is not None,
        "tools": _tools(info, status),
        "resources": _resources(info, status),
        "prompts": _prompts(info, status),
        "clients": [_client(c) for c in (status or {}).get("clients", [])],
        "calls": int((status or {}).get("calls", info.calls)),
        "routes": {
            "kernel": kernel_route(base_url, info.kernel_id),
            "notebook": notebook_route(base_url, item.notebook_path) if item.notebook_path else None,
        },
    }


def _tools(info: ServerInfo, status: dict[str, Any] | None) -> list[ToolEntry]:
    if status is not None:
        return [_tool(t) for t in status.get("tools", [])]
    return [
        ToolEntry(
            name=t.name, title=t.title, description=t.description, enabled=t.enabled, calls=0, errors=0, running=0
        )
        for t in info.tools
    ]


def _tool(data: dict[str, Any]) -> ToolEntry:
    return {
        "name": str(data["name"]),
        "title": data.get("title"),
        "description": data.get("description"),
        "enabled": bool(data.get("enabled", True)),
        "calls": int(data.get("calls", 0)),
        "errors": int(data.get("errors", 0)),
        "running": int(data.get("running", 0)),
    }


def _resources(info: ServerInfo, status: dict[str, Any] | None) -> list[ResourceEntry]:
    if status is None:
        return [_resource({**asdict(r), "calls": 0}) for r in info.resources]
    return [_resource(r) for r in status.get("resources", [])]


def _resource(data: dict[str, Any]) -> ResourceEntry:
    return {
        "uri": str(data["uri"]),
        "name": str(data.get("name", "")),
        "title": data.get("title"),
        "description": data.get("description"),
        "mime_type": data.get("mime_type"),
        "template": bool(data.get("template", False)),
        "enabled": bool(data.get("enabled", True)),
        "calls": int(data.get("calls", 0)),
    }


def _prompts(info: ServerInfo, status: dict[str, Any] | None) -> list[PromptEntry]:
    if status is None:
        return [_prompt({**asdict(p), "calls": 0}) for p in info.prompts]
    return [_prompt(p) for p in status.get("prompts", [])]


def _prompt(data: dict[str, Any]) -> PromptEntry:
    return {
        "name": str(data["name"]),
        "title": data.get("title"),
        "description": data.get("description"),
        "arguments": [str(a) for a in data.get("arguments", [])],
        "enabled": bool(data.get("enabled", True)),
        "calls": int(data.get("calls", 0)),
    }


def _client(data: dict[str, Any]) -> ClientEntry:
    return {
        "name": str(data.get("name", "")),
        "version": str(data.get("version", "")),
        "protocol_version": str(data.get("protocol_version", "")),
        "kind": str(data.get("kind", "")),
        "since": float(data.get("since", 0.0)),
        "last_seen": float(data.get("last_seen", 0.0)),
    }


async def fetch_status(pool: ConnectionPool, info: ServerInfo, within: float) -> dict[str, Any] | None:
    """The kernel's ``GET /status``, or ``None`` if it does not answer well within ``within`` seconds."""
    try:
        return await asyncio.wait_for(_get_status(pool, info), within)
    except (UpstreamError, TimeoutError, ValueError):
        return None


async def _get_status(pool: ConnectionPool, info: ServerInfo) -> dict[str, Any] | None:
    parts = urlsplit(info.url)
    if parts.hostname is None or parts.port is None:
        return None
    headers = httputil.HTTPHeaders({"Host": parts.netloc, "Authorization": f"Bearer {info.token}"})
    exchange = await Exchange.open(pool, Origin(parts.hostname, parts.port), "GET", "/status", headers)
    sink = _Collect()
    try:
        await exchange.end_request()
        await exchange.receive(sink)
    except asyncio.CancelledError:
        exchange.abort()
        raise
    if sink.code != 200:
        return None
    data = json.loads(b"".join(sink.chunks))
    return data if isinstance(data, dict) else None


class _Collect:
    def __init__(self) -> None:
        self.code = 0
        self.chunks: list[bytes] = []

    def start(self, code: int, reason: str, headers: httputil.HTTPHeaders) -> None:
        self.code = code

    def body(self, chunk: bytes) -> None:
        self.chunks.append(chunk)
