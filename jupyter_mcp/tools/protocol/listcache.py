"""``ListCache``: answer repeated list requests from their finished wire form.

A ``tools/list`` of 1,001 tools cost ~50 ms of server CPU, nearly all of it the SDK validating
and re-dumping the result models; the list changes only when the registry does. This server
middleware keeps the wire dict the SDK produced for each (method, protocol version, cursor,
variant) and drops everything when the registry changes.

``variant`` splits an answer by what the client declared, for lists that differ by client
capabilities (a tool's MCP App link goes only to clients that render apps): it maps the
request's capabilities (as JSON) to a key, ``None`` when every client gets the same list.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Hashable, Mapping
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

Variant = Callable[[Mapping[str, Any] | None], Hashable]


class ListCache:
    """Server middleware; call ``clear()`` whenever what the lists show may have changed."""

    def __init__(self, methods: Collection[str] = ("tools/list",), variant: Variant | None = None) -> None:
        self.methods = frozenset(methods)
        self.variant = variant
        self._entries: dict[tuple[str, str, str | None, Hashable], HandlerResult] = {}
        self._generation = 0
        self._lock = threading.Lock()

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        cacheable, cursor = _cursor(ctx.params)
        if ctx.method not in self.methods or not cacheable:
            return await call_next(ctx)
        key = (ctx.method, ctx.protocol_version, cursor, self._variant_of(ctx))
        with self._lock:
            cached, generation = self._entries.get(key), self._generation
        if cached is not None:
            return cached
        result = await call_next(ctx)
        with self._lock:
            if generation == self._generation:  # not built from a registry that changed meanwhile
                self._entries[key] = result
        return result

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._generation += 1

    def _variant_of(self, ctx: ServerRequestContext[Any, Any]) -> Hashable:
        if self.variant is None:
            return None
        # The connection's capabilities: the handshake's (2025 era) or this request's envelope (2026 era).
        capabilities = ctx.session.client_capabilities
        return self.variant(capabilities.model_dump(by_alias=True, exclude_none=True) if capabilities else None)


def _cursor(params: Mapping[str, Any] | None) -> tuple[bool, str | None]:
    """``(cacheable, cursor)``: a malformed cursor goes to the handler, which says what is wrong."""
    cursor = params.get("cursor") if params is not None else None
    return cursor is None or isinstance(cursor, str), cursor
