"""A direct answer for a 2026-era ``tools/call`` result this package built (a fast path: the SDK adapter's
``ShapingRunner``; the SDK's own ``ServerRunner`` shapes every result when the fast paths are off).

The SDK shapes every result for the wire by dumping it, validating the dump again against the
version's result surface (which drops fields that version lacks), and stamping a deep copy of the
server's identity into ``_meta``. A ``CallToolResult`` built by the call path is a validated model
of the same fields as the 2026 surface (``tests/tools/transports/http/test_direct.py`` holds the two equal), so it
is dumped once; its stamp is one dump per server, shared because the answer is encoded at once.
Anything else (a cache hint, another shape, a subclass, input rounds, tasks, the 2025 era) is
shaped by the SDK, as before. The request side is the SDK's unchanged: its ``_meta`` and surface
checks and their errors, the middleware chain, the handler lookup and the params model.
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

import mcp_types as mt
from mcp.server import Server
from mcp.server.connection import Connection
from mcp.server.context import HandlerResult
from mcp.server.runner import ServerRunner
from mcp_types import SERVER_INFO_META_KEY
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.adapters.sdk import ShapingRunner

_PLAIN_BLOCKS = frozenset({mt.TextContent, mt.ImageContent, mt.AudioContent, mt.ResourceLink, mt.EmbeddedResource})
"""Content blocks whose fields are the 2026 surface's (a subclass may add its own: the SDK shapes those)."""


def direct_runner(
    server: Server[Any], connection: Connection, state: Any, server_stamp: dict[str, Any] | None
) -> ServerRunner[Any]:
    """A runner answering a 2026-era ``CallToolResult`` in one dump (``server_stamp``, the server's
    ``server_info_stamp`` taken once); without a stamp, the SDK's own runner."""
    if server_stamp is None:
        return ServerRunner(server, connection, state)
    return ShapingRunner(server, connection, state, shape=partial(shaped, server_stamp))


def shaped(
    server_stamp: dict[str, Any], runner: ServerRunner[Any], method: str, version: str, result: HandlerResult
) -> dict[str, Any] | None:
    """The wire form of a plain 2026-era ``CallToolResult`` (``None``: the SDK shapes anything else)."""
    if not _plain_call_result(method, version, result) or method in runner.server.cache_hints:
        return None
    dumped = cast(mt.CallToolResult, result).model_dump(by_alias=True, mode="json", exclude_none=True)
    meta = dumped.get("_meta")
    if meta is None:
        dumped["_meta"] = {SERVER_INFO_META_KEY: server_stamp}
    elif isinstance(meta, dict) and meta.get(SERVER_INFO_META_KEY) is None:
        dumped["_meta"] = {**meta, SERVER_INFO_META_KEY: server_stamp}
    return dumped


def _plain_call_result(method: str, version: str, result: HandlerResult) -> bool:
    """Whether ``result`` is a ``tools/call`` answer whose dump is already its 2026 wire form."""
    return (
        method == "tools/call"
        and type(result) is mt.CallToolResult
        and version in MODERN_PROTOCOL_VERSIONS
        and not result.model_extra
        and all(type(block) in _PLAIN_BLOCKS for block in result.content)
    )
