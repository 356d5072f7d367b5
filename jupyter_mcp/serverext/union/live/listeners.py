"""2026-era ``subscriptions/listen`` streams of the union's clients.

Each stream is acknowledged first (its filter, as honored), then gets the union's list changes
it asked for (within its client's scope) and ``resources/updated`` for the URIs it subscribed to
(relayed from a listen stream the router opens with the owning kernel). Every frame carries the
listen request's id under ``_meta`` (``io.modelcontextprotocol/subscriptionId``), as the SDK's own
``ListenHandler`` stamps it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY

from jupyter_mcp.serverext.union.live.scope import Scope

ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
_WANTS = {"tools": "toolsListChanged", "resources": "resourcesListChanged", "prompts": "promptsListChanged"}
_BACKLOG = 1024
_LIST_CHANGED = {
    "tools": "notifications/tools/list_changed",
    "resources": "notifications/resources/list_changed",
    "prompts": "notifications/prompts/list_changed",
}


@dataclass(eq=False)
class Listener:
    """One open listen stream."""

    subscription: Any
    """The listen request's JSON-RPC id."""
    scope: Scope
    honored: dict[str, Any]
    queue: asyncio.Queue[bytes | None] = field(default_factory=lambda: asyncio.Queue(_BACKLOG))
    upstream: list[asyncio.Task[None]] = field(default_factory=list)
    """Listen streams with kernels whose resources this stream subscribed to."""

    @property
    def uris(self) -> list[str]:
        found = self.honored.get("resourceSubscriptions")
        return [uri for uri in found if isinstance(uri, str)] if isinstance(found, list) else []

    def wants(self, kind: str) -> bool:
        return self.honored.get(_WANTS[kind]) is True

    def send(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Queue a notification stamped with the subscription id; a stream that stopped reading is ended."""
        stamped = {**(params or {}), "_meta": {SUBSCRIPTION_ID_META_KEY: self.subscription}}
        frame = json.dumps({"jsonrpc": "2.0", "method": method, "params": stamped}).encode()
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.end()

    def end(self) -> None:
        for task in self.upstream:
            task.cancel()
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()


def honored(filter_params: dict[str, Any]) -> dict[str, Any]:
    """What a listen asked for that will be delivered (true flags and a non-empty URI list)."""
    found: dict[str, Any] = {key: True for key in _WANTS.values() if filter_params.get(key) is True}
    uris = filter_params.get("resourceSubscriptions")
    if isinstance(uris, list) and uris:
        found["resourceSubscriptions"] = list(uris)
    return found


class Listeners:
    """Every open listen stream of the union."""

    def __init__(self) -> None:
        self._open: set[Listener] = set()

    def __len__(self) -> int:
        return len(self._open)

    def open(self, subscription: Any, scope: Scope, filter_params: dict[str, Any]) -> Listener:
        listener = Listener(subscription, scope, honored(filter_params))
        self._open.add(listener)
        listener.send(ACKNOWLEDGED, {"notifications": listener.honored})
        return listener

    async def frames(self, listener: Listener) -> AsyncIterator[bytes]:
        """The stream's frames until it ends; it is closed when the client goes."""
        try:
            while (frame := await listener.queue.get()) is not None:
                yield frame
        finally:
            self._open.discard(listener)
            listener.end()

    def list_changed(self, kind: str, in_scope: Callable[[Scope], bool]) -> None:
        for listener in list(self._open):
            if listener.wants(kind) and in_scope(listener.scope):
                listener.send(_LIST_CHANGED[kind])

    def close(self) -> None:
        for listener in list(self._open):
            listener.end()
        self._open.clear()
