"""The union as an MCP server: answer the lists itself, send everything else to the notebook it names.

Why a router at the JSON-RPC level rather than an SDK ``Server`` fed by clients of each kernel:
the kernels already are complete MCP servers, in both eras. Relaying their messages (with names
rewritten) passes on everything they do — progress, logs, cancellation, input rounds and their
``requestState``, sampling and elicitation in 2025-era sessions, tasks, approvals, result links,
completions — exactly as they do it, where a server rebuilt on the SDK would have to re-implement
each of those and would parse (and re-validate) every result on the way. The union itself answers
only what spans notebooks: the handshake (``initialize``, ``server/discover``), the lists (merged
from each kernel's, see ``catalog``), ``subscriptions/listen``, ``ping`` and ``logging/setLevel``.

``Router.post`` picks the era as the SDK's session manager does (an ``Mcp-Protocol-Version``
header naming a version outside the handshake era is a 2026-era request) and hands over to
``modern`` or ``legacy``; the pieces both eras share are here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp.shared.inbound import MCP_NAME_HEADER, decode_header_value, encode_header_value
from mcp_types import SERVER_INFO_META_KEY
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.capabilities import CACHEABLE, SERVER_INFO
from jupyter_mcp.serverext.union.live.catalog import LISTS, View
from jupyter_mcp.serverext.union.live.members import Member
from jupyter_mcp.serverext.union.live.scope import Scope
from jupyter_mcp.serverext.union.routing.replies import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    RESOURCE_NOT_FOUND_2025,
    Reply,
    encode,
    encoded_result,
    error,
    result,
    tool_error,
)
from jupyter_mcp.serverext.union.routing.rewrite import task_in, uri_in
from jupyter_mcp.shapes import signedin
from jupyter_mcp.tools.protocol.checks import MessageError
from jupyter_mcp.tools.protocol.parsing import BodyLimits, parse_message
from jupyter_mcp.tools.settings import ServerSettings

if TYPE_CHECKING:
    from jupyter_mcp.serverext.union.live.union import Union

INSTRUCTIONS = (
    "The tools, resources and prompts of every notebook in this Jupyter server that serves them. Each name "
    "starts with its notebook's: the tool 'forecast' of sales.ipynb is 'sales_forecast', its resource "
    "'data://table' is 'data://sales/table'; descriptions say which notebook a component comes from."
)
ROUTED = frozenset(
    {
        "tools/call",
        "prompts/get",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "completion/complete",
        "tasks/get",
        "tasks/update",
        "tasks/cancel",
    }
)
"""Methods that concern one notebook: sent to it."""
_NOT_UPSTREAM = frozenset(
    {"host", "authorization", "cookie", "origin", "referer", "x-xsrftoken", "x-xsrf-token", "content-length"}
    | {"content-type", "accept", "connection", "keep-alive", "te", "transfer-encoding", "upgrade"}
    | {"mcp-session-id", "mcp-protocol-version", "mcp-name", "last-event-id", "accept-encoding"}
    | {signedin.HEADER}  # only the Jupyter server vouches for a signed-in client
)


@dataclass
class Incoming:
    """An HTTP request to the union, as the handler read it."""

    headers: list[tuple[str, str]]
    """Every header line, names in lower case (duplicates kept: the routing headers must not repeat)."""
    body: bytes = b""
    scope: Scope = field(default_factory=Scope)
    user: str = ""
    signed_in: signedin.SignedIn | None = None
    """A client signed in with Jupyter: named by its grant (and held to read-only tools if so) in every kernel."""

    def named(self, said: str) -> str:
        """The client's name: its grant's when it signed in, else what it ``said``."""
        return self.signed_in["client"] if self.signed_in is not None else said

    def vouched(self) -> list[tuple[str, str]]:
        """The header that tells kernels who a signed-in client is (none for others)."""
        return [] if self.signed_in is None else [(signedin.HEADER, signedin.encode(self.signed_in))]

    def header(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key == name), None)

    @property
    def accepts(self) -> tuple[bool, bool]:
        """Whether the client accepts JSON, and SSE (wildcards count, as in the SDK)."""
        kinds = {part.split(";")[0].strip().lower() for part in (self.header("accept") or "").split(",")}
        anything = "*/*" in kinds
        return anything or bool(kinds & {"application/json", "application/*"}), anything or bool(
            kinds & {"text/event-stream", "text/*"}
        )

    def passed_on(self) -> list[tuple[str, str]]:
        """The client's headers a kernel gets (``Mcp-Param-*``, tracing…), never Jupyter's credentials."""
        return [(key, value) for key, value in self.headers if key not in _NOT_UPSTREAM]


@dataclass(frozen=True)
class Viewer:
    """Who asks: the notebooks they may see, their protocol version and capabilities (as JSON)."""

    scope: Scope
    version: str
    capabilities: str

    @property
    def modern(self) -> bool:
        return self.version in MODERN_PROTOCOL_VERSIONS


@dataclass
class Routed:
    """Where a request goes: the member, its params in the kernel's names, and the name it was called by."""

    member: Member
    params: dict[str, Any]
    name: str
    rename: dict[str, str]
    """The union's name -> the kernel's, for the ``Mcp-Name`` header."""

    def name_header(self, value: str | None) -> list[tuple[str, str]]:
        """``Mcp-Name`` in the kernel's names (a header that disagrees with the body stays as sent: the kernel
        then refuses the request as it would have)."""
        if value is None:
            return []
        decoded = decode_header_value(value)
        renamed = self.rename.get(decoded) if decoded is not None else None
        return [(MCP_NAME_HEADER, encode_header_value(renamed) if renamed is not None else value)]


_DEFAULTS = ServerSettings()
LIMITS = BodyLimits(_DEFAULTS.max_body_bytes or 4 * 1024 * 1024, _DEFAULTS.max_json_depth)
"""The kernels' default body limits: the union refuses what a kernel would (``tools.protocol.parsing``)."""


def parse(body: bytes) -> Any:
    """The decoded body, parsed as a kernel parses it; ``MessageError`` (with its JSON-RPC code) if refused."""
    return parse_message(body, LIMITS)


def refused(problem: MessageError) -> Reply:
    """A body refused before it was understood: 413 when it is too large, else 400 (as a kernel answers)."""
    status = 413 if problem.code == INVALID_REQUEST and "max_body_bytes" in problem.message else 400
    return error(None, problem.code, problem.message, status=status)


def unreadable(incoming: Incoming) -> Reply | None:
    """A POST the union cannot answer whatever its body says, refused as a kernel refuses it: a body that
    is not JSON (415), an answer the client does not accept (406), each with a JSON-RPC error."""
    kind = incoming.header("content-type") or ""
    if kind.split(";")[0].strip().lower() != "application/json":
        said = f"Invalid request: the Content-Type must be application/json, got {_shown(kind)}"
        return error(None, INVALID_REQUEST, said, status=415)
    if not all(incoming.accepts):
        shown = _shown(incoming.header("accept") or "")
        said = f"Not acceptable: the Accept header must list application/json and text/event-stream, got {shown}"
        return error(None, INVALID_REQUEST, said, status=406)
    return None


def serving_text(members: list[Member], scope: Scope, kind: str) -> str:
    """Which notebooks a client of ``scope`` reaches (for an unknown name), or that none serves ``kind``."""
    if members:
        return f"Notebooks serving {kind}: " + ", ".join(f"{m.label} ({m.prefix}_…)" for m in members)
    where = "" if scope.everything else f" in this client's scope ({scope.describe()})"
    return f"No notebook{where} is serving {kind}."


def _shown(value: str) -> str:
    return repr(value if len(value) <= _SHOWN else value[:_SHOWN] + "…")


_SHOWN = 80
"""How much of a header a refusal repeats."""


def params_of(message: dict[str, Any]) -> dict[str, Any]:
    params = message.get("params")
    return params if isinstance(params, dict) else {}


def is_modern(incoming: Incoming) -> bool:
    version = incoming.header("mcp-protocol-version")
    return version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS


class Shared:
    """What both eras answer the same way: lists from the catalog, requests routed by the names they carry."""

    def __init__(self, union: Union) -> None:
        self.union = union

    async def view(self, viewer: Viewer, method: str) -> View:
        members = await self.union.members(viewer.scope)
        return await self.union.catalog.view(members, method, viewer.version, viewer.capabilities)

    async def list_reply(self, request_id: Any, viewer: Viewer, method: str) -> Reply:
        view = await self.view(viewer, method)
        cached = view.encoded.get(viewer.version)
        if cached is None:
            value: dict[str, Any] = {LISTS[method][0]: view.items}
            if viewer.modern:
                value = {**value, **CACHEABLE, "resultType": "complete", "_meta": {SERVER_INFO_META_KEY: SERVER_INFO}}
            cached = view.encoded[viewer.version] = encode(value)
        return encoded_result(request_id, cached)

    async def route(self, request_id: Any, method: str, params: dict[str, Any], viewer: Viewer) -> Routed | Reply:
        """The member a request concerns, or the reply when it concerns none (as the kernel would answer)."""
        if method in ("tools/call", "prompts/get"):
            return await self._by_name(request_id, method, params, viewer)
        if method.startswith("resources/"):
            return await self._by_uri(request_id, params, viewer)
        if method == "completion/complete":
            return await self._completion(request_id, params, viewer)
        return await self._by_task(request_id, params, viewer.scope)

    async def _by_name(self, request_id: Any, method: str, params: dict[str, Any], viewer: Viewer) -> Routed | Reply:
        name = params.get("name")
        if not isinstance(name, str):
            return error(request_id, INVALID_PARAMS, f"{method} needs params.name, a string")
        kind = "tools/list" if method == "tools/call" else "prompts/list"
        found = (await self.view(viewer, kind)).routes.get(name)
        if found is None and await self.union.looked_again():  # a notebook that just started, maybe
            found = (await self.view(viewer, kind)).routes.get(name)
        if found is None and await self.union.listed_again(name, viewer.scope, LISTS[kind][1]):
            found = (await self.view(viewer, kind)).routes.get(name)  # one it added a moment ago, maybe
        if found is None:
            return await self._unknown(request_id, method, name, viewer)
        member, original = found
        return Routed(member, {**params, "name": original}, name, {name: original})

    async def _unknown(self, request_id: Any, method: str, name: str, viewer: Viewer) -> Reply:
        members = await self.union.members(viewer.scope)
        if method == "prompts/get":
            said = f"Unknown prompt: {name!r}. {serving_text(members, viewer.scope, 'prompts')}"
            return error(request_id, INVALID_PARAMS, said)
        value = tool_error(f"Unknown tool: {name!r}. {serving_text(members, viewer.scope, 'tools')}")
        if viewer.modern:
            value = {**value, "resultType": "complete"}
        return result(request_id, value)

    async def _by_uri(self, request_id: Any, params: dict[str, Any], viewer: Viewer) -> Routed | Reply:
        uri = params.get("uri")
        if not isinstance(uri, str):
            return error(request_id, INVALID_PARAMS, "params.uri must be a string")
        member = await self.union.owner_of_uri(uri, viewer.scope)
        original = uri_in(member, uri) if member is not None else None
        if member is None or original is None:
            code = INVALID_PARAMS if viewer.modern else RESOURCE_NOT_FOUND_2025
            text = f"Resource not found: {uri!r}. A resource here is <scheme>://<notebook prefix>/<path>"
            return error(request_id, code, text, {"uri": uri})
        return Routed(member, {**params, "uri": original}, uri, {uri: original})

    async def _completion(self, request_id: Any, params: dict[str, Any], viewer: Viewer) -> Routed | Reply:
        ref = params.get("ref")
        if not isinstance(ref, dict):
            return error(request_id, INVALID_PARAMS, "completion/complete needs params.ref")
        if ref.get("type") == "ref/prompt":
            found = await self._by_name(request_id, "prompts/get", ref, viewer)
            key = "name"
        else:
            found = await self._by_uri(request_id, ref, viewer)
            key = "uri"
        if isinstance(found, Reply):
            return error(request_id, INVALID_PARAMS, f"Unknown completion reference: {ref.get(key)!r}")
        return Routed(found.member, {**params, "ref": found.params}, found.name, {})

    async def _by_task(self, request_id: Any, params: dict[str, Any], scope: Scope) -> Routed | Reply:
        task = params.get("taskId")
        if not isinstance(task, str):
            return error(request_id, INVALID_PARAMS, "params.taskId must be a string")
        member = await self.union.owner_of_task(task, scope)
        original = task_in(member, task) if member is not None else None
        if member is None or original is None:
            return error(request_id, INVALID_PARAMS, f"Unknown task {task!r}: it never existed or expired")
        return Routed(member, {**params, "taskId": original}, task, {task: original})
