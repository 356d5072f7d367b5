"""Forward JupyterLab's answers to a kernel's waiting calls (and its pause switch) to the kernel's server.

The kernel's own HTTP app takes them (``tools/approval_routes.py``) behind its bearer token, which
only this extension (reading the discovery file) and the kernel know.
"""

from __future__ import annotations

import json
from typing import Any

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp._wire.http import Exchange
from jupyter_mcp._wire.origin import split_url
from jupyter_mcp.discovery import ADMIN_HEADER, ServerInfo


async def forward(pool: ConnectionPool, info: ServerInfo, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    """POST ``body`` to ``path`` on the kernel's server; its status and JSON reply (``HttpError`` if unreachable)."""
    origin, _ = split_url(info.url)
    data = json.dumps(body).encode()
    headers = [
        ("Host", origin.host_header),
        ("Authorization", f"Bearer {info.token}"),
        ("Content-Type", "application/json"),
        (ADMIN_HEADER, info.admin_token or ""),
        ("Content-Length", str(len(data))),
    ]
    exchange = await Exchange.open(pool, origin, "POST", path, headers)
    try:
        exchange.send(data)
        exchange.end_request()
        response = await exchange.response()
        reply = await response.read()
    finally:
        exchange.close()
    try:
        return response.status, json.loads(reply or b"null")
    except ValueError:
        return response.status, None
