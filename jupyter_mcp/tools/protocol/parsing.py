"""Parse a JSON-RPC message's bytes once, within the server's limits, or refuse it in one sentence.

Hostile bodies are refused before anything recurses over them (``jsonlimits.load``): a body over
``max_body_bytes`` (-32600), bytes that are not JSON (-32700: not UTF-8, a syntax error), a value
nested more than ``max_json_depth`` arrays and objects deep (-32700), and a message whose envelope
says a key twice (-32600: which one counts is up to each parser). The limits are the
``ServerSettings`` of the same names (docs: limits.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mcp_types import INVALID_REQUEST, PARSE_ERROR

from jupyter_mcp.jsonlimits import DEPTH_CEILING, JSONRefused, load
from jupyter_mcp.tools.protocol.checks import MessageError

__all__ = ["DEPTH_CEILING", "BodyLimits", "parse_message", "too_large"]

_ENVELOPE = ("jsonrpc", "id", "method", "params", "result", "error")


@dataclass(frozen=True)
class BodyLimits:
    """How large (bytes) and how deeply nested (arrays and objects) a message may be."""

    max_bytes: int
    max_depth: int


def parse_message(body: bytes, limits: BodyLimits) -> Any:
    """The JSON value of ``body``; ``MessageError`` when it breaks ``limits`` or is not JSON."""
    try:
        value = load(body, max_bytes=limits.max_bytes, max_depth=limits.max_depth)
    except JSONRefused as refused:
        if refused.problem == "too large":
            raise MessageError(INVALID_REQUEST, too_large(len(body), limits.max_bytes)) from None
        if refused.problem == "too deep":
            raise MessageError(PARSE_ERROR, f"Parse error: {refused} (this server's max_json_depth setting)") from None
        raise MessageError(PARSE_ERROR, f"Parse error: {refused}") from None
    if isinstance(value, dict) and (twice := _repeated_envelope_key(body)) is not None:
        raise MessageError(INVALID_REQUEST, f'Invalid request: the message has the key "{twice}" more than once')
    return value


def too_large(size: int | None, limit: int) -> str:
    said = f"is {size:,} bytes, more than" if size is not None else "is more than"
    return f"Invalid request: the body {said} this server takes ({limit:,} bytes, its max_body_bytes setting)"


def _repeated_envelope_key(body: bytes) -> str | None:
    """An envelope key the top-level object says twice (parsed again only when a key's text repeats,
    or could be spelled with escapes)."""
    if b"\\u" not in body and not any(body.count(b'"%s"' % key.encode()) > 1 for key in _ENVELOPE):
        return None
    outermost: list[tuple[str, Any]] = []

    def keep(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        outermost[:] = pairs  # objects finish inside out: the last one is the message itself
        return dict(pairs)

    json.loads(body, object_pairs_hook=keep)
    keys = [key for key, _ in outermost]
    return next((key for key in _ENVELOPE if keys.count(key) > 1), None)
