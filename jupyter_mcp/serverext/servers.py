"""What ``GET /api/mcp/servers`` says: each live server, its tools, resources, prompts, clients and routes.

The discovery file gives the address and the tool list as of its last write; the kernel's own
``GET /status`` adds what changes per call (call counts, connected clients). When a kernel does
not answer in time its entry is still listed, from the file, with ``live: false``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from typing import Any

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.routes import kernel_route, notebook_route
from jupyter_mcp.serverext.carriers.base import Carrier, credentials
from jupyter_mcp.serverext.directory import Located
from jupyter_mcp.serverext.shapes import (
    ClientEntry,
    PendingEntry,
    PromptEntry,
    QuestionEntry,
    ResourceEntry,
    ServerEntry,
    ToolEntry,
)
from jupyter_mcp.tools.calls.calltext import call_text


async def describe_all(located: list[Located], base_url: str, within: float) -> list[ServerEntry]:
    """Entries for every server, asking all kernels for their status at once."""
    statuses = await asyncio.gather(*(fetch_status(item.carrier, item.info, within) for item in located))
    return [describe(item, status, base_url) for item, status in zip(located, statuses, strict=True)]


def describe(item: Located, status: dict[str, Any] | None, base_url: str) -> ServerEntry:
    info = item.info
    return {
        "kernel_id": info.kernel_id,
        "notebook_path": item.notebook_path,
        "started": info.started,
        "version": info.version,
        "live": status is not None,
        "transport": item.carrier.name,
        "tools": _tools(info, status),
        "resources": _resources(info, status),
        "prompts": _prompts(info, status),
        "clients": [_client(c) for c in (status or {}).get("clients", [])],
        "calls": int((status or {}).get("calls", info.calls)),
        "routes": {
            "kernel": kernel_route(base_url, info.kernel_id),
            "notebook": notebook_route(base_url, item.notebook_path) if item.notebook_path else None,
        },
        "paused": bool((status or {}).get("paused", False)),
        "pending": [_pending(p) for p in (status or {}).get("pending", [])],
        "questions": [_question(q) for q in (status or {}).get("questions", [])],
        "read_only_clients": [str(name) for name in (status or {}).get("read_only_clients", [])],
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


def _pending(data: dict[str, Any]) -> PendingEntry:
    arguments = data.get("arguments")
    return {
        "id": str(data["id"]),
        "tool": str(data["tool"]),
        "arguments": arguments if isinstance(arguments, dict) else {},
        "call": str(data.get("call") or call_text(str(data["tool"]), arguments if isinstance(arguments, dict) else {})),
        "client": None if data.get("client") is None else str(data["client"]),
        "asked_at": float(data.get("asked_at", 0.0)),
    }


def _question(data: dict[str, Any]) -> QuestionEntry:
    schema = data.get("schema")
    return {
        "id": str(data["id"]),
        "tool": str(data["tool"]),
        "message": str(data.get("message", "")),
        "schema": schema if isinstance(schema, dict) else {},
        "client": None if data.get("client") is None else str(data["client"]),
        "asked_at": float(data.get("asked_at", 0.0)),
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


async def fetch_status(carrier: Carrier, info: ServerInfo, within: float) -> dict[str, Any] | None:
    """The kernel's ``GET /status``, or ``None`` if it does not answer well within ``within`` seconds."""
    try:
        return await asyncio.wait_for(_get_status(carrier, info), within)
    except (HttpError, TimeoutError, ValueError):
        return None


async def _get_status(carrier: Carrier, info: ServerInfo) -> dict[str, Any] | None:
    exchange = await carrier.open("GET", "/status", credentials(info))
    try:
        exchange.end_request()
        response = await exchange.response()
        body = await response.read()
    finally:
        exchange.close()  # a no-op once the body was read (the connection is back in the pool)
    if response.status != 200:
        return None
    data = json.loads(body)
    return data if isinstance(data, dict) else None
