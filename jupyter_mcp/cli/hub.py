"""``jupyter-mcp list --hub URL``: every user's serving notebooks, as a JupyterHub admin sees them.

Asks the hub which users' servers are ready (``GET /hub/api/users?state=ready``), then each of those
servers' extension what its notebooks serve (``GET /user/<name>/api/mcp/servers``). The token needs
the scopes ``list:users``, ``read:servers`` and ``access:servers`` — an admin's token, or a service's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from jupyter_mcp.cli.errors import CLIError

SCOPES = "list:users, read:servers, access:servers"
TIMEOUT = 30.0


@dataclass(frozen=True)
class HubServer:
    """One notebook serving tools in one user's server."""

    user: str
    notebook_path: str | None
    kernel_id: str
    url: str
    """The public MCP route, through the hub."""
    tools: list[str]
    clients: int
    calls: int


def hub_servers(hub_url: str, token: str) -> list[HubServer]:
    """Every ready user's serving notebooks, by user name; a user whose server does not answer is skipped."""
    hub_url = hub_url.rstrip("/")
    with httpx.Client(headers={"Authorization": f"token {token}"}, timeout=TIMEOUT) as http:
        users = sorted(_get(http, f"{hub_url}/hub/api/users", params={"state": "ready"}), key=lambda u: str(u["name"]))
        return [server for user in users for server in _user_servers(http, hub_url, user)]


def _user_servers(http: httpx.Client, hub_url: str, user: dict[str, Any]) -> Iterator[HubServer]:
    name = str(user["name"])
    try:
        entries = _get(http, f"{hub_url}/user/{quote(name, safe='')}/api/mcp/servers")
    except CLIError:
        return  # a server without the extension, or one shutting down: nothing to show
    for entry in entries:
        if entry.get("transport") == "server":
            continue  # the notebook tools (jupyter_read ...): the user's server's own, no notebook of theirs
        route = entry["routes"]["notebook"] or entry["routes"]["kernel"]
        yield HubServer(
            user=name,
            notebook_path=entry["notebook_path"],
            kernel_id=entry["kernel_id"],
            url=f"{hub_url}{route}",
            tools=[t["name"] for t in entry["tools"] if t["enabled"]],
            clients=len(entry["clients"]),
            calls=int(entry["calls"]),
        )


def _get(http: httpx.Client, url: str, params: dict[str, str] | None = None) -> Any:
    try:
        reply = http.get(url, params=params)
    except httpx.HTTPError as exc:
        raise CLIError(f"cannot reach {url}: {exc}") from None
    if reply.status_code in (401, 403):
        raise CLIError(f"the hub refused the token ({reply.status_code}) for {url}; it needs the scopes {SCOPES}")
    if reply.status_code != 200:
        raise CLIError(f"GET {url} answered {reply.status_code}")
    try:
        return reply.json()
    except ValueError:
        raise CLIError(f"GET {url} did not answer JSON: is that a JupyterHub?") from None
