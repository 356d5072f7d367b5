"""``ToolServer``: serve tools, resources and prompts over MCP (stdio, streamable HTTP, in-process).

This class is the API (register, enable, call, transports); ``handlers.py`` builds the protocol
surface on mcp's low-level ``Server``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from typing import Any, Unpack, overload

import mcp_types as mt
from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from jupyter_mcp._version import __version__
from jupyter_mcp.adapters import sdk, stdlib
from jupyter_mcp.adapters.fastpaths import Adapter, FastPaths, settle
from jupyter_mcp.shapes.status import ClientEntry, ServerStatus
from jupyter_mcp.tools.approvals.policy import Approvals
from jupyter_mcp.tools.approvals.waits import NotebookQuestion, PendingCall
from jupyter_mcp.tools.apps.surface import AppSurface
from jupyter_mcp.tools.budget.links import ResultLinks
from jupyter_mcp.tools.calls.events import CallObserver
from jupyter_mcp.tools.calls.path import NOTEBOOK, CallPath
from jupyter_mcp.tools.calls.rounds import InputRounds
from jupyter_mcp.tools.calls.stats import ToolStats
from jupyter_mcp.tools.calls.tasks import TaskStore
from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.components.options import PromptOptions, ResourceOptions, ToolOptions
from jupyter_mcp.tools.components.prompts import Prompt, PromptRegistry
from jupyter_mcp.tools.components.registry import OnDuplicate, Registry, RegistryChange, ToolRegistry, split_by_registry
from jupyter_mcp.tools.components.resources import (
    AnyResource,
    Resource,
    ResourceRegistry,
    ResourceTemplate,
    resource_from_function,
)
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.observers import Observers
from jupyter_mcp.tools.protocol.flow import CallFlow
from jupyter_mcp.tools.protocol.handlers import build_lowlevel
from jupyter_mcp.tools.protocol.listcache import ListCache
from jupyter_mcp.tools.protocol.sessions import ClientTracker, ThreadSafeBus
from jupyter_mcp.tools.protocol.status import status as server_status
from jupyter_mcp.tools.settings import ServerOptions, ServerSettings
from jupyter_mcp.tools.transports.http.eventstore import EventStores

logger = logging.getLogger(__name__)

AnyFunction = Callable[..., Any]
ResourceListener = Callable[[str], None]

LISTS = ("tools/list", "resources/list", "resources/templates/list", "prompts/list")
"""The list methods answered from the ``ListCache`` (cleared on every registry change)."""


class ToolServer:
    """Tools, resources and prompts registered here are served to MCP clients, FastMCP style.

    Example::

        server = ToolServer("demo")

        @server.tool
        def add(a: int, b: int) -> int:
            '''Adds two integer numbers together.'''
            return a + b

        @server.resource("data://greeting")
        def greeting() -> str:
            return "Hello"

        async with mcp.Client(server.lowlevel) as client:
            await client.call_tool("add", {"a": 1, "b": 2})
    """

    def __init__(
        self,
        name: str = "jupyter-mcp",
        *,
        version: str = __version__,
        instructions: str | None = None,
        settings: ServerSettings | None = None,
        **options: Unpack[ServerOptions],
    ) -> None:
        self.name = name
        self.settings = ServerSettings.build(**options) if settings is None else settings.updated(**options)
        """Every setting of this server (``ServerSettings``): change one and it applies at once."""
        self.fast_paths_taken: FastPaths = self._settle()
        """The libraries whose fast paths this server takes (``fast_paths`` and each adapter's self-check)."""
        self.lifespan_state: dict[str, Any] = {}
        """What the lowlevel server's lifespan yields (its handlers' ``lifespan_context``)."""
        self.registry = ToolRegistry()
        self.resource_registry = ResourceRegistry()
        self.prompt_registry = PromptRegistry()
        self.approvals = Approvals(self.settings)
        """The notebook user's say over client calls: confirmation, pause, read-only clients."""
        self.calls = CallPath(
            self.registry,
            self.settings,
            resources=self.resource_registry,
            prompts=self.prompt_registry,
            admission=self.approvals,
            inline_allowed=lambda: self.fast_paths_taken.takes(stdlib.LIBRARY),
        )
        self.rounds = InputRounds(self.settings)
        """2026-era calls waiting for their client's answers between input rounds."""
        self.tasks = TaskStore(self.calls.task_created, self.settings)
        """Calls running as tasks (the tasks extension)."""
        self.flow = CallFlow(self.calls, self.rounds, self.tasks, self.settings)
        self.app_surface = AppSurface(self.settings, self.registry, lambda: self.result_links)
        """MCP Apps: each tool's card for clients that render apps (the ``apps`` setting)."""
        self.calls.add_observer(self.app_surface.live)
        self.list_cache = ListCache(LISTS, variant=self.app_surface.variant)
        self.settings.on_change(self._setting_changed)
        self.event_stores = EventStores()
        """What 2025-era sessions can resume from, one store per session."""
        self.stats = ToolStats()
        self.calls.add_observer(self.stats)
        self.approvals.decisions.add(self.stats.call_decided)
        self.bus = ThreadSafeBus()
        self.clients_tracker = ClientTracker(self.bus, DEFAULT_SESSION_IDLE_TIMEOUT)
        self.resource_updates: Observers[ResourceListener] = Observers(__name__)
        """Told the URI (or URI template) of every ``notify_resource_updated`` (the cards re-read)."""
        self.lowlevel = build_lowlevel(self, name, version, instructions)
        for registry in self.registries:
            registry.subscribe(self._registry_changed)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ServerSettings.model_fields:  # a setting lives in one place; say where instead of shadowing it
            raise AttributeError(f"{name} is a setting: set server.settings.{name} = {value!r}")
        super().__setattr__(name, value)

    @property
    def registries(self) -> tuple[Registry[Any], ...]:
        """The tool, resource and prompt registries, in that order."""
        return (self.registry, self.resource_registry, self.prompt_registry)

    def registry_of(self, kind: Kind) -> Registry[Any]:
        """The registry holding ``kind`` (``"tool"``, ``"resource"`` or ``"prompt"``)."""
        by_kind: dict[Kind, Registry[Any]] = {
            "tool": self.registry,
            "resource": self.resource_registry,
            "prompt": self.prompt_registry,
        }
        return by_kind[kind]

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
        return self.registry.add(tool, on_duplicate=on_duplicate or self.settings.on_duplicate)

    def remove_tool(self, name: str) -> Tool:
        return self.registry.remove(name)

    # ---- registering resources and prompts -------------------------------------------------------

    def resource(self, uri: str, **options: Unpack[ResourceOptions]) -> Callable[[AnyFunction], AnyFunction]:
        """Register a function read on every ``resources/read`` of ``uri`` (``ResourceOptions``).

        A URI with ``{...}`` is a template whose values are the function's parameters. Returns the
        function unchanged.

        Example::

            @server.resource("data://cities/{country}", mime_type="application/json")
            def cities(country: str) -> list[dict]: ...
        """

        def decorator(function: AnyFunction) -> AnyFunction:
            self.add_resource(function, uri, **options)
            return function

        return decorator

    def add_resource(
        self,
        fn: AnyFunction | AnyResource,
        uri: str | None = None,
        *,
        on_duplicate: OnDuplicate | None = None,
        **options: Unpack[ResourceOptions],
    ) -> AnyResource:
        """Register ``fn`` at ``uri`` (or a ready ``Resource``/``ResourceTemplate``); returns what is served."""
        if isinstance(fn, Resource | ResourceTemplate):
            return self.resource_registry.add(fn, on_duplicate=on_duplicate or self.settings.on_duplicate)
        if uri is None:
            raise TypeError("add_resource(fn, uri) needs the URI the function is read at")
        return self.resource_registry.add(
            resource_from_function(fn, uri, **options), on_duplicate=on_duplicate or self.settings.on_duplicate
        )

    def remove_resource(self, uri: str) -> AnyResource:
        """Unregister the resource with this URI (or the template with this URI template)."""
        return self.resource_registry.remove(uri)

    def notify_resource_updated(self, uri: str) -> list[str]:
        """Tell subscribed clients the resource at ``uri`` changed (a template: every URI it matches).

        Returns the URIs clients were told about. The notebook's own cards re-read, too.
        """
        template = self.resource_registry.all().get(uri)
        if isinstance(template, ResourceTemplate):
            told = self.clients_tracker.resources_updated(lambda u: template.matcher.match(u) is not None)
        else:
            told = self.clients_tracker.resources_updated(lambda u: u == uri)
        self.resource_updates.each(lambda listener: listener(uri))
        return told

    @overload
    def prompt(self, fn: AnyFunction, /, **options: Unpack[PromptOptions]) -> AnyFunction: ...
    @overload
    def prompt(self, fn: None = None, /, **options: Unpack[PromptOptions]) -> Callable[[AnyFunction], AnyFunction]: ...
    def prompt(self, fn: AnyFunction | None = None, /, **options: Unpack[PromptOptions]) -> Any:
        """Register a function as a prompt; bare (``@server.prompt``) or with options (``PromptOptions``)."""
        if fn is not None:
            self.add_prompt(fn, **options)
            return fn

        def decorator(function: AnyFunction) -> AnyFunction:
            self.add_prompt(function, **options)
            return function

        return decorator

    def add_prompt(
        self, fn: AnyFunction | Prompt, *, on_duplicate: OnDuplicate | None = None, **options: Unpack[PromptOptions]
    ) -> Prompt:
        """Register ``fn`` (or a ready ``Prompt``) and return the ``Prompt`` that is now served."""
        prompt = fn if isinstance(fn, Prompt) else Prompt.from_function(fn, **options)
        return self.prompt_registry.add(prompt, on_duplicate=on_duplicate or self.settings.on_duplicate)

    def remove_prompt(self, name: str) -> Prompt:
        return self.prompt_registry.remove(name)

    # ---- visibility ------------------------------------------------------------------------------

    def enable(
        self, names: Collection[str] | None = None, tags: Collection[str] | None = None, *, only: bool = False
    ) -> None:
        """Enable tools, resources and prompts by name (a resource also by URI) and by tag.

        ``only=True`` switches every registry to allow-list mode: just these are visible.
        """
        for registry, keys in split_by_registry(self.registries, names):
            if keys or tags or only:
                registry.enable(keys, tags, only=only)

    def disable(self, names: Collection[str] | None = None, tags: Collection[str] | None = None) -> None:
        """Hide tools, resources and prompts by name (a resource also by URI) and by tag."""
        for registry, keys in split_by_registry(self.registries, names):
            if keys or tags:
                registry.disable(keys, tags)

    @property
    def result_links(self) -> ResultLinks:
        """The full values behind the ``result://`` links of previews (bounded by the ``result_links_*`` settings)."""
        return self.calls.budget.links

    @property
    def tools(self) -> dict[str, Tool]:
        """Every registered tool by name (including disabled ones)."""
        return self.registry.all()

    @property
    def resources(self) -> dict[str, AnyResource]:
        """Every registered resource by URI and template by URI template (including disabled ones)."""
        return self.resource_registry.all()

    @property
    def prompts(self) -> dict[str, Prompt]:
        """Every registered prompt by name (including disabled ones)."""
        return self.prompt_registry.all()

    def add_call_observer(self, observer: CallObserver) -> Callable[[], None]:
        return self.calls.add_observer(observer)

    def connected_clients(self) -> list[ClientEntry]:
        return self.clients_tracker.clients()

    def status(self) -> ServerStatus:
        """What is served and who uses it, as JSON (``GET /status`` on the HTTP app)."""
        return server_status(self)

    async def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> mt.CallToolResult:
        """Call a tool through the full call path, as a client would (useful in tests and cells)."""
        return await self.calls.call(name, arguments, NOTEBOOK)

    async def read_resource(self, uri: str) -> mt.ReadResourceResult:
        """Read ``uri`` through the full path, as a client would; raises ``ResourceError`` (and subclasses)."""
        return await self.calls.read_resource(uri, NOTEBOOK)

    async def get_prompt(self, name: str, arguments: Mapping[str, Any] | None = None) -> mt.GetPromptResult:
        """Render prompt ``name`` as a client would; raises ``PromptError`` or ``ToolArgumentsError``."""
        return await self.calls.get_prompt(name, arguments, NOTEBOOK)

    # ---- the notebook user's say over client calls (approvals.py) -------------------------------

    def tools_needing_approval(self) -> list[str]:
        """Names of the listed tools whose client calls wait for the notebook user's approval."""
        return [tool.name for tool in self.registry.visible() if self.approvals.needs_confirm(tool)]

    @property
    def pending(self) -> list[PendingCall]:
        """Client calls waiting for the notebook user, oldest first: ``server.pending[0].allow()``."""
        return self.approvals.pending

    @property
    def questions(self) -> list[NotebookQuestion]:
        """Tools' questions for the notebook user (``ctx.ask_notebook_user``): ``server.questions[0].answer({...})``."""
        return self.approvals.questions

    @property
    def paused(self) -> bool:
        return self.approvals.paused

    def pause(self) -> None:
        """Kill switch: refuse new client calls, cancel running async ones, deny waiting ones."""
        self.approvals.pause()

    def resume(self) -> None:
        """Serve client calls again after ``pause()``."""
        self.approvals.resume()

    def limit_client(self, name: str, *, read_only: bool = True) -> None:
        """Limit client ``name`` (its clientInfo name) to tools marked read-only; ``read_only=False`` lifts it."""
        self.approvals.limit_client(name, read_only=read_only)

    # ---- transports ------------------------------------------------------------------------------

    async def run_stdio(self) -> None:
        """Serve on this process's stdin/stdout until the client closes it."""
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read_stream, write_stream):
            await self.lowlevel.run(read_stream, write_stream, self.lowlevel.create_initialization_options())

    def streamable_http_app(self, *, path: str = "/mcp", json_response: bool = False) -> ASGIApp:
        """A fresh ASGI app serving MCP at ``path`` (each app may run once)."""
        from jupyter_mcp.tools.transports.http.app import streamable_http_app
        from jupyter_mcp.tools.transports.http.approval_routes import approval_routes

        return streamable_http_app(
            self,
            path=path,
            json_response=json_response,
            retry_interval=_SSE_RETRY_MS,
            routes=[Route("/status", self._status_endpoint, methods=["GET"]), *approval_routes(self.approvals)],
            settings=self.settings,
        )

    async def _status_endpoint(self, request: Request) -> Response:
        return JSONResponse(self.status())

    def protected_http_app(self, token: str, *, allowed_hosts: Collection[str] = (), path: str = "/mcp") -> ASGIApp:
        """``streamable_http_app`` behind Host/Origin checks and a bearer token."""
        from jupyter_mcp.tools.transports.http.auth import protect

        return protect(self.streamable_http_app(path=path), token=token, extra_hosts=allowed_hosts)

    # ---- protocol handlers -----------------------------------------------------------------------

    def _adapters(self) -> list[Adapter]:
        """The libraries this server reaches past (a kernel's server adds its own)."""
        return [sdk.ADAPTER, stdlib.ADAPTER]

    def _settle(self) -> FastPaths:
        return settle(self._adapters(), wanted=self.settings.fast_paths, logger=logger)

    def _setting_changed(self, name: str) -> None:
        if name == "fast_paths":
            self.fast_paths_taken = self._settle()
        if name in ("page_size", "dereference_schemas", "apps"):
            self.list_cache.clear()
        if name == "apps":  # the tools of clients that render apps gain or lose their app links
            self.clients_tracker.list_changed("tool")

    def _registry_changed(self, change: RegistryChange) -> None:
        self.list_cache.clear()
        self.clients_tracker.list_changed(change.component)
        if change.component == "resource" and change.kind == "replaced":
            # A re-run cell may read differently now: tell whoever subscribed to what it serves.
            for key in change.keys:
                self.notify_resource_updated(key)


_SSE_RETRY_MS = 1000
"""Reconnection delay suggested to clients whose SSE stream was closed (SSE ``retry:`` field)."""
