"""Untrusted JSON bytes, parsed once within a size and a nesting limit, or refused in one sentence.

Every door that takes JSON from outside reads it here: the MCP endpoint (with the server's
``max_body_bytes`` and ``max_json_depth`` settings), the REST bodies of the Jupyter extension and of
the kernel's approval routes. The parser is pydantic's (Rust; no Python recursion; the one the MCP
SDK parses with, so both accept the same numbers and strings); it stops at 200 levels by itself, and
a lower limit is checked level by level here.

Example::

    value = load(b'{"paused": true}', max_bytes=100_000, max_depth=20)
"""

from __future__ import annotations

from typing import Any, Literal

import pydantic_core

DEPTH_CEILING = 200
"""The deepest a limit may be: the parser refuses deeper values by itself."""

Problem = Literal["too large", "too deep", "not JSON", "not an object"]

REST_MAX_BYTES = 1_000_000
"""Bytes a REST request's body may take (the notebook user's answers are small)."""
REST_MAX_DEPTH = 32
"""Levels of arrays and objects a REST request's body may nest."""


class JSONRefused(ValueError):
    """Bytes refused: ``problem`` says which way, the message (one sentence, lower case) how."""

    def __init__(self, problem: Problem, message: str) -> None:
        super().__init__(message)
        self.problem = problem


def load(body: bytes, *, max_bytes: int, max_depth: int) -> Any:
    """The JSON value of ``body``; ``JSONRefused`` if it is over ``max_bytes``, nests arrays and objects
    more than ``max_depth`` levels, or is not JSON (not UTF-8, a syntax error)."""
    if len(body) > max_bytes:
        raise JSONRefused("too large", f"the body is {len(body):,} bytes, more than {max_bytes:,}")
    try:
        value = pydantic_core.from_json(body, cache_strings=False)
    except ValueError as exc:
        if str(exc).startswith("recursion limit"):
            raise JSONRefused("too deep", _too_deep(max_depth)) from None
        raise JSONRefused("not JSON", f"the body is not valid JSON ({exc})") from None
    if deeper_than(value, body, max_depth):
        raise JSONRefused("too deep", _too_deep(max_depth))
    return value


def load_object(body: bytes) -> dict[str, Any]:
    """A REST request's body: one JSON object within the REST limits (an empty body is ``{}``)."""
    value = load(body or b"{}", max_bytes=REST_MAX_BYTES, max_depth=REST_MAX_DEPTH)
    if not isinstance(value, dict):
        raise JSONRefused("not an object", "the body must be a JSON object")
    return value


def _too_deep(limit: int) -> str:
    return f"the body nests arrays and objects more than {limit} levels deep"


def deeper_than(value: Any, body: bytes, limit: int) -> bool:
    """Whether ``value`` (parsed from ``body``) nests arrays and objects more than ``limit`` levels deep."""
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
