"""``JupyterMCP`` settings: traitlets config (``c.JupyterMCP.port = 9000`` in an IPython config
file) with environment overrides, so a client config survives kernel restarts."""

from __future__ import annotations

import os
from typing import Any

from traitlets import Bool, Enum, Float, Integer, TraitError, Unicode, Union, validate
from traitlets.config import Configurable

from jupyter_mcp.prefixes import check_prefix
from jupyter_mcp.tools.budget.links import DEFAULT_KEPT_BYTES, DEFAULT_KEPT_TTL
from jupyter_mcp.tools.sizes import DEFAULT_RESULT_BUDGET


class JupyterMCP(Configurable):
    """Settings of the in-kernel MCP server."""

    host = Unicode("127.0.0.1", help="Interface to bind. Anything but loopback also needs allow_remote.").tag(
        config=True
    )
    port = Integer(0, help="Port to bind; 0 picks a free one. Env JUPYTER_MCP_PORT overrides.").tag(config=True)
    token = Unicode("", help="Bearer token; empty means a random one per kernel. Env JUPYTER_MCP_TOKEN overrides.").tag(
        config=True
    )
    allow_remote = Bool(False, help="Allow binding a non-loopback host (the token is still required).").tag(config=True)
    name = Unicode(
        "",
        help="This notebook's prefix at <jupyter url>/mcp, where every notebook's tools are served together: a tool "
        "'forecast' is served as 'PREFIX_forecast'. Empty: the notebook's file stem ('sales.ipynb' -> 'sales'). "
        "Letters, digits, '_' and '-'; %mcp name PREFIX sets it from a cell.",
    ).tag(config=True)
    history_size = Integer(1000, help="How many calls the call history keeps.").tag(config=True)
    max_payload = Integer(100_000, help="Characters kept per recorded field; longer ones are truncated.").tag(
        config=True
    )
    main_thread_wait = Float(
        5.0, help="Seconds a main-thread tool waits for the kernel to be idle before answering 'kernel busy'."
    ).tag(config=True)
    max_workers = Integer(16, help="Threads for sync tools that run in workers.").tag(config=True)
    strict = Bool(False, help="Reject argument type mismatches instead of coercing them.").tag(config=True)
    mask_error_details = Bool(False, help="Send a generic message for exceptions other than ToolError.").tag(
        config=True
    )
    dereference_schemas = Bool(True, help="Inline $defs in advertised schemas.").tag(config=True)
    result_budget = Union(
        [Integer(), Unicode()],
        default_value=DEFAULT_RESULT_BUDGET,
        allow_none=True,
        help="Bytes a result may take as sent (500000, '500kB', '2MB'; None: no limit). Above it clients get a "
        "preview and a result:// link to the full value; the default keeps results under the SDK clients' 1 MiB.",
    ).tag(config=True)
    kept_results_bytes = Integer(
        DEFAULT_KEPT_BYTES, help="Bytes of full results kept for result:// links (oldest dropped first)."
    ).tag(config=True)
    kept_results_ttl = Float(DEFAULT_KEPT_TTL, help="Seconds a full result stays readable at its result:// link.").tag(
        config=True
    )
    confirm = Enum(
        ["never", "destructive", "always"],
        "never",
        help="Which client calls wait for the notebook user besides tools with confirm=True: "
        "'destructive' (tools marked destructiveHint), 'always' or 'never'.",
    ).tag(config=True)
    approval_timeout = Float(
        300.0, help="Seconds a call waits for the notebook user's approval before it is denied."
    ).tag(config=True)
    input_timeout = Float(
        600.0, help="Seconds a 2026-era call or a task waits for its client's answers before it expires."
    ).tag(config=True)
    task_after = Float(
        0.5, help="Seconds a task tool runs before a client that supports tasks gets a task instead of waiting."
    ).tag(config=True)
    task_retention = Float(3600.0, help="Seconds a finished task stays readable after it last changed.").tag(
        config=True
    )
    switch_interval = Float(
        0.0005,
        allow_none=True,
        help="GIL switch interval (seconds) while serving, so clients are answered promptly while a CPU-bound "
        "cell runs (Python's default of 5 ms makes each call wait ~20 switch intervals). Applied only if the "
        "interval is still Python's default; None leaves it alone. It costs nothing while no call is running.",
    ).tag(config=True)

    @validate("name")
    def _valid_name(self, proposal: Any) -> str:
        value = str(proposal["value"])
        try:
            return check_prefix(value) if value else value
        except ValueError as exc:
            raise TraitError(f"JupyterMCP.name: {exc}") from None


def load_settings(**overrides: Any) -> JupyterMCP:
    """Settings from the running IPython's config (if any), then the environment, then ``overrides``."""
    settings = JupyterMCP(config=_ipython_config())
    if os.environ.get("JUPYTER_MCP_PORT"):
        settings.port = _env_port(os.environ["JUPYTER_MCP_PORT"])
    if os.environ.get("JUPYTER_MCP_TOKEN"):
        settings.token = os.environ["JUPYTER_MCP_TOKEN"]
    for key, value in overrides.items():
        setattr(settings, key, value)
    return settings


def _ipython_config() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return shell.config if shell is not None else None


def _env_port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise ValueError(f"JUPYTER_MCP_PORT must be a port number, got {value!r}") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"JUPYTER_MCP_PORT must be between 0 and 65535, got {port}")
    return port
