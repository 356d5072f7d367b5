"""Parse a JSON-RPC message's bytes once, within the server's limits, or refuse it in one sentence.

Hostile bodies are refused here before anything recurses over them: a body over
``max_body_bytes`` (-32600), bytes that are not JSON (-32700: not UTF-8, a syntax error), a value
nested more than ``max_json_depth`` arrays and objects deep (-32700), and a message whose
envelope says a key twice (-32600: which one counts is up to each parser). The parser is the one
the SDK parses a body with (pydantic's, in Rust: no Python recursion, the same numbers and strings
accepted), which stops at 200 levels by itself; a lower depth limit is checked here. The limits
are the ``ServerSettings`` of the same names (docs: limits.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pydantic_core
from mcp_types import INVALID_REQUEST, PARSE_ERROR

from jupyter_mcp.tools.protocol.checks import MessageError

DEPTH_CEILING = 200
"""The deepest ``max_json_depth`` may be: the parser (the SDK's too) refuses deeper bodies by itself."""

_ENVELOPE = ("jsonrpc", "id", "method", "params", "result", "error")


@dataclass(frozen=True)
class BodyLimits:
    """How large (bytes) and how deeply nested (arrays and objects) a message may be."""

    max_bytes: int
    max_depth: int


def parse_message(body: bytes, limits: BodyLimits) -> Any:
    """The JSON value of ``body``; ``MessageError`` when it breaks ``limits`` or is not JSON."""
    if len(body) > limits.max_bytes:
        raise MessageError(INVALID_REQUEST, too_large(len(body), limits.max_bytes))
    try:
        value = pydantic_core.from_json(body, cache_strings=False)
    except ValueError as exc:
        if str(exc).startswith("recursion limit"):
            raise MessageError(PARSE_ERROR, too_deep(limits.max_depth)) from None
        raise MessageError(PARSE_ERROR, f"Parse error: the body is not valid JSON ({exc})") from None
    if _deeper_than(value, body, limits.max_depth):
        raise MessageError(PARSE_ERROR, too_deep(limits.max_depth))
    if isinstance(value, dict) and (twice := _repeated_envelope_key(body)) is not None:
        raise MessageError(INVALID_REQUEST, f'Invalid request: the message has the key "{twice}" more than once')
    return value


def too_large(size: int | None, limit: int) -> str:
    said = f"is {size:,} bytes, more than" if size is not None else "is more than"
    return f"Invalid request: the body {said} this server takes ({limit:,} bytes, its max_body_bytes setting)"


def too_deep(limit: int) -> str:
    return (
        f"Parse error: the body nests arrays and objects more than {limit} levels deep "
        "(this server's max_json_depth setting)"
    )


def _deeper_than(value: Any, body: bytes, limit: int) -> bool:
    """Whether ``value`` nests arrays and objects more than ``limit`` levels deep (one level at a time)."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False  # fewer brackets than the limit, even counting those inside strings
    level: list[Any] = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        inner: list[Any] = []
        for container in level:
            items = container.values() if isinstance(container, dict) else container
            inner.extend(item for item in items if isinstance(item, dict | list))
        level = inner
    return False


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
