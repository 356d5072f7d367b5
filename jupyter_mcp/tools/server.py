"""``ToolServer``: serve a ``ToolRegistry`` over MCP (stdio, streamable HTTP, in-process).

Built on mcp 2.x's low-level ``Server`` rather than ``MCPServer``: MCPServer brings its own tool
manager, schemas and result conversion (what this package replaces with FastMCP semantics), and
does not broadcast ``list_changed`` on registry changes; the low-level server lets the registry
own tools and this class own the protocol surface.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Collection, Mapping
from dataclasses import asdict
from typing import Any, Unpack, overload

import mcp_types as mt
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import ListenHandler
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from jupyter_mcp._version import __version__
from jupyter_mcp.tools._sdk import LOG_LEVEL_STATE_KEY, connection_of
from jupyter_mcp.tools.callflow import CallFlow
from jupyter_mcp.tools.calls import CallPath, CallSettings
from jupyter_mcp.tools.events import CallObserver
from jupyter_mcp.tools.eventstore import EventStores
from jupyter_mcp.tools.listcache import ListCache
from jupyter_mcp.tools.mrtr import SuspendedCalls, state_boundary
from jupyter_mcp.tools.options import ToolOptions
from jupyter_mcp.tools.registry import OnDuplicate, RegistryChange, ToolRegistry
from jupyter_mcp.tools.sessions import ClientTracker, ConnectedClient, ThreadSafeBus
from jupyter_mcp.tools.stats import ToolCounts, ToolStats
from jupyter_mcp.tools.tasks import TASKS_EXTENSION, TaskParams, TaskStore, TaskUpdateParams
from jupyter_mcp.tools.tool import Tool
from jupyter_mcp.tools.wirecheck import explain_invalid_params

AnyFunction = Callable[..., Any]


class _LowLevelServer(Server[Any]):
    """Advertises ``tools.listChanged: true`` in the 2025-era handshake, and tasks in the 2026 era.

    Without this the SDK's session manager builds its init options from a default
    ``NotificationOptions()`` and advertises ``false``. The tasks extension is served to 2026-era
    clients only (``server/discover``); 2025-era sessions call task tools like any other.
    """

    def get_capabilities(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
        *,
        protocol_version: str | None = None,
    ) -> mt.ServerCapabilities:
        if protocol_version in MODERN_PROTOCOL_VERSIONS:
            extensions = {**(extensions or self.extensions), TASKS_EXTENSION: {}}
        return super().get_capabilities(
            notification_options, experimental_capabilities, extensions, protocol_version=protocol_version
        )

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        options = notification_options or NotificationOptions(tools_changed=True)
        return super().create_initialization_options(options, experimental_capabilities, extensions)


class ToolServer:
    """Tools registered here are served to MCP clients, FastMCP style.

    Example::

        server = ToolServer("demo")

        @server.tool
        def add(a: int, b: int) -> int:
            '''Adds two integer numbers together.'''
            return a + b

        async with mcp.Client(server.lowlevel) as client:
            await client.call_tool("add", {"a": 1, "b": 2})
    """

    def __init__(
        self,
        name: str = "jupyter-mcp",
        *,
        version: str = __version__,
        instructions: str | None = None,
        on_duplicate: OnDuplicate = "warn",
        strict: bool = False,
        mask_error_details: bool = False,
        dereference_schemas: bool = True,
        page_size: int | None = None,
        max_workers: int = 16,
        input_timeout: float = 600.0,
        task_after: float = 0.5,
        task_retention: float = 3600.0,
    ) -> None:
        self.name = name
        self.registry = ToolRegistry(on_duplicate)
        self.calls = CallPath(self.registry, CallSettings(strict, mask_error_details), max_workers=max_workers)
        self.suspended = SuspendedCalls(input_timeout)
        """2026-era calls waiting for their client's answers (see mrtr.py)."""
        self.tasks = TaskStore(self.calls.task_created, retention=task_retention, input_timeout=input_timeout)
        """Calls running as tasks (see tasks.py)."""
        self.flow = CallFlow(self.calls, self.suspended, self.tasks, task_after)
        self.list_cache = ListCache()
        self.dereference_schemas = dereference_schemas
        self.page_size = page_size
        self.event_stores = EventStores()
        """What 2025-era sessions can resume from, one store per session (see eventstore.py)."""
        self.stats = ToolStats()
        self.calls.add_observer(self.stats)
        self.bus = ThreadSafeBus()
        self.clients_tracker = ClientTracker(self.bus)
        self.lowlevel = self._build_lowlevel(name, version, instructions)
        self.registry.subscribe(self._registry_changed)

    # ---- registering tools -----------------------------------------------------------------------

    @overload
    def tool(self, fn: AnyFunction, /, **options: Unpack[ToolOptions]) -> AnyFunction: ...
    @overload
    def tool(self, fn: None = None, /, **options: Unpack[ToolOptions]) -> Callable[[AnyFunction], AnyFunction]: ...
    def tool(self, fn: AnyFunction | None = None, /, **options: Unpack[ToolOptions]) -> Any:
        """Register a function as a tool; use bare (``@server.tool``) or with options (``ToolOptions``).

        Returns the function unchanged, so it stays callable from Python.
        """
        if fn is not None:
            self.add_tool(fn, **options)
            return fn

        def decorator(function: AnyFunction) -> AnyFunction:
            self.add_tool(function, **options)
            return function

        return decorator

    def add_tool(
        self, fn: AnyFunction | Tool, *, on_duplicate: OnDuplicate | None = None, **options: Unpack[ToolOptions]
    ) -> Tool:
        """Register ``fn`` (or a ready ``Tool``) and return the ``Tool`` that is now served."""
        tool = fn if isinstance(fn, Tool) else Tool.from_function(fn, **options)
        return self.registry.add(tool, on_duplicate=on_duplicate)

    def remove_tool(self, name: str) -> Tool:
        return self.registry.remove(name)

    def enable(
        self, names: Collection[str] | None = None, tags: Collection[str] | None = None, *, only: bool = False
    ) -> None:
        self.registry.enable(names, tags, only=only)

    def disable(self, names: Collection[str] | None = None, tags: Collection[str] | None = None) -> None:
        self.registry.disable(names, tags)

    @property
    def dereference_schemas(self) -> bool:
        """Whether listed schemas have ``$defs`` inlined (for clients that cannot follow ``$ref``)."""
        return self._dereference_schemas

    @dereference_schemas.setter
    def dereference_schemas(self, value: bool) -> None:
        self._dereference_schemas = value
        self.list_cache.clear()

    @property
    def page_size(self) -> int | None:
        """Tools per ``tools/list`` page (``None``: one page)."""
        return self._page_size

    @page_size.setter
    def page_size(self, value: int | None) -> None:
        if value is not None and value < 1:
            raise ValueError("page_size must be a positive number of tools, or None for one page")
        self._page_size = value
        self.list_cache.clear()

    @property
    def tools(self) -> dict[str, Tool]:
        """Every registered tool by name (including disabled ones)."""
        return self.registry.all()

    def add_call_observer(self, observer: CallObserver) -> Callable[[], None]:
        return self.calls.add_observer(observer)

    def connected_clients(self) -> list[ConnectedClient]:
        return self.clients_tracker.clients()

    def status(self) -> dict[str, Any]:
        """What is served and who uses it, as JSON (``GET /status`` on the HTTP app)."""
        counts = self.stats.snapshot()
        return {
            "name": self.name,
            "version": self.lowlevel.version,
            "tools": [
                {
                    "name": tool.name,
                    "title": tool.title,
                    "description": tool.description,
                    "enabled": self.registry.is_visible(tool),
                    "tags": sorted(tool.tags),
                    "run_on": tool.run_on,
                    **counts.get(tool.name, ToolCounts()).to_json(),
                }
                for tool in self.registry.all().values()
            ],
            "clients": [asdict(client) for client in self.connected_clients()],
            "listeners": self.bus.listener_count,
            "calls": self.stats.total_calls,
        }

    async def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> mt.CallToolResult:
        """Call a tool through the full call path, as a client would (useful in tests and cells)."""
        return await self.calls.call(name, arguments, source="notebook")

    # ---- transports ------------------------------------------------------------------------------

    async def run_stdio(self) -> None:
        """Serve on this process's stdin/stdout until the client closes it."""
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read_stream, write_stream):
            await self.lowlevel.run(read_stream, write_stream, self.lowlevel.create_initialization_options())

    def streamable_http_app(self, *, path: str = "/mcp", json_response: bool = False) -> ASGIApp:
        """A fresh ASGI app serving MCP at ``path`` (each app may run once)."""
        from jupyter_mcp.tools.httpapp import streamable_http_app

        return streamable_http_app(
            self.lowlevel,
            self.event_stores,
            path=path,
            json_response=json_response,
            retry_interval=_SSE_RETRY_MS,
            routes=[Route("/status", self._status_endpoint, methods=["GET"])],
        )

    async def _status_endpoint(self, request: Request) -> Response:
        return JSONResponse(self.status())

    def protected_http_app(self, token: str, *, allowed_hosts: Collection[str] = (), path: str = "/mcp") -> ASGIApp:
        """``streamable_http_app`` behind Host/Origin checks and a bearer token."""
        from jupyter_mcp.tools.http import protect

        return protect(self.streamable_http_app(path=path), token=token, extra_hosts=allowed_hosts)

    # ---- protocol handlers -----------------------------------------------------------------------

    def _build_lowlevel(self, name: str, version: str, instructions: str | None) -> Server[Any]:
        server = _LowLevelServer(
            name,
            version=version,
            instructions=instructions,
            on_list_tools=self._list_tools,
            on_list_resources=_empty_resources,
            on_list_resource_templates=_empty_templates,
            on_list_prompts=_empty_prompts,
            on_completion=_empty_completion,
            on_subscriptions_listen=ListenHandler(self.bus),
            get_tool_input_schema=self._input_schema,
        )
        server.add_request_handler("logging/setLevel", mt.SetLevelRequestParams, self._set_level)
        # Registered here rather than as on_call_tool=: a call may also answer with a CreateTaskResult.
        server.add_request_handler("tools/call", mt.CallToolRequestParams, self.flow)
        server.add_request_handler("tasks/get", TaskParams, self.tasks.get)
        server.add_request_handler("tasks/update", TaskUpdateParams, self.tasks.update)
        server.add_request_handler("tasks/cancel", TaskParams, self.tasks.cancel)
        # The default OpenTelemetry middleware costs ~5% per call with no exporter; tracking replaces it.
        boundary = state_boundary(name, self.suspended.timeout)
        server.middleware = [self.clients_tracker, explain_invalid_params, self.list_cache, boundary]
        return server

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: mt.PaginatedRequestParams | None
    ) -> mt.ListToolsResult:
        tools = self.registry.visible()
        start = _decode_cursor(params.cursor if params is not None else None)
        end = len(tools) if self.page_size is None else start + self.page_size
        page = [t.to_mcp(dereference_schemas=self.dereference_schemas) for t in tools[start:end]]
        next_cursor = _encode_cursor(end) if end < len(tools) else None
        return mt.ListToolsResult(tools=page, next_cursor=next_cursor)

    async def _set_level(self, ctx: ServerRequestContext[Any, Any], params: mt.SetLevelRequestParams) -> mt.EmptyResult:
        connection = connection_of(ctx)
        if connection is not None:
            connection.state[LOG_LEVEL_STATE_KEY] = params.level
        return mt.EmptyResult()

    def _input_schema(self, name: str) -> Mapping[str, Any] | None:
        tool = self.registry.get(name)
        return tool.to_mcp(dereference_schemas=self.dereference_schemas).input_schema if tool else None

    def _registry_changed(self, change: RegistryChange) -> None:
        self.list_cache.clear()
        self.clients_tracker.tools_changed()


_SSE_RETRY_MS = 1000
"""Reconnection delay suggested to clients whose SSE stream was closed (SSE ``retry:`` field)."""


def _decode_cursor(cursor: str | None) -> int:
    if cursor is None:
        return 0
    try:
        offset = int(base64.urlsafe_b64decode(cursor.encode()).decode())
    except (ValueError, binascii.Error, UnicodeDecodeError):
        offset = -1
    if offset < 0:
        raise MCPError(code=mt.INVALID_PARAMS, message=f"Invalid cursor {cursor!r}: list again without a cursor")
    return offset


def _encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(str(offset).encode()).decode()


async def _empty_resources(ctx: Any, params: Any) -> mt.ListResourcesResult:
    return mt.ListResourcesResult(resources=[])


async def _empty_templates(ctx: Any, params: Any) -> mt.ListResourceTemplatesResult:
    return mt.ListResourceTemplatesResult(resource_templates=[])


async def _empty_prompts(ctx: Any, params: Any) -> mt.ListPromptsResult:
    return mt.ListPromptsResult(prompts=[])


async def _empty_completion(ctx: Any, params: Any) -> mt.CompleteResult:
    return mt.CompleteResult(completion=mt.Completion(values=[]))
