"""Client configs that point at the Jupyter routes (``/api/mcp/config``), built by ``clientconfig``."""

from __future__ import annotations

from dataclasses import dataclass

from jupyter_mcp.clientconfig import UNION_NAME, Target, config_for, server_name, url_target
from jupyter_mcp.hubenv import REMOTE_COMMAND
from jupyter_mcp.routes import kernel_route, notebook_route, union_route
from jupyter_mcp.shapes.rest import ClientKind, ConfigReply

TOKEN_PLACEHOLDER = "<JUPYTER_TOKEN>"  # noqa: S105 - a placeholder the user replaces, not a secret


@dataclass(frozen=True)
class ConfigRequest:
    client: ClientKind
    notebook: str | None
    kernel_id: str | None
    origin: str
    """Scheme and host clients use to reach this Jupyter server, e.g. ``http://localhost:8888``."""
    base_url: str
    token: str | None
    """The Jupyter token to embed; ``None`` puts a placeholder the user fills in."""
    remote: bool = False
    """The client runs on another machine (under JupyterHub): it starts its own ``jupyter-mcp``."""
    notebooks: tuple[str, ...] = ()
    """Without a notebook or kernel: ``<base_url>/mcp``, scoped to these notebooks and folders if any."""


def client_config(request: ConfigRequest) -> ConfigReply:
    url = request.origin + _route(request)
    return {
        "client": request.client,
        "notebook": request.notebook,
        "kernel_id": request.kernel_id,
        "url": url,
        "config": config_for(request.client, jupyter_target(request, url)),
    }


def jupyter_target(request: ConfigRequest, url: str) -> Target:
    """HTTP clients send Jupyter's token header; Claude Desktop runs the stdio bridge to the same URL
    (this server's ``jupyter-mcp``, by absolute path; under a hub the user's own) with the token in its
    environment."""
    token = request.token or TOKEN_PLACEHOLDER
    name = server_name(request.notebook, request.kernel_id or "") if _single(request) else UNION_NAME
    command = REMOTE_COMMAND if request.remote else None
    return url_target(name, url, {"Authorization": f"token {token}"}, token, command=command)


def _single(request: ConfigRequest) -> bool:
    return bool(request.notebook or request.kernel_id)


def _route(request: ConfigRequest) -> str:
    if request.notebook:
        return notebook_route(request.base_url, request.notebook.lstrip("/"))
    if request.kernel_id:
        return kernel_route(request.base_url, request.kernel_id)
    return union_route(request.base_url, request.notebooks)
