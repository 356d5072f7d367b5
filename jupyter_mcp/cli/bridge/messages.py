"""JSON-RPC messages as the bridge sees them: raw dicts, classified without a full parse.

The bridge relays bytes; it decodes a line only to learn its kind, id, method and protocol
era, and to derive the HTTP headers the streamable HTTP transport wants for it.
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired, TypedDict

from mcp.shared.inbound import (
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
    encode_header_value,
    find_invalid_x_mcp_header,
    mcp_param_headers,
    x_mcp_header_map,
)
from mcp_types import INVALID_REQUEST, PROTOCOL_VERSION_META_KEY

from jupyter_mcp.tools.protocol.checks import MessageError, check_message

RequestId = str | int
Kind = Literal["request", "notification", "response", "invalid"]

SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId"
TOOLS_LIST_CHANGED = "notifications/tools/list_changed"
LISTEN = "subscriptions/listen"
LISTEN_ACK = "notifications/subscriptions/acknowledged"
CANCELLED = "notifications/cancelled"
INITIALIZED = "notifications/initialized"


class ErrorObject(TypedDict):
    code: int
    message: str
    data: NotRequired[Any]


class Message(TypedDict, total=False):
    """Any JSON-RPC 2.0 message (request, notification, result or error)."""

    jsonrpc: str
    id: RequestId | None
    method: str
    params: dict[str, Any]
    result: dict[str, Any]
    error: ErrorObject


def decode(line: bytes) -> Message | None:
    """The message on one line, or ``None`` when it is not a JSON object."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None  # type: ignore[return-value]


def encode(message: Message) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


def one_line(data: bytes) -> bytes:
    """``data`` as a single line (pretty-printed JSON is re-encoded compactly)."""
    if b"\n" not in data and b"\r" not in data:
        return data
    decoded = decode(data)
    return encode(decoded) if decoded is not None else data.replace(b"\r", b"").replace(b"\n", b" ")


def refusal(message: Message) -> Message | None:
    """The error answering a malformed message (the server's own checks, so both say the same), else ``None``.

    A 2026-era message's method and protocol version travel as HTTP headers too, so they must be
    printable ASCII."""
    try:
        check_message(message)
    except MessageError as refused:
        return error(refused.request_id, refused.code, f"jupyter-mcp: {refused.message}")
    version = modern_version(message)
    if version is None:
        return None
    for what, value in (("protocol version", version), ("method", message.get("method", ""))):
        if not (value.isascii() and value.isprintable()):
            said = (
                f"jupyter-mcp: Invalid request: the {what} {value[:40]!r} must be printable ASCII (it goes in a header)"
            )
            return error(message.get("id"), INVALID_REQUEST, said)
    return None


def kind_of(message: Message) -> Kind:
    if "method" in message:
        return "request" if "id" in message else "notification"
    if "id" in message and ("result" in message or "error" in message):
        return "response"
    return "invalid"


def is_answer_to(message: Message, request_id: RequestId) -> bool:
    return "method" not in message and message.get("id") == request_id


def modern_version(message: Message) -> str | None:
    """The per-request protocol version a 2026-era message carries in ``params._meta``."""
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


def cancelled_id(message: Message) -> RequestId | None:
    params = message.get("params") or {}
    value = params.get("requestId")
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None


def error(request_id: RequestId | None, code: int, text: str) -> Message:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}}


def result(request_id: RequestId, value: dict[str, Any]) -> Message:
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def notification(method: str, params: dict[str, Any] | None = None) -> Message:
    message: Message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


class ParamHeaders:
    """``Mcp-Param-*`` headers for 2026-era ``tools/call``, learnt from the tool lists relayed."""

    def __init__(self) -> None:
        self._maps: dict[str, dict[tuple[str, ...], str]] = {}

    def learn(self, answer: Message) -> None:
        tools = (answer.get("result") or {}).get("tools")
        if not isinstance(tools, list):
            return
        for tool in tools:
            if isinstance(tool, dict) and isinstance(name := tool.get("name"), str):
                schema = tool.get("inputSchema")
                valid = find_invalid_x_mcp_header(schema) is None
                self._maps[name] = x_mcp_header_map(schema) if valid else {}

    def for_call(self, params: dict[str, Any]) -> dict[str, str]:
        name = params.get("name")
        header_map = self._maps.get(name) if isinstance(name, str) else None
        arguments = params.get("arguments")
        if not header_map or not isinstance(arguments, dict):
            return {}
        return mcp_param_headers(header_map, arguments)


NAME_KEYS = {**NAME_BEARING_METHODS, "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId"}
"""Method -> the params key ``Mcp-Name`` mirrors (the tasks extension adds its methods' ``taskId``)."""


def modern_headers(message: Message, version: str, params: ParamHeaders) -> dict[str, str]:
    """The routing headers a 2026-era POST must carry, mirrored from its body."""
    method = message.get("method", "")
    headers = {MCP_PROTOCOL_VERSION_HEADER: version, MCP_METHOD_HEADER: method}
    body = message.get("params") or {}
    name_key = NAME_KEYS.get(method)
    if name_key is not None and isinstance(name := body.get(name_key), str):
        headers[MCP_NAME_HEADER] = encode_header_value(name)
    if method == "tools/call":
        headers.update(params.for_call(body))
    return headers
