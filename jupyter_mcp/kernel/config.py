"""The in-kernel server's settings: ``NotebookSettings`` (the record) and ``JupyterMCP`` (its traitlets).

``NotebookSettings`` is ``ServerSettings`` plus what only a kernel's server has (where it listens,
its history). ``JupyterMCP`` is generated from it, one trait per field with the field's help, so
``c.JupyterMCP.port = 9000`` works in an IPython config file; ``load_settings`` reads that config,
then the environment (``JUPYTER_MCP_PORT``, ``JUPYTER_MCP_TOKEN``, ``JUPYTER_MCP_TRANSPORT``), so a
client config survives kernel restarts (and a gateway's kernels can be told their transport), and
checks the result once.
"""

from __future__ import annotations

import os
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import traitlets
from pydantic import BeforeValidator, Field
from pydantic.fields import FieldInfo
from traitlets.config import Configurable

from jupyter_mcp.tools.settings import OnDuplicate, ServerSettings


class NotebookSettings(ServerSettings):
    """``ServerSettings`` plus the kernel's own: where it listens, what it records, how it shares the GIL."""

    on_duplicate: OnDuplicate = "replace"
    """What registering a name that is taken does; in a notebook, re-running a cell replaces its tool."""
    host: str = "127.0.0.1"
    """Interface to bind. Anything but loopback also needs allow_remote."""
    port: Annotated[int, Field(ge=0, le=65535)] = 0
    """Port to bind; 0 picks a free one. Env JUPYTER_MCP_PORT overrides."""
    token: str = Field("", repr=False)
    """Bearer token; empty means a random one per kernel. Env JUPYTER_MCP_TOKEN overrides."""
    allow_remote: bool = False
    """Allow binding a non-loopback host (the token is still required)."""
    transport: Literal["http", "kernel"] = "http"
    """How the Jupyter server reaches this kernel's tools. "http": a port on host (loopback), which
    the Jupyter server's routes, jupyter-mcp connect and direct clients use; the kernel's own
    messaging also answers the Jupyter server, for when that port is out of its reach (gateway
    kernels). "kernel": the kernel's messaging only, on a subshell of its own (ipykernel 7) or the
    control channel; no TCP port is opened, and clients connect through the Jupyter server's routes."""
    history_size: Annotated[int, Field(ge=1)] = 1000
    """How many calls the call history keeps."""
    max_payload: Annotated[int, Field(ge=1)] = 100_000
    """Characters kept per recorded field; longer ones are truncated."""
    main_thread_wait: Annotated[float, Field(ge=0)] = 5.0
    """Seconds a main-thread tool waits for the kernel to be idle before answering 'kernel busy'."""
    switch_interval: Annotated[float, Field(gt=0)] | None = 0.0005
    """GIL switch interval (seconds) while serving, so clients are answered promptly while a CPU-bound cell
    runs (Python's default of 5 ms makes each call wait ~20 switch intervals). Applied only if the interval
    is still Python's default; None leaves it alone. It costs nothing while no call is running."""


def _trait(info: FieldInfo, help_text: str) -> traitlets.TraitType[Any, Any]:
    """The traitlet for a settings field: its type, default and help, ``None`` allowed where the field allows it."""
    annotation = info.annotation
    options = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
    kinds = [_bare(kind) for kind in options if kind is not type(None)]
    common: dict[str, Any] = {"default_value": info.default, "allow_none": type(None) in options, "help": help_text}
    trait: traitlets.TraitType[Any, Any]
    if any(isinstance(item, BeforeValidator) for item in info.metadata):  # a size such as "2MB"
        trait = traitlets.Union([traitlets.Integer(), traitlets.Unicode()], **common)
    elif get_origin(kinds[0]) is Literal:
        trait = traitlets.Enum(list(get_args(kinds[0])), **common)
    else:
        trait = _SIMPLE[kinds[0]](**common)
    return trait.tag(config=True)


def _bare(kind: Any) -> Any:
    """``int`` for ``Annotated[int, Field(ge=1)]``."""
    return get_args(kind)[0] if get_origin(kind) is Annotated else kind


_SIMPLE: dict[Any, type[traitlets.TraitType[Any, Any]]] = {
    bool: traitlets.Bool,
    int: traitlets.Integer,
    float: traitlets.Float,
    str: traitlets.Unicode,
}


def configurable_from(record: type[ServerSettings], name: str, doc: str) -> type[Configurable]:
    """A ``Configurable`` with one config trait per field of ``record`` (same name, default and help)."""
    traits = {field: _trait(info, record.help(field)) for field, info in record.model_fields.items()}
    return type(name, (Configurable,), {"__doc__": doc, "__module__": __name__, **traits})


JupyterMCP = configurable_from(
    NotebookSettings, "JupyterMCP", "Settings of the in-kernel MCP server (generated from ``NotebookSettings``)."
)


def load_settings(**overrides: Any) -> NotebookSettings:
    """Settings from the running IPython's config (if any), then the environment, then ``overrides``."""
    configured = JupyterMCP(config=_ipython_config())
    values = {field: getattr(configured, field) for field in NotebookSettings.model_fields}
    if os.environ.get("JUPYTER_MCP_PORT"):
        values["port"] = _env_port(os.environ["JUPYTER_MCP_PORT"])
    if os.environ.get("JUPYTER_MCP_TOKEN"):
        values["token"] = os.environ["JUPYTER_MCP_TOKEN"]
    if os.environ.get("JUPYTER_MCP_TRANSPORT"):
        values["transport"] = os.environ["JUPYTER_MCP_TRANSPORT"]
    return NotebookSettings.build(**{**values, **overrides})


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
