"""Noticing every change of the union as it happens, and saying which lists it touched.

Two sources: the membership (a notebook starts or stops serving, restarts its kernel, is renamed
or changes its prefix), read every ``interval`` seconds and at once when a kernel's stream breaks;
and each member's own ``subscriptions/listen`` stream (2026 era, without client info, so the
kernel does not count the union as a client), which says when a cell re-ran.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass

from mcp_types import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY
from mcp_types.version import LATEST_MODERN_VERSION

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.serverext.union.live import upstream
from jupyter_mcp.serverext.union.live.members import Member, Membership

logger = logging.getLogger(__name__)

Kind = str
"""``"tools"``, ``"resources"`` or ``"prompts"``."""
KINDS: frozenset[Kind] = frozenset({"tools", "resources", "prompts"})
_KIND_OF = {
    "notifications/tools/list_changed": "tools",
    "notifications/resources/list_changed": "resources",
    "notifications/prompts/list_changed": "prompts",
}
_RETRY = 0.5


@dataclass(frozen=True)
class Change:
    """Lists that changed, and the notebooks (member keys) they changed for."""

    kinds: frozenset[Kind]
    keys: frozenset[str]
    bare: frozenset[str] = frozenset()
    """Those of ``keys`` that are servers the Jupyter server runs itself (the notebook tools, ``Member.bare``)."""


def listen_request(request_id: str) -> bytes:
    """A 2026-era listen for every list change, with the envelope's required keys and no client info."""
    meta = {PROTOCOL_VERSION_META_KEY: LATEST_MODERN_VERSION, CLIENT_CAPABILITIES_META_KEY: {}}
    notifications = {"toolsListChanged": True, "resourcesListChanged": True, "promptsListChanged": True}
    params = {"notifications": notifications, "_meta": meta}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "subscriptions/listen", "params": params}).encode()


LISTEN_HEADERS = (("Mcp-Protocol-Version", LATEST_MODERN_VERSION), ("Mcp-Method", "subscriptions/listen"))


class Watcher:
    """Keeps ``members`` current and calls ``on_change`` for every change (on the server's loop)."""

    def __init__(self, membership: Membership, on_change: Callable[[Change], None], interval: float) -> None:
        self.membership = membership
        self.on_change = on_change
        self.interval = interval
        self.members: dict[str, Member] = {}
        self._listens: dict[tuple[object, ...], asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._scanned = asyncio.Event()
        self._scanning = asyncio.Lock()

    @property
    def started(self) -> bool:
        return self._task is not None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def ready(self) -> None:
        """Wait for the first scan (what a client's first request is answered from)."""
        self.start()
        await self._scanned.wait()

    async def rescan(self) -> None:
        """Scan now (a call found its kernel gone): the members are current when this returns."""
        self.start()
        await self._scan()

    def stop(self) -> None:
        for task in [self._task, *self._listens.values()]:
            if task is not None:
                task.cancel()
        self._task = None
        self._listens.clear()

    async def _run(self) -> None:
        while True:
            try:
                await self._scan()
            except Exception:  # keep watching: the next scan may work
                logger.exception("could not read the notebooks serving tools")
            self._scanned.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()

    async def _scan(self) -> None:
        async with self._scanning:  # one scan at a time: each compares with the one before
            await self._scan_once()

    async def _scan_once(self) -> None:
        members = await self.membership.scan()
        before, self.members = self.members, members
        changed = {key for key in before.keys() | members.keys() if _differs(before.get(key), members.get(key))}
        self._follow(members)
        if changed:
            bare = {key for key in changed if (members.get(key) or before[key]).bare}
            self.on_change(Change(KINDS, frozenset(changed), frozenset(bare)))

    def _follow(self, members: dict[str, Member]) -> None:
        """One listen stream per serving kernel process; streams of kernels gone are closed."""
        wanted = {member.identity: member for member in members.values()}
        for identity in list(self._listens):
            if identity not in wanted:
                self._listens.pop(identity).cancel()
        for identity, member in wanted.items():
            if identity not in self._listens:
                self._listens[identity] = asyncio.get_running_loop().create_task(self._listen(member))

    async def _listen(self, member: Member) -> None:
        while True:
            try:
                response = await upstream.post(
                    member.carrier, member.info, listen_request("union-watch"), LISTEN_HEADERS
                )
                async for data in upstream.messages(response):
                    self._heard(member, data)
            except HttpError as error:
                logger.debug("the listen stream of %s ended: %s", member.label, error)
            self._wake.set()  # a broken stream usually means the kernel stopped: look now
            await asyncio.sleep(_RETRY)

    def _heard(self, member: Member, data: bytes) -> None:
        try:
            method = json.loads(data).get("method")
        except (ValueError, AttributeError):
            return
        kind = _KIND_OF.get(method)
        current = self.members.get(member.key)
        if kind is not None and current is not None and current.identity == member.identity:
            self.on_change(
                Change(frozenset({kind}), frozenset({member.key}), frozenset({member.key} if member.bare else ()))
            )


def _differs(before: Member | None, after: Member | None) -> bool:
    if before is None or after is None:
        return before is not after
    return before.identity != after.identity or before.prefix != after.prefix or before.notebook != after.notebook
