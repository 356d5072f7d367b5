"""What the union answers over HTTP: a JSON body, an SSE stream of messages, or an empty 202.

The router builds ``Reply`` values; the tornado handler (``handler.py``) writes them. JSON-RPC
errors get the HTTP status the SDK's table gives their code (``ERROR_CODE_HTTP_STATUS``), as the
kernels' own servers answer them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND_2025 = -32002


@dataclass
class Reply:
    """An HTTP answer: ``body`` (JSON), or ``events`` (each one encoded message, sent as SSE), or neither."""

    status: int = 200
    body: bytes | None = None
    events: AsyncIterator[bytes] | None = None
    headers: dict[str, str] = field(default_factory=dict)


def encode(message: Any) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


def error_message(request_id: Any, code: int, text: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": text}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def error(request_id: Any, code: int, text: str, data: Any = None, *, status: int | None = None) -> Reply:
    """A JSON-RPC error with the HTTP status its code maps to (200 for the rest), or ``status``."""
    mapped = status if status is not None else ERROR_CODE_HTTP_STATUS.get(code, 200)
    return Reply(mapped, encode(error_message(request_id, code, text, data)))


def result(request_id: Any, value: dict[str, Any], headers: dict[str, str] | None = None) -> Reply:
    return Reply(200, encode({"jsonrpc": "2.0", "id": request_id, "result": value}), headers=headers or {})


def encoded_result(request_id: Any, value: bytes) -> Reply:
    """A result already encoded (a cached list): only the envelope is built."""
    return Reply(200, b'{"jsonrpc":"2.0","id":' + encode(request_id) + b',"result":' + value + b"}")


def accepted() -> Reply:
    return Reply(202)


def tool_error(text: str) -> dict[str, Any]:
    """A tool error result (what the kernel answers for an unknown tool: the model can retry)."""
    return {"content": [{"type": "text", "text": text}], "isError": True}
