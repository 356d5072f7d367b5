"""``ListCache``: answer repeated list requests from their finished wire form, as a dict or as bytes.

A ``tools/list`` of 1,001 tools cost ~50 ms of server CPU, nearly all of it the SDK validating
and re-dumping the result models; the list changes only when the registry does. This server
middleware keeps the wire dict the SDK produced for each (method, protocol version, cursor,
variant) and drops everything when the registry changes. A transport that can send bytes asks
``encoded`` instead: the same entry encoded once (``codec``), with a validator (an ETag: the same
bytes always get the same one) for HTTP caching.

``variant`` splits an answer by what the client declared, for lists that differ by client
capabilities (a tool's MCP App link goes only to clients that render apps): it maps the request's
raw ``clientCapabilities`` to a key, ``None`` when every client gets the same list.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp_types import CLIENT_CAPABILITIES_META_KEY

from jupyter_mcp.tools import codec

Variant = Callable[[Mapping[str, Any] | None], Hashable]
_Key = tuple[str, str, str | None, Hashable]


@dataclass
class _Entry:
    result: HandlerResult
    encoded: bytes | None = None
    etag: str = ""


class ListCache:
    """Server middleware; call ``clear()`` whenever what the lists show may have changed."""

    def __init__(self, methods: Collection[str] = ("tools/list",), variant: Variant | None = None) -> None:
        self.methods = frozenset(methods)
        self.variant = variant
        self._entries: dict[_Key, _Entry] = {}
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
            return cached.result
        result = await call_next(ctx)
        with self._lock:
            if generation == self._generation:  # not built from a registry that changed meanwhile
                self._entries[key] = _Entry(result)
        return result

    def encoded(
        self,
        method: str,
        protocol_version: str,
        params: Mapping[str, Any] | None,
        capabilities: Mapping[str, Any] | None,
    ) -> tuple[bytes, str] | None:
        """The cached result's JSON and its ETag, or ``None`` (not cached yet: serve it once the usual way).

        ``capabilities``: what the client declared, as JSON (this request's envelope in the 2026 era, the
        session's handshake in the 2025 era), for the ``variant``.
        """
        cacheable, cursor = _cursor(params)
        if method not in self.methods or not cacheable:
            return None
        variant = self.variant(capabilities) if self.variant is not None else None
        with self._lock:
            entry = self._entries.get((method, protocol_version, cursor, variant))
        if entry is None or not isinstance(entry.result, dict):
            return None
        if entry.encoded is None:  # encoded once; a race encodes the same bytes twice, harmlessly
            encoded = codec.dumps(entry.result)
            entry.etag = f'"{hashlib.blake2b(encoded, digest_size=12).hexdigest()}"'
            entry.encoded = encoded
        return entry.encoded, entry.etag

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._generation += 1

    def _variant_of(self, ctx: ServerRequestContext[Any, Any]) -> Hashable:
        if self.variant is None:
            return None
        # The connection's capabilities: the handshake's (2025 era) or this request's envelope (2026 era, where
        # client info, and so client_params, may be absent while the capabilities are there).
        capabilities = ctx.session.client_capabilities
        return self.variant(capabilities.model_dump(by_alias=True, exclude_none=True) if capabilities else None)


def envelope_capabilities(params: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The capabilities a 2026-era request declares in its ``_meta`` envelope."""
    meta = params.get("_meta") if params is not None else None
    capabilities = meta.get(CLIENT_CAPABILITIES_META_KEY) if isinstance(meta, dict) else None
    return capabilities if isinstance(capabilities, dict) else None


def _cursor(params: Mapping[str, Any] | None) -> tuple[bool, str | None]:
    """``(cacheable, cursor)``: a malformed cursor goes to the handler, which says what is wrong."""
    cursor = params.get("cursor") if params is not None else None
    return cursor is None or isinstance(cursor, str), cursor
