"""mcp's low-level ``Server`` for a ``ToolServer``, and the request handlers it registers.

Built on the low-level ``Server`` rather than ``MCPServer``: MCPServer brings its own tool manager,
schemas and result conversion (what this package replaces with FastMCP semantics), and does not
broadcast ``list_changed`` on registry changes; the low-level server lets the registries own the
components and this module own the protocol surface.

Lists are paginated by the server's ``page_size``; tool calls (through ``CallFlow``: multi-round
input and tasks), resource reads and prompt gets go through the call path (so each is recorded);
their failures become the spec's JSON-RPC errors:
an unknown resource is -32002 with ``data.uri`` for 2025-era clients and -32602 from 2026-07-28
(SEP-2164), bad arguments and unknown prompts -32602, a failing function -32603 with its message.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import mcp_types as mt
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import ListenHandler
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.tools.apps.surface import AppSurface
from jupyter_mcp.tools.calls.path import CallPath, Origin
from jupyter_mcp.tools.calls.rounds import InputRounds, state_boundary
from jupyter_mcp.tools.calls.tasks import TASKS_EXTENSION, TaskParams, TaskStore, TaskUpdateParams
from jupyter_mcp.tools.components.completions import complete
from jupyter_mcp.tools.components.prompts import PromptRegistry
from jupyter_mcp.tools.components.registry import ToolRegistry
from jupyter_mcp.tools.components.resources import Resource, ResourceRegistry, ResourceTemplate
from jupyter_mcp.tools.errors import (
    ResourceNotFoundError,
    ToolArgumentsError,
    ToolError,
    UnknownPromptError,
)
from jupyter_mcp.tools.peers import LOG_LEVEL_STATE_KEY, peer_of, serving_peer
from jupyter_mcp.tools.protocol.checks import explain_invalid_params
from jupyter_mcp.tools.protocol.flow import CallFlow, ToolCallAnswer
from jupyter_mcp.tools.protocol.listcache import ListCache
from jupyter_mcp.tools.protocol.sessions import ClientTracker, ThreadSafeBus, client_info_of, subscriptions_of
from jupyter_mcp.tools.settings import ServerSettings

Ctx = ServerRequestContext[Any, Any]
T = TypeVar("T")

RESOURCE_NOT_FOUND_2025 = -32002
"""The 2025-era code for an unknown resource; 2026-07-28 (SEP-2164) uses -32602 (invalid params)."""


class Served(Protocol):
    """What the protocol surface answers from (a ``ToolServer`` is one): registries, call path, lists."""

    registry: ToolRegistry
    resource_registry: ResourceRegistry
    prompt_registry: PromptRegistry
    calls: CallPath
    flow: CallFlow
    tasks: TaskStore
    rounds: InputRounds
    settings: ServerSettings
    bus: ThreadSafeBus
    clients_tracker: ClientTracker
    list_cache: ListCache
    app_surface: AppSurface
    lifespan_state: dict[str, Any]


class _LowLevelServer(Server[Any]):
    """Advertises ``listChanged: true`` for tools, resources and prompts in the 2025-era handshake,
    and the tasks extension in the 2026 era.

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

    async def run(
        self,
        read_stream: Any,
        write_stream: Any,
        initialization_options: InitializationOptions,
        raise_exceptions: bool = False,
    ) -> None:
        """Serve one loop connection (stdio, in memory) with its ``Peer`` (``peers.serving_peer``)."""
        async with serving_peer(read_stream) as relayed:
            await super().run(relayed, write_stream, initialization_options, raise_exceptions)

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        options = notification_options or NotificationOptions(
            tools_changed=True, resources_changed=True, prompts_changed=True
        )
        return super().create_initialization_options(options, experimental_capabilities, extensions)


@contextlib.asynccontextmanager
async def _yielding(state: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
    """The lowlevel server's lifespan: the server's one state (what the HTTP app's 2026-era entry passes too)."""
    yield state


def build_lowlevel(server: Served, name: str, version: str, instructions: str | None) -> Server[Any]:
    """mcp's low-level ``Server`` answering every method from ``server``'s registries and call path."""
    handlers = Handlers(server)
    lowlevel = _LowLevelServer(
        name,
        version=version,
        instructions=instructions,
        lifespan=lambda _: _yielding(server.lifespan_state),
        on_list_tools=handlers.list_tools,
        on_list_resources=handlers.list_resources,
        on_list_resource_templates=handlers.list_templates,
        on_read_resource=handlers.read_resource,
        on_subscribe_resource=handlers.subscribe,
        on_unsubscribe_resource=handlers.unsubscribe,
        on_list_prompts=handlers.list_prompts,
        on_get_prompt=handlers.get_prompt,
        on_completion=handlers.complete,
        on_subscriptions_listen=ListenHandler(server.bus),
        get_tool_input_schema=handlers.input_schema,
    )
    lowlevel.add_request_handler("logging/setLevel", mt.SetLevelRequestParams, handlers.set_level)
    # Registered here rather than as on_call_tool=: a call may also answer with a CreateTaskResult or
    # an InputRequiredResult (see callflow.py).
    lowlevel.add_request_handler("tools/call", mt.CallToolRequestParams, handlers.call_tool)
    lowlevel.add_request_handler("tasks/get", TaskParams, server.tasks.get)
    lowlevel.add_request_handler("tasks/update", TaskUpdateParams, server.tasks.update)
    lowlevel.add_request_handler("tasks/cancel", TaskParams, server.tasks.cancel)
    # The default OpenTelemetry middleware costs ~5% per call with no exporter; tracking replaces it.
    boundary = state_boundary(name, server.settings.input_timeout)
    lowlevel.middleware = [server.clients_tracker, explain_invalid_params, server.list_cache, boundary]
    return lowlevel


class Handlers:
    """Bound to one served server: its registries, call path, page size and client tracker."""

    def __init__(self, server: Served) -> None:
        self.server = server

    # ---- tools -----------------------------------------------------------------------------------

    async def list_tools(self, ctx: Ctx, params: mt.PaginatedRequestParams | None) -> mt.ListToolsResult:
        tools = self.server.registry.visible()
        deref = self.server.settings.dereference_schemas
        entries = self.server.app_surface.listed(ctx, tools, [t.to_mcp(dereference_schemas=deref) for t in tools])
        page, cursor = self._page(entries, params)
        return mt.ListToolsResult(tools=list(page), next_cursor=cursor)

    async def call_tool(self, ctx: Ctx, params: mt.CallToolRequestParams) -> ToolCallAnswer | mt.CallToolResult:
        return await self.server.app_surface.call(ctx, params, lambda: self.server.flow(ctx, params))

    def input_schema(self, name: str) -> Mapping[str, Any] | None:
        tool = self.server.registry.get(name)
        return tool.to_mcp(dereference_schemas=self.server.settings.dereference_schemas).input_schema if tool else None

    # ---- resources -------------------------------------------------------------------------------

    async def list_resources(self, ctx: Ctx, params: mt.PaginatedRequestParams | None) -> mt.ListResourcesResult:
        found = [r for r in self.server.resource_registry.visible() if isinstance(r, Resource)]
        page, cursor = self._page(found, params)
        return mt.ListResourcesResult(resources=[r.to_mcp() for r in page], next_cursor=cursor)

    async def list_templates(
        self, ctx: Ctx, params: mt.PaginatedRequestParams | None
    ) -> mt.ListResourceTemplatesResult:
        found = [r for r in self.server.resource_registry.visible() if isinstance(r, ResourceTemplate)]
        page, cursor = self._page(found, params)
        return mt.ListResourceTemplatesResult(resource_templates=[r.to_mcp() for r in page], next_cursor=cursor)

    async def read_resource(self, ctx: Ctx, params: mt.ReadResourceRequestParams) -> mt.ReadResourceResult:
        try:
            app = self.server.app_surface.read(ctx, params.uri, self.server.settings.dereference_schemas)
            if app is not None:  # an app's document is not a read of the notebook's: nothing is recorded
                return app
            return await self.server.calls.read_resource(params.uri, Origin(ctx, client_info_of(ctx)))
        except ToolError as exc:
            raise protocol_error(exc, ctx.protocol_version) from None

    async def subscribe(self, ctx: Ctx, params: mt.SubscribeRequestParams) -> mt.EmptyResult:
        peer = peer_of(ctx)
        if peer is not None:
            subscriptions_of(peer).add(params.uri)
        return mt.EmptyResult()

    async def unsubscribe(self, ctx: Ctx, params: mt.UnsubscribeRequestParams) -> mt.EmptyResult:
        peer = peer_of(ctx)
        if peer is not None:
            subscriptions_of(peer).discard(params.uri)
        return mt.EmptyResult()

    # ---- prompts and completions -----------------------------------------------------------------

    async def list_prompts(self, ctx: Ctx, params: mt.PaginatedRequestParams | None) -> mt.ListPromptsResult:
        page, cursor = self._page(self.server.prompt_registry.visible(), params)
        return mt.ListPromptsResult(prompts=[p.to_mcp() for p in page], next_cursor=cursor)

    async def get_prompt(
        self, ctx: Ctx, params: mt.GetPromptRequestParams
    ) -> mt.GetPromptResult | mt.InputRequiredResult:
        try:
            return await self.server.flow.get_prompt(ctx, params)
        except ToolError as exc:
            raise protocol_error(exc, ctx.protocol_version) from None

    async def complete(self, ctx: Ctx, params: mt.CompleteRequestParams) -> mt.CompleteResult:
        ref = params.ref
        if isinstance(ref, mt.PromptReference):
            prompt = self.server.prompt_registry.get(ref.name)
            if prompt is None:
                raise MCPError(code=mt.INVALID_PARAMS, message=f"Unknown prompt: {ref.name!r}")
            completers, label = prompt.completers, f"prompt {ref.name!r}"
        else:
            template = self.server.resource_registry.get(ref.uri)
            if template is None:
                raise MCPError(code=mt.INVALID_PARAMS, message=f"Unknown resource template: {ref.uri!r}")
            completers = template.completers if isinstance(template, ResourceTemplate) else {}
            label = f"resource template {ref.uri!r}"
        context = params.context.arguments if params.context is not None else None
        try:
            completion = await complete(completers, params.argument.name, params.argument.value, context or {}, label)
        except ToolError as exc:
            raise MCPError(code=mt.INTERNAL_ERROR, message=str(exc)) from None
        return mt.CompleteResult(completion=completion)

    # ---- logging ---------------------------------------------------------------------------------

    async def set_level(self, ctx: Ctx, params: mt.SetLevelRequestParams) -> mt.EmptyResult:
        peer = peer_of(ctx)
        if peer is not None:
            peer.state[LOG_LEVEL_STATE_KEY] = params.level
        return mt.EmptyResult()

    # ---- pagination ------------------------------------------------------------------------------

    def _page(self, items: Sequence[T], params: mt.PaginatedRequestParams | None) -> tuple[Sequence[T], str | None]:
        start = _decode_cursor(params.cursor if params is not None else None)
        size = self.server.settings.page_size
        end = len(items) if size is None else start + size
        return items[start:end], _encode_cursor(end) if end < len(items) else None


def protocol_error(exc: ToolError, protocol_version: str) -> MCPError:
    """The JSON-RPC error a failed read or prompt get answers with."""
    if isinstance(exc, ResourceNotFoundError):
        code = mt.INVALID_PARAMS if protocol_version in MODERN_PROTOCOL_VERSIONS else RESOURCE_NOT_FOUND_2025
        return MCPError(code=code, message=str(exc), data={"uri": exc.uri})
    if isinstance(exc, ToolArgumentsError | UnknownPromptError):
        return MCPError(code=mt.INVALID_PARAMS, message=str(exc))
    return MCPError(code=mt.INTERNAL_ERROR, message=str(exc))


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
