"""2026-07-28 requests to the union: stateless POSTs, each checked and answered on its own.

The checks are the SDK's own (``mcp.shared.inbound``: the envelope in ``_meta``, the routing
headers mirroring the body, the protocol version), run before anything is routed, so the union
refuses what a kernel would refuse, with the same codes and HTTP statuses.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mcp.shared.inbound import (
    InboundLadderRejection,
    classify_inbound_request,
    find_duplicated_routing_header,
    unsupported_protocol_version_rejection,
)
from mcp_types import CLIENT_INFO_META_KEY, HEADER_MISMATCH, SERVER_INFO_META_KEY
from mcp_types.methods import validate_client_request
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.capabilities import CACHEABLE, MODERN_CAPABILITIES, SERVER_INFO
from jupyter_mcp.serverext.union.live import upstream
from jupyter_mcp.serverext.union.live.catalog import LISTS
from jupyter_mcp.serverext.union.live.listeners import Listener
from jupyter_mcp.serverext.union.live.members import Member
from jupyter_mcp.serverext.union.live.watch import LISTEN_HEADERS
from jupyter_mcp.serverext.union.routing.forward import Job, forward
from jupyter_mcp.serverext.union.routing.replies import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    Reply,
    accepted,
    encode,
    error,
    result,
)
from jupyter_mcp.serverext.union.routing.rewrite import uri_in
from jupyter_mcp.serverext.union.routing.router import (
    INSTRUCTIONS,
    ROUTED,
    Incoming,
    Routed,
    Shared,
    Viewer,
    params_of,
    parse,
    refused,
    unreadable,
)
from jupyter_mcp.tools.protocol.checks import MessageError

if TYPE_CHECKING:
    from jupyter_mcp.serverext.union.live.union import Union

LOCAL = frozenset({"server/discover", "subscriptions/listen", *LISTS})
FORWARDED = ROUTED - {"resources/subscribe", "resources/unsubscribe"}
"""2026-era methods sent to a notebook (resource subscriptions ride listen streams at this revision)."""


class Modern:
    """Answers 2026-era POSTs."""

    def __init__(self, union: Union) -> None:
        self.union = union
        self.shared = Shared(union)

    async def post(self, incoming: Incoming) -> Reply:
        refusal = unreadable(incoming)
        if refusal is not None:
            return refusal
        try:
            body = parse(incoming.body)
        except MessageError as problem:
            return refused(problem)
        if isinstance(body, dict) and "id" not in body:
            return _notification(body, incoming)
        if not isinstance(body, dict) or not isinstance(body.get("method"), str):
            return error(None, INVALID_REQUEST, "Body must be a single JSON-RPC request or notification object")
        checked = _checked(body, incoming)
        if isinstance(checked, Reply):
            return checked
        return await self._answer(body, incoming)

    async def _answer(self, body: dict[str, Any], incoming: Incoming) -> Reply:
        request_id, method = body["id"], body["method"]
        params = params_of(body)
        meta = params.get("_meta") or {}
        version = str(meta.get("io.modelcontextprotocol/protocolVersion"))
        capabilities = json.dumps(meta.get("io.modelcontextprotocol/clientCapabilities") or {}, sort_keys=True)
        self._seen(meta, version, incoming)
        viewer = Viewer(incoming.scope, version, capabilities)
        if method in LOCAL:
            try:
                validate_client_request(method, version, params)
            except (ValidationError, KeyError, ValueError) as exc:
                return error(request_id, INVALID_PARAMS, f"Invalid params for {method}: {exc}")
        if method in LISTS:
            return await self.shared.list_reply(request_id, viewer, method)
        if method == "server/discover":
            return result(request_id, _discovered())
        if method == "subscriptions/listen":
            return await self._listen(request_id, params, incoming)
        if method in FORWARDED:
            routed = await self.shared.route(request_id, method, params, viewer)
            if isinstance(routed, Reply):
                return routed
            return await self._forward(body, routed, incoming)
        return error(request_id, METHOD_NOT_FOUND, "Method not found", method)

    def _seen(self, meta: dict[str, Any], version: str, incoming: Incoming) -> None:
        info = meta.get(CLIENT_INFO_META_KEY)
        if isinstance(info, dict) and isinstance(info.get("name"), str):
            self.union.seen(incoming.named(info["name"]), str(info.get("version", "")), version, "requests")

    async def _forward(self, body: dict[str, Any], routed: Routed, incoming: Incoming) -> Reply:
        message = {**body, "params": routed.params}
        headers = [*incoming.passed_on(), *incoming.vouched(), *routed.name_header(incoming.header("mcp-name"))]
        headers.append(("Mcp-Protocol-Version", incoming.header("mcp-protocol-version") or ""))
        job = Job(routed.member, body["id"], body["method"], routed.name, modern=True)
        return await forward(self.union, job, encode(message), headers)

    async def _listen(self, request_id: Any, params: dict[str, Any], incoming: Incoming) -> Reply:
        listener = self.union.listeners.open(
            request_id, incoming.scope, params_of({"params": params.get("notifications")})
        )
        meta = params.get("_meta") or {}
        for member, uris in (await self._owners(listener, incoming)).values():
            listener.upstream.append(self.union.spawn(_relay_updates(self.union, listener, member, uris, meta)))
        return Reply(200, events=self.union.listeners.frames(listener))

    async def _owners(self, listener: Listener, incoming: Incoming) -> dict[str, tuple[Member, dict[str, str]]]:
        """The members owning the URIs a listen subscribed to (by key), each with its URI -> the union's."""
        owners: dict[str, tuple[Member, dict[str, str]]] = {}
        for uri in listener.uris:
            member = await self.union.owner_of_uri(uri, incoming.scope)
            original = uri_in(member, uri) if member is not None else None
            if member is not None and original is not None:
                owners.setdefault(member.key, (member, {}))[1][original] = uri
        return owners


async def _relay_updates(
    union: Union, listener: Listener, member: Member, uris: dict[str, str], meta: dict[str, Any]
) -> None:
    """A listen with the member's kernel for ``uris``; its ``resources/updated`` go to ``listener``."""
    params = {"notifications": {"resourceSubscriptions": sorted(uris)}, "_meta": meta}
    body = encode({"jsonrpc": "2.0", "id": "union-resources", "method": "subscriptions/listen", "params": params})
    try:
        async for data in upstream.messages(await upstream.post(member.carrier, member.info, body, LISTEN_HEADERS)):
            message = json.loads(data)
            uri = (message.get("params") or {}).get("uri") if isinstance(message, dict) else None
            if message.get("method") == "notifications/resources/updated" and uri in uris:
                listener.send("notifications/resources/updated", {"uri": uris[uri]})
    except (HttpError, ValueError, AttributeError):
        return  # the kernel stopped: the union's list change tells the client


def _checked(body: dict[str, Any], incoming: Incoming) -> Reply | None:
    """The SDK's ladder: routing headers not repeated and mirroring the body, the envelope, the version."""
    duplicated = find_duplicated_routing_header(incoming.headers)
    if duplicated is not None:
        return _rejected(InboundLadderRejection(HEADER_MISMATCH, f"{duplicated} header appears more than once"), body)
    verdict = classify_inbound_request(body, headers=dict(incoming.headers))
    if isinstance(verdict, InboundLadderRejection):
        return _rejected(verdict, body)
    return None


def _rejected(rejection: InboundLadderRejection, body: dict[str, Any]) -> Reply:
    return error(body.get("id"), rejection.code, rejection.message, rejection.data)


def _notification(body: dict[str, Any], incoming: Incoming) -> Reply:
    """Acknowledged and dropped, as the SDK does at this revision (cancelling is closing the stream)."""
    if not isinstance(body.get("method"), str):
        return error(None, INVALID_REQUEST, "Body must be a single JSON-RPC request or notification object")
    rejection = unsupported_protocol_version_rejection(incoming.header("mcp-protocol-version") or "")
    return _rejected(rejection, body) if rejection is not None else accepted()


def _discovered() -> dict[str, Any]:
    return {
        **CACHEABLE,
        "capabilities": MODERN_CAPABILITIES,
        "supportedVersions": list(MODERN_PROTOCOL_VERSIONS),
        "instructions": INSTRUCTIONS,
        "resultType": "complete",
        "_meta": {SERVER_INFO_META_KEY: SERVER_INFO},
    }
