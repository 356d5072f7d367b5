"""``Union``: the state behind ``<jupyter url>/mcp`` — members, lists, client sessions, listeners, limits.

Created lazily by the first request to the route (an idle Jupyter server watches nothing), it
runs on the Jupyter server's loop until the extension stops.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Coroutine
from typing import Any

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.discovery import pid_alive
from jupyter_mcp.prefixes import split_task_id, split_uri
from jupyter_mcp.serverext.approvals import forward
from jupyter_mcp.serverext.directory import ToolServerDirectory
from jupyter_mcp.serverext.union.live.catalog import Catalog
from jupyter_mcp.serverext.union.live.listeners import Listeners
from jupyter_mcp.serverext.union.live.members import Member, Membership
from jupyter_mcp.serverext.union.live.scope import Scope
from jupyter_mcp.serverext.union.live.sessions import Sessions
from jupyter_mcp.serverext.union.live.watch import Change, Kind, Watcher
from jupyter_mcp.shapes.status import ClientEntry, ConnectionKind

logger = logging.getLogger(__name__)

LIST_CHANGED = {
    "tools": "notifications/tools/list_changed",
    "resources": "notifications/resources/list_changed",
    "prompts": "notifications/prompts/list_changed",
}
_SETTLE = 5.0
"""Seconds a kernel that broke off a call is watched to tell a shutdown from a restart."""
_CLIENT_WINDOW = 300.0
"""Seconds a 2026-era client counts as connected after its last request (as the kernels count them)."""


class Union:
    """Every notebook's tools as one MCP server (see ``router`` for the protocol)."""

    def __init__(self, directory: ToolServerDirectory, *, interval: float = 0.5) -> None:
        self.directory = directory
        self.catalog = Catalog()
        self.sessions = Sessions()
        self.listeners = Listeners()
        self.watcher = Watcher(Membership(directory), self._changed, interval)
        self.read_only_clients: set[str] = set()
        self._clients: dict[tuple[str, str], ClientEntry] = {}
        self._limited: dict[tuple[object, ...], asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # ---- members ------------------------------------------------------------------------------------

    async def members(self, scope: Scope) -> list[Member]:
        """The serving notebooks ``scope`` lets a client see, by key."""
        await self.watcher.ready()
        return sorted((m for m in self.watcher.members.values() if scope.includes(m)), key=lambda m: m.key)

    async def by_prefix(self, prefix: str, scope: Scope) -> Member | None:
        found = next((m for m in await self.members(scope) if m.prefix == prefix), None)
        if found is None and await self.looked_again():
            found = next((m for m in await self.members(scope) if m.prefix == prefix), None)
        return found

    async def looked_again(self) -> bool:
        """Scan for members now (a client names one the union does not know yet); whether anything changed."""
        before = {key: member.identity for key, member in self.watcher.members.items()}
        await self.watcher.rescan()
        return before != {key: member.identity for key, member in self.watcher.members.items()}

    async def listed_again(self, name: str, scope: Scope, kind: Kind) -> bool:
        """Drop the lists of ``kind`` of the members whose prefix ``name`` carries, so the next view asks them
        again (a component a notebook added a moment ago, its change not heard yet); whether there were any."""
        owners = frozenset(m.key for m in await self.members(scope) if name.startswith(f"{m.prefix}_"))
        if owners:
            self.catalog.changed(Change(frozenset({kind}), owners))
        return bool(owners)

    async def owner_of_uri(self, uri: str, scope: Scope) -> Member | None:
        found = split_uri(uri)
        return await self.by_prefix(found[0], scope) if found is not None else None

    async def owner_of_task(self, task: str, scope: Scope) -> Member | None:
        found = split_task_id(task)
        return await self.by_prefix(found[0], scope) if found is not None else None

    async def what_happened(self, member: Member) -> str:
        """Why a member stopped answering, in a few words (its kernel settles within seconds either way);
        the members are looked at again first, so the client's next list is already without it."""
        what = await self._settled(member)
        await self.watcher.rescan()
        if what is None and member.key not in self.watcher.members:
            return "stopped serving tools (%mcp stop)"
        return what or "stopped answering"

    async def _settled(self, member: Member) -> str | None:
        kernel, deadline = member.info.kernel_id, time.monotonic() + _SETTLE
        local = member.carrier.name == "http"  # process ids mean something only for kernels on this machine
        while time.monotonic() < deadline:
            if kernel not in self.directory.kernel_ids() or self.directory.shutting_down(kernel):
                return "was shut down"
            current = self.directory.kernel_pid(kernel) if local else None
            if current is not None and current != member.info.pid and pid_alive(current):
                return "was restarted"
            await asyncio.sleep(0.1)
        return None if not local or pid_alive(member.info.pid) else "died"

    def serving(self) -> dict[str, str]:
        """Notebook path -> the prefix of its tools here, for the notebooks serving now (as last seen)."""
        return {m.notebook: m.prefix for m in self.watcher.members.values() if m.notebook is not None and not m.bare}

    def refresh(self) -> None:
        """Look at the members again soon (the notebook tools were switched on or off), if anyone is watching."""
        if self.watcher.started:
            self.spawn(self.watcher.rescan())

    # ---- changes -------------------------------------------------------------------------------------

    def _changed(self, change: Change) -> None:
        self.catalog.changed(change)
        live = {member.identity for member in self.watcher.members.values()}
        for identity in {identity for session in self.sessions for identity in session.links} - live:
            self.sessions.forget_member(identity)
        for kind in sorted(change.kinds):
            message = json.dumps({"jsonrpc": "2.0", "method": LIST_CHANGED[kind]}).encode()
            for session in self.sessions:
                if session.initialized and _touches(session.scope, change):
                    session.tell(message)
            self.listeners.list_changed(kind, lambda scope: _touches(scope, change))
        self._apply_limits()
        if "tools" in change.kinds:
            for key in change.keys & self.watcher.members.keys():
                self.spawn(self.catalog.warm(self.watcher.members[key]))

    # ---- clients and their limits ----------------------------------------------------------------

    def seen(self, name: str, version: str, protocol_version: str, kind: ConnectionKind) -> None:
        now = time.time()
        key = (name, kind)
        known = self._clients.get(key)
        since = known["since"] if known is not None else now
        self._clients[key] = ClientEntry(
            name=name, version=version, protocol_version=protocol_version, since=since, last_seen=now, kind=kind
        )

    def clients(self) -> list[ClientEntry]:
        now = time.time()
        session_names = {session.client_name for session in self.sessions}
        return [
            client.copy()
            for client in self._clients.values()
            if (client["kind"] == "session" and client["name"] in session_names)
            or now - client["last_seen"] <= _CLIENT_WINDOW
        ]

    async def limit(self, client: str, *, read_only: bool) -> None:
        """Limit ``client`` to read-only tools in every notebook (now and those that start later), or lift it."""
        if read_only:
            self.read_only_clients.add(client)
        else:
            self.read_only_clients.discard(client)
        await self.watcher.ready()
        await asyncio.gather(*(self._limit(m, client, read_only) for m in self.watcher.members.values()))

    def _apply_limits(self) -> None:
        """Members that joined since the limits were set get them too (before any call reaches them)."""
        for member in self.watcher.members.values():
            if member.identity in self._limited or not self.read_only_clients:
                continue
            clients = sorted(self.read_only_clients)
            self._limited[member.identity] = self.spawn(self._limit_all(member, clients))

    async def _limit_all(self, member: Member, clients: list[str]) -> None:
        await asyncio.gather(*(self._limit(member, client, read_only=True) for client in clients))

    async def ready(self, member: Member) -> None:
        """Wait until the limits are set in a member that just joined."""
        limiting = self._limited.get(member.identity)
        if limiting is not None and not limiting.done():
            await asyncio.shield(limiting)

    async def _limit(self, member: Member, client: str, read_only: bool) -> None:
        try:
            body = {"client": client, "read_only": read_only}
            status, reply = await forward(member.carrier, member.info, "/limits", body)
        except HttpError as error:
            logger.warning("could not limit %s in %s: %s", client, member.label, error)
            return
        if status >= 400:
            logger.warning("%s refused to limit %s: %s", member.label, client, reply)

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` in the background until it ends or the union stops."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.warning("a background task of /mcp failed", exc_info=task.exception())

    def stop(self) -> None:
        self.watcher.stop()
        self.listeners.close()
        self.sessions.drop()
        self.catalog.drop()
        for task in list(self._tasks):
            task.cancel()


def _touches(scope: Scope, change: Change) -> bool:
    """Whether a client with ``scope`` sees a member the change is for (as ``Scope.includes`` decides)."""
    return any(scope.sees(key, bare=key in change.bare) for key in change.keys)
