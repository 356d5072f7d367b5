"""Forward JupyterLab's answers to a kernel's waiting calls (and its pause switch) to the kernel's server.

The kernel's own app takes them (``tools/approval_routes.py``) behind its bearer token and admin token,
which only this extension (from the discovery file, or the kernel's hello over its channel) and the
kernel know; whichever carrier reaches the kernel takes them there.
"""

from __future__ import annotations

import json
from typing import Any

from jupyter_mcp.discovery import ADMIN_HEADER, ServerInfo
from jupyter_mcp.serverext.carriers.base import Carrier, credentials


async def forward(carrier: Carrier, info: ServerInfo, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    """POST ``body`` to ``path`` on the kernel's server; its status and JSON reply (``HttpError`` if unreachable)."""
    data = json.dumps(body).encode()
    headers = [
        *credentials(info),
        ("Content-Type", "application/json"),
        (ADMIN_HEADER, info.admin_token or ""),
        ("Content-Length", str(len(data))),
    ]
    exchange = await carrier.open("POST", path, headers)
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
