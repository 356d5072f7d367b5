"""The union's lists: every member's tools, resources, templates and prompts, namespaced and merged.

Each member's list is asked once (a 2026-era request without client info: the kernel does not
count the union as a client) and kept until the watcher says it changed. A client of another
protocol version gets it in that version's shape, as the kernel's own SDK would give it
(``serialize_server_result``). A merged, namespaced list (a ``View``) is kept per scope,
method, version and client capabilities, with its encoded result, so a repeated ``tools/list``
costs a dictionary lookup.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from mcp_types import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY
from mcp_types.methods import serialize_server_result
from mcp_types.version import LATEST_MODERN_VERSION, MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.prefixes import namespaced_uri
from jupyter_mcp.serverext.union.live import upstream
from jupyter_mcp.serverext.union.live.members import Member
from jupyter_mcp.serverext.union.live.watch import Change

logger = logging.getLogger(__name__)

LISTS = {
    "tools/list": ("tools", "tools"),
    "resources/list": ("resources", "resources"),
    "resources/templates/list": ("resourceTemplates", "resources"),
    "prompts/list": ("prompts", "prompts"),
}
"""A list method -> (the result's key, the kind of change that stales it)."""
_MAX_PAGES = 100


@dataclass
class View:
    """A merged list as one client sees it."""

    items: list[dict[str, Any]]
    routes: dict[str, tuple[Member, str]]
    """Name a client sees -> the member and the name in its kernel (tools and prompts)."""
    renamed: list[tuple[str, str, str]] = field(default_factory=list)
    """(member key, name in its kernel, name given) for names that collided across notebooks."""
    complete: bool = True
    """Every member answered (a view missing one is not kept)."""
    encoded: dict[str, bytes] = field(default_factory=dict)
    """The result as JSON, per protocol version."""


class Catalog:
    """Members' lists, fetched on demand and dropped when they change."""

    def __init__(self) -> None:
        self._lists: dict[tuple[object, ...], list[dict[str, Any]]] = {}
        self._views: dict[tuple[object, ...], View] = {}
        self._fetching: dict[tuple[object, ...], asyncio.Task[list[dict[str, Any]]]] = {}
        self._generation = 0

    def changed(self, change: Change) -> None:
        stale = [key for key in self._lists if key[0] in change.keys and LISTS[str(key[2])][1] in change.kinds]
        for key in stale:
            del self._lists[key]
        self._generation += 1
        self._views.clear()

    async def view(self, members: list[Member], method: str, version: str, capabilities: str) -> View:
        """The merged list of ``method`` over ``members`` (``capabilities``: the client's, as JSON)."""
        key = (self._generation, tuple(member.identity for member in members), method, version, capabilities)
        cached = self._views.get(key)
        if cached is not None:
            return cached
        generation = self._generation
        found = await asyncio.gather(*(self._items(m, method, version, capabilities) for m in members))
        view = merge(members, method, found)
        if view.complete and generation == self._generation:
            self._views[key] = view
        return view

    async def _items(self, member: Member, method: str, version: str, capabilities: str) -> list[dict[str, Any]] | None:
        key = (member.key, member.identity, method, capabilities)
        items = self._lists.get(key)
        if items is None:
            fetching = self._fetching.get(key)
            if fetching is None:  # one request per list, however many clients ask at once
                fetching = asyncio.get_running_loop().create_task(self._fetch(member, method, capabilities, key))
                self._fetching[key] = fetching
            try:
                items = await asyncio.shield(fetching)
            except (HttpError, ValueError) as error:
                logger.info("%s did not list its %s: %s", member.label, LISTS[method][0], error)
                return None
        return shaped(method, version, items)

    async def _fetch(
        self, member: Member, method: str, capabilities: str, key: tuple[object, ...]
    ) -> list[dict[str, Any]]:
        generation = self._generation
        try:
            items = await fetch(member, method, capabilities)
        finally:
            self._fetching.pop(key, None)
        if generation == self._generation:  # not a list that changed while it was asked for
            self._lists[key] = items
        return items

    async def warm(self, member: Member) -> None:
        """Ask a member that joined or changed for its tools now, so the first client to ask waits less
        (its kernel builds the list while no one waits, and keeps it)."""
        await self._items(member, "tools/list", LATEST_MODERN_VERSION, "{}")

    def drop(self) -> None:
        for fetching in self._fetching.values():
            fetching.cancel()
        self._lists.clear()
        self._views.clear()


async def fetch(member: Member, method: str, capabilities: str) -> list[dict[str, Any]]:
    """Every page of a member's list (2026 era); ``ValueError`` when the kernel's answer is not a list."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(_MAX_PAGES):
        meta = {
            PROTOCOL_VERSION_META_KEY: LATEST_MODERN_VERSION,
            CLIENT_CAPABILITIES_META_KEY: json.loads(capabilities),
        }
        params: dict[str, Any] = {"_meta": meta, **({"cursor": cursor} if cursor else {})}
        body = json.dumps({"jsonrpc": "2.0", "id": "union-list", "method": method, "params": params}).encode()
        headers = (("Mcp-Protocol-Version", LATEST_MODERN_VERSION), ("Mcp-Method", method))
        answer = await upstream.answer(await upstream.post(member.carrier, member.info, body, headers), "union-list")
        result = answer.get("result")
        if not isinstance(result, dict) or not isinstance(result.get(LISTS[method][0]), list):
            raise ValueError(f"the kernel answered {method} with {str(answer.get('error') or answer)[:200]}")
        items.extend(item for item in result[LISTS[method][0]] if isinstance(item, dict))
        cursor = result.get("nextCursor") if isinstance(result.get("nextCursor"), str) else None
        if cursor is None:
            break
    return items


def shaped(method: str, version: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Items as a client of ``version`` gets them from the kernel (fields of a newer revision dropped)."""
    if version in MODERN_PROTOCOL_VERSIONS:
        return items
    key = LISTS[method][0]
    try:
        result = serialize_server_result(method, version, {key: items})
    except (ValidationError, ValueError, KeyError):
        return items
    found = result.get(key)
    return found if isinstance(found, list) else items


def merge(members: list[Member], method: str, found: list[list[dict[str, Any]] | None]) -> View:
    """One list: each member's items namespaced with its prefix; names that still collide numbered."""
    view = View([], {}, complete=all(items is not None for items in found))
    rename = _RENAMES[LISTS[method][0]]
    for member, items in sorted(zip(members, found, strict=True), key=lambda pair: pair[0].key):
        for item in items or []:
            named = rename(member, item)
            if method in ("tools/list", "prompts/list"):
                _route(view, member, item, named)
            view.items.append(named)
    return view


def _route(view: View, member: Member, item: dict[str, Any], named: dict[str, Any]) -> None:
    original, name = str(item.get("name", "")), str(named["name"])
    if name in view.routes:
        base, count = name, 2
        while f"{base}_{count}" in view.routes:
            count += 1
        name = named["name"] = f"{base}_{count}"
        view.renamed.append((member.key, original, name))
    view.routes[name] = (member, original)


def _tool(member: Member, item: dict[str, Any]) -> dict[str, Any]:
    named = {**item, "name": member.named(str(item.get("name", ""))), **_labels(member, item)}
    meta = item.get("_meta")
    if isinstance(meta, dict) and _app_uri(meta) is not None:
        named["_meta"] = _app_meta(member, meta)
    return named


def _resource(member: Member, item: dict[str, Any]) -> dict[str, Any]:
    uri = namespaced_uri(member.prefix, str(item.get("uri", "")))
    return {**item, "uri": uri, "name": member.named(str(item.get("name", ""))), **_labels(member, item)}


def _template(member: Member, item: dict[str, Any]) -> dict[str, Any]:
    uri = namespaced_uri(member.prefix, str(item.get("uriTemplate", "")))
    named = {**item, "uriTemplate": uri, "name": member.named(str(item.get("name", "")))}
    return {**named, **_labels(member, item)}


def _prompt(member: Member, item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "name": member.named(str(item.get("name", ""))), **_labels(member, item)}


_RENAMES = {"tools": _tool, "resources": _resource, "resourceTemplates": _template, "prompts": _prompt}


def _labels(member: Member, item: dict[str, Any]) -> dict[str, str]:
    """Title and description that say which notebook the component comes from (the notebook tools' own say
    what they are already)."""
    if member.bare:
        return {}
    title = item.get("title") or item.get("name") or ""
    description = str(item.get("description") or "").rstrip()
    origin = f"From the notebook {member.label}."
    return {"title": f"{title} ({member.name})", "description": f"{description}\n\n{origin}" if description else origin}


def _app_uri(meta: dict[str, Any]) -> str | None:
    ui = meta.get("ui")
    uri = ui.get("resourceUri") if isinstance(ui, dict) else meta.get("ui/resourceUri")
    return uri if isinstance(uri, str) else None


def _app_meta(member: Member, meta: dict[str, Any]) -> dict[str, Any]:
    """An MCP App's ``ui://`` resource is the notebook's: its URI is namespaced like every resource's."""
    named = dict(meta)
    ui = meta.get("ui")
    if isinstance(ui, dict) and isinstance(ui.get("resourceUri"), str):
        named["ui"] = {**ui, "resourceUri": namespaced_uri(member.prefix, ui["resourceUri"])}
    if isinstance(meta.get("ui/resourceUri"), str):
        named["ui/resourceUri"] = namespaced_uri(member.prefix, meta["ui/resourceUri"])
    return named
