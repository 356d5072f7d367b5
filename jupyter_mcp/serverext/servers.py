"""What ``GET /api/mcp/servers`` says: each live server, its tools, resources, prompts, clients and routes.

A kernel's own ``GET /status`` (``shapes.status.ServerStatus``) is validated once and its entries
passed through. When a kernel does not answer in time, or answers something else, its entry is still
listed from the discovery file (the components as of its last write, no counters) with ``live: false``.
"""

from __future__ import annotations

import asyncio
import logging

import pydantic

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.discovery import PromptSummary, ResourceSummary, ServerInfo, ToolSummary
from jupyter_mcp.routes import kernel_route, notebook_route
from jupyter_mcp.serverext.carriers.base import Carrier, credentials
from jupyter_mcp.serverext.directory import Located
from jupyter_mcp.shapes.rest import ServerEntry
from jupyter_mcp.shapes.status import ComponentEntry, Counts, PromptEntry, ResourceEntry, ServerStatus, ToolEntry

logger = logging.getLogger(__name__)

_STATUS = pydantic.TypeAdapter(ServerStatus)
_NOT_YET: Counts = {"calls": 0, "errors": 0, "refused": 0, "running": 0, "mean_duration": None}


async def describe_all(located: list[Located], base_url: str, within: float) -> list[ServerEntry]:
    """Entries for every server, asking all kernels for their status at once."""
    statuses = await asyncio.gather(*(fetch_status(item.carrier, item.info, within) for item in located))
    return [describe(item, status, base_url) for item, status in zip(located, statuses, strict=True)]


def describe(item: Located, status: ServerStatus | None, base_url: str) -> ServerEntry:
    info = item.info
    known = status or _from_file(info)
    return {
        "kernel_id": info.kernel_id,
        "notebook_path": item.notebook_path,
        "started": info.started,
        "version": info.version,
        "live": status is not None,
        "transport": item.carrier.name,
        "tools": known["tools"],
        "resources": known["resources"],
        "prompts": known["prompts"],
        "clients": known["clients"],
        "calls": known["calls"],
        "routes": {
            "kernel": kernel_route(base_url, info.kernel_id),
            "notebook": notebook_route(base_url, item.notebook_path) if item.notebook_path else None,
        },
        "paused": known["paused"],
        "pending": known["pending"],
        "questions": known["questions"],
        "read_only_clients": known["read_only_clients"],
    }


def _from_file(info: ServerInfo) -> ServerStatus:
    """What the discovery file says: the components as of its last write, nothing live."""
    tools = [_tool(t) for t in info.tools]
    return {
        "name": "",
        "version": info.version,
        "tools": tools,
        "resources": [_resource(r) for r in info.resources],
        "prompts": [_prompt(p) for p in info.prompts],
        "clients": [],
        "listeners": 0,
        "calls": info.calls,
        "paused": False,
        "pending": [],
        "questions": [],
        "read_only_clients": [],
    }


def _tool(summary: ToolSummary) -> ToolEntry:
    return {**_common(summary), "run_on": summary.run_on}


def _resource(summary: ResourceSummary) -> ResourceEntry:
    return {**_common(summary), "uri": summary.uri, "template": summary.template, "mime_type": summary.mime_type}


def _prompt(summary: PromptSummary) -> PromptEntry:
    return {**_common(summary), "arguments": list(summary.arguments)}


def _common(summary: ToolSummary | ResourceSummary | PromptSummary) -> ComponentEntry:
    return {
        "name": summary.name,
        "title": summary.title,
        "description": summary.description,
        "enabled": summary.enabled,
        "tags": summary.tags,
        **_NOT_YET,
    }


async def fetch_status(carrier: Carrier, info: ServerInfo, within: float) -> ServerStatus | None:
    """The kernel's ``GET /status``, or ``None`` if it does not answer well within ``within`` seconds."""
    try:
        body = await asyncio.wait_for(_get_status(carrier, info), within)
    except (HttpError, TimeoutError):
        return None
    if body is None:
        return None
    try:
        return _STATUS.validate_json(body)
    except pydantic.ValidationError as exc:
        logger.warning("kernel %s answered a status this server cannot read: %s", info.kernel_id, _first(exc))
        return None


def _first(exc: pydantic.ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "the body"
    return f"{where}: {error['msg']} ({exc.error_count()} problem(s))"


async def _get_status(carrier: Carrier, info: ServerInfo) -> bytes | None:
    exchange = await carrier.open("GET", "/status", credentials(info))
    try:
        exchange.end_request()
        response = await exchange.response()
        body = await response.read()
    finally:
        exchange.close()  # a no-op once the body was read (the connection is back in the pool)
    return body if response.status == 200 else None
