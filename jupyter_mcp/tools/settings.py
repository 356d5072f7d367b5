"""``ServerSettings``: every setting of a ``ToolServer``, each said once with its help, checked when set.

The other fronts are built from this record: ``ToolServer(**options)`` takes its fields
(``ServerOptions``), the kernel's ``JupyterMCP`` traitlets are generated from it (plus the
kernel's own fields), and a tool option that overrides a server setting (``strict``,
``result_budget``) takes its help from here. A server's parts read the record it was built with
whenever they need a value, so ``server.settings.confirm = "always"`` takes effect at once, and a
value that does not fit is refused with one sentence naming the setting.

Example::

    server = ToolServer("demo", result_budget="2MB", confirm="destructive")
    server.settings.page_size = 50
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, Self, TypedDict

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr, ValidationError

from jupyter_mcp.jsonlimits import DEPTH_CEILING
from jupyter_mcp.tools.errors import ToolDefinitionError
from jupyter_mcp.tools.sizes import DEFAULT_RESULT_BUDGET, parse_budget, parse_size

ConfirmPolicy = Literal["never", "destructive", "always"]
"""Which tools wait for the notebook user besides those with ``confirm=True``."""
OnDuplicate = Literal["warn", "error", "replace", "ignore"]


def _budget(value: Any) -> int | None:
    try:
        return parse_budget(value, "result_budget")
    except ToolDefinitionError as exc:
        raise ValueError(str(exc).removeprefix("result_budget: ")) from None


def _size(value: Any) -> int:
    size = parse_size(value)
    if size is None or size < 1:
        raise ValueError(f"must be a size in bytes (like 4194304, '500kB' or '10MB'), got {value!r}")
    return size


Budget = Annotated[int | None, BeforeValidator(_budget)]
Size = Annotated[int, BeforeValidator(_size)]
Seconds = Annotated[float, Field(gt=0)]

SettingListener = Callable[[str], None]


class ServerSettings(BaseModel):
    """Settings of a ``ToolServer``; each field's docstring is its help (API docs, traitlets, magics)."""

    model_config = ConfigDict(validate_assignment=True, extra="forbid", use_attribute_docstrings=True)

    on_duplicate: OnDuplicate = "warn"
    """What registering a name that is taken does: 'warn' and replace, 'error', 'replace' or 'ignore'."""
    strict: bool = False
    """Reject argument type mismatches instead of coercing them ('10' -> 10)."""
    mask_error_details: bool = False
    """Send a generic message for exceptions other than ToolError (the history keeps the details)."""
    dereference_schemas: bool = True
    """Inline $defs in advertised schemas, for clients that cannot follow $ref."""
    page_size: Annotated[int, Field(ge=1)] | None = None
    """Tools (resources, prompts) per list page; None: one page."""
    max_workers: Annotated[int, Field(ge=1, frozen=True)] = 16
    """Threads for sync tools that run in workers (fixed when the server is built)."""
    inline_quick_tools: bool = True
    """Run a sync tool on the server's event loop thread, without the hand-off to a worker, once its last 16
    runs each took under 0.5 ms (tools without a Context parameter or timeout); an inline run over 2 ms sends
    it back to the workers for good. False: sync tools always run in workers."""
    result_budget: Budget = DEFAULT_RESULT_BUDGET
    """Bytes a result may take as sent (500000, '500kB', '2MB'; None: no limit). Above it clients get a
    preview and a result:// link to the full value; the default keeps results under the SDK clients' 1 MiB."""
    result_links_bytes: Annotated[int, Field(ge=0)] = 200_000_000
    """Bytes of full results kept for result:// links (oldest dropped first)."""
    result_links_count: Annotated[int, Field(ge=0)] = 1000
    """Full results kept for result:// links (oldest dropped first)."""
    result_links_ttl: Seconds = 3600.0
    """Seconds a full result stays readable at its result:// link."""
    confirm: ConfirmPolicy = "never"
    """Which client calls wait for the notebook user besides tools with confirm=True: 'destructive'
    (tools marked destructiveHint), 'always' or 'never'."""
    approval_timeout: Seconds = 300.0
    """Seconds a call waits for the notebook user's approval before it is denied."""
    input_timeout: Seconds = 600.0
    """Seconds a 2026-era call or a task waits for its client's answers before it expires."""
    task_after: Annotated[float, Field(ge=0)] = 0.5
    """Seconds a task tool runs before a client that supports tasks gets a task instead of waiting."""
    task_retention: Seconds = 3600.0
    """Seconds a finished task stays readable after it last changed."""
    max_body_bytes: Size = 4 * 1024 * 1024
    """Bytes a client's message may take (4194304, '500kB', '10MB'; default 4 MiB, as the MCP SDK's); a
    larger one is refused (HTTP 413)."""
    max_json_depth: Annotated[int, Field(ge=1, le=DEPTH_CEILING)] = 100
    """How deeply a client's message may nest arrays and objects (at most 200, the MCP SDK parser's own
    limit); a deeper one is refused as a parse error (HTTP 400)."""
    fast_paths: bool = True
    """Take the fast paths that reach past the public APIs of mcp, asyncio, ipykernel and jupyter_client, each
    after its start-up self-check (a failed one falls back with a warning); False, or JUPYTER_MCP_FAST_PATHS=0
    in the environment, serves through their public APIs only. Applies to what the server builds next (its
    HTTP app when it starts)."""
    apps: bool = True
    """Serve every tool's card as an MCP App (its calls, results and progress drawn in the chat) to clients
    that declare the io.modelcontextprotocol/ui extension; other clients see no difference (a tool opts out
    with app=False)."""

    _listeners: list[SettingListener] = PrivateAttr(default_factory=list)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            super().__setattr__(name, value)
            return
        try:
            super().__setattr__(name, value)
        except ValidationError as exc:
            raise ValueError(explain(exc)) from None
        for listener in list(self._listeners):
            listener(name)

    def on_change(self, listener: SettingListener) -> None:
        """Call ``listener(name)`` after each setting changes."""
        self._listeners.append(listener)

    @classmethod
    def help(cls, name: str) -> str:
        """The one-sentence help of setting ``name``, on one line."""
        return " ".join((cls.model_fields[name].description or "").split())

    def updated(self, **values: Any) -> Self:
        """This record with ``values`` set (each checked as it is set); returns it."""
        for key, value in values.items():
            setattr(self, key, value)
        return self

    @classmethod
    def build(cls, **values: Any) -> Self:
        """A record from ``values``; ``ToolDefinitionError`` in one sentence for a value that does not fit."""
        try:
            return cls(**values)
        except ValidationError as exc:
            raise ToolDefinitionError(explain(exc)) from None


class ServerOptions(TypedDict, total=False):
    """``ServerSettings``' fields as keyword arguments (``ToolServer(name, **options)``)."""

    on_duplicate: OnDuplicate
    strict: bool
    mask_error_details: bool
    dereference_schemas: bool
    page_size: int | None
    max_workers: int
    inline_quick_tools: bool
    result_budget: int | str | None
    result_links_bytes: int
    result_links_count: int
    result_links_ttl: float
    confirm: ConfirmPolicy
    approval_timeout: float
    input_timeout: float
    task_after: float
    task_retention: float
    max_body_bytes: int | str
    max_json_depth: int
    fast_paths: bool
    apps: bool


def explain(exc: ValidationError) -> str:
    """One sentence for the first problem pydantic found: the setting, what it needs, what it got."""
    first = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "settings"
    if first["type"] in ("extra_forbidden", "no_such_attribute"):
        return f"unknown setting {where!r}; the settings are: {', '.join(ServerSettings.model_fields)}"
    if first["type"] == "frozen_field":
        return f"{where} is fixed when the server is built"
    message = str(first["msg"]).removeprefix("Value error, ")
    said = message if message.startswith(where) else f"{where}: {message}"
    return said + ("" if "got " in message else f" (got {first.get('input')!r})")
