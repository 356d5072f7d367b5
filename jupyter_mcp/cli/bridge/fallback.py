"""What the bridge answers itself while no kernel serves its target.

A client that starts before the notebook (Claude Desktop at login) still gets a complete
handshake and an empty tool list; a tool call gets a tool error that says what is wrong.
The shapes match what the in-kernel server answers (tests compare them).
"""

from __future__ import annotations

from typing import Any

from mcp_types import SERVER_INFO_META_KEY
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.capabilities import CACHEABLE, SERVER_INFO
from jupyter_mcp.capabilities import CAPABILITIES as _CAPABILITIES
from jupyter_mcp.capabilities import MODERN_CAPABILITIES as _MODERN_CAPABILITIES
from jupyter_mcp.cli.bridge import messages
from jupyter_mcp.cli.bridge.messages import Message, RequestId

_EMPTY_LISTS = {
    "tools/list": "tools",
    "prompts/list": "prompts",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
}
INTERNAL_ERROR = -32603


def answer(request: Message, reason: str) -> Message:
    """The reply to ``request`` while nothing serves the target (``reason`` says why)."""
    method = request.get("method", "")
    value = _result(method, request.get("params") or {}, reason, messages.modern_version(request) is not None)
    if value is None:
        return messages.error(request.get("id"), INTERNAL_ERROR, f"jupyter-mcp: cannot answer {method}: {reason}")
    return _reply(request, value)


def _reply(request: Message, value: dict[str, Any]) -> Message:
    """``value`` as the result for ``request``, with the fields a 2026-era result carries."""
    if messages.modern_version(request) is not None:
        value = {**value, "resultType": "complete", "_meta": {SERVER_INFO_META_KEY: SERVER_INFO}}
    request_id: RequestId = request.get("id")  # type: ignore[assignment]
    return messages.result(request_id, value)


def _result(method: str, params: dict[str, Any], reason: str, modern: bool) -> dict[str, Any] | None:
    if method == "initialize":
        return _initialize(params)
    if method == "server/discover":
        return {
            **_cacheable(),
            "capabilities": _MODERN_CAPABILITIES,
            "supportedVersions": list(MODERN_PROTOCOL_VERSIONS),
        }
    if method in _EMPTY_LISTS:
        return {_EMPTY_LISTS[method]: [], **(_cacheable() if modern else {})}
    if method == "tools/call":
        return tool_error(f"cannot call tool {params.get('name')!r}: {reason}")
    if method == "completion/complete":
        return {"completion": {"values": []}}
    if method in ("ping", "logging/setLevel"):
        return {}
    return None


def _initialize(params: dict[str, Any]) -> dict[str, Any]:
    requested = params.get("protocolVersion")
    version = requested if requested in HANDSHAKE_PROTOCOL_VERSIONS else LATEST_HANDSHAKE_VERSION
    return {"protocolVersion": version, "capabilities": _CAPABILITIES, "serverInfo": SERVER_INFO}


def _cacheable() -> dict[str, Any]:
    return dict(CACHEABLE)


def tool_error(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": f"jupyter-mcp: {text}"}], "isError": True}


def lost_answer(request: Message, reason: str) -> Message:
    """The reply to a request whose server went away before answering it."""
    method = request.get("method", "")
    if method == "tools/call":
        name = (request.get("params") or {}).get("name")
        text = f"the server stopped while tool {name!r} was running, so its outcome is unknown: {reason}"
        return _reply(request, tool_error(text))
    text = f"jupyter-mcp: the server went away during {method}: {reason}"
    return messages.error(request.get("id"), INTERNAL_ERROR, text)


def listen_ack(request: Message) -> Message:
    """Acknowledge a ``subscriptions/listen`` the bridge holds until a server is back."""
    wanted = (request.get("params") or {}).get("notifications") or {}
    honored = {key: value for key, value in wanted.items() if value}
    meta = {messages.SUBSCRIPTION_ID_META_KEY: request.get("id")}
    return messages.notification(messages.LISTEN_ACK, {"notifications": honored, "_meta": meta})


def tools_changed(subscription_id: RequestId | None = None) -> Message:
    """``notifications/tools/list_changed``: plain (2025 era) or stamped for a listen stream (2026)."""
    if subscription_id is None:
        return messages.notification(messages.TOOLS_LIST_CHANGED)
    return messages.notification(
        messages.TOOLS_LIST_CHANGED, {"_meta": {messages.SUBSCRIPTION_ID_META_KEY: subscription_id}}
    )
