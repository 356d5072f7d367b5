"""``ResultLinks``: the full values behind ``result://<call id>`` links, bounded in bytes, count and time.

A preview's link is only useful while its full value is kept, and kept values must not grow
without bound: the oldest go first once ``result_links_bytes`` or ``result_links_count`` (server
settings) is passed, and each one expires ``result_links_ttl`` seconds after its call. The
link's description says when.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import mcp_types as mt

from jupyter_mcp.tools.components.resource_contents import JSON, TEXT, ResourceContents
from jupyter_mcp.tools.components.results import jsonable
from jupyter_mcp.tools.errors import ResourceNotFoundError
from jupyter_mcp.tools.settings import ServerSettings

RESULT_TEMPLATE = "result://{call_id}"


@dataclass(frozen=True)
class _Kept:
    contents: list[ResourceContents]
    size: int
    expires: float


class ResultLinks:
    """Full results by call id, for ``resources/read`` of their links. Safe across threads."""

    def __init__(self, settings: ServerSettings | None = None) -> None:
        self.settings = settings or ServerSettings()
        self._items: OrderedDict[str, _Kept] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """Bytes kept now (as the values measured when sent)."""
        with self._lock:
            self._expire(time.time())
            return self._bytes

    def __len__(self) -> int:
        with self._lock:
            self._expire(time.time())
            return len(self._items)

    def put(
        self, call_id: str, contents: list[ResourceContents], size: int, tool: str, *, error: bool = False
    ) -> mt.ResourceLink:
        """Keep a call's full value (its full error text with ``error``); returns the link a preview carries."""
        now = time.time()
        with self._lock:
            self._expire(now)
            if size <= self.settings.result_links_bytes:
                self._items[call_id] = _Kept(contents, size, now + self.settings.result_links_ttl)
                self._bytes += size
                self._evict()
        what = "error" if error else "result"
        return self._link(call_id, contents, size, (what, tool), now, kept=size <= self.settings.result_links_bytes)

    def get(self, call_id: str) -> list[ResourceContents] | None:
        with self._lock:
            self._expire(time.time())
            kept = self._items.get(call_id)
        return kept.contents if kept is not None else None

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def read(self, call_id: str) -> list[ResourceContents]:
        """The template's function: the full value, or ``ResourceNotFoundError`` saying why it is gone."""
        contents = self.get(call_id)
        if contents is None:
            uri = RESULT_TEMPLATE.format(call_id=call_id)
            raise ResourceNotFoundError(
                uri,
                f"{uri} is not kept (any more): full results are kept for {self.settings.result_links_ttl:g} s and "
                f"at most {self.settings.result_links_bytes:,} bytes in all; call the tool again",
            )
        return contents

    # ---- bounds ----------------------------------------------------------------------------------

    def _expire(self, now: float) -> None:
        while self._items:
            call_id, kept = next(iter(self._items.items()))
            if kept.expires > now:
                return
            self._drop(call_id)

    def _evict(self) -> None:
        while self._items and (
            self._bytes > self.settings.result_links_bytes or len(self._items) > self.settings.result_links_count
        ):
            self._drop(next(iter(self._items)))

    def _drop(self, call_id: str) -> None:
        kept = self._items.pop(call_id)
        self._bytes -= kept.size

    def _link(
        self,
        call_id: str,
        contents: list[ResourceContents],
        size: int,
        of: tuple[str, str],
        now: float,
        *,
        kept: bool,
    ) -> mt.ResourceLink:
        what, tool = of
        until = time.strftime("%H:%M:%S UTC", time.gmtime(now + self.settings.result_links_ttl))
        room = self.settings.result_links_bytes
        if kept:
            note = f"kept until {until}, or less if newer big results need the room ({room:,} bytes in all)"
        else:
            note = f"not kept: larger than the {room:,} bytes this server keeps for full results"
        return mt.ResourceLink(
            type="resource_link",
            uri=f"result://{call_id}",
            name=f"result-{call_id}",
            title=f"Full {what} of {tool}",
            description=f"The full {what} of this call of {tool!r} ({size:,} bytes as JSON); {note}.",
            mime_type=contents[0].mime_type if contents else None,
            size=size,
        )


def full_contents(result: mt.CallToolResult, uri: str, *, wrapped: bool = False) -> list[ResourceContents]:
    """What ``resources/read`` of a link returns: the structured value as JSON (a wrapped text as text),
    else one item per content block."""
    structured = result.structured_content
    if structured is not None:
        value = structured.get("result") if wrapped and isinstance(structured, dict) else structured
        if isinstance(value, str):
            return [mt.TextResourceContents(uri=uri, text=value, mime_type=TEXT)]
        text = json.dumps(jsonable(value), ensure_ascii=False)
        return [mt.TextResourceContents(uri=uri, text=text, mime_type=JSON)]
    return [item for block in result.content for item in _block_contents(block, uri)]


def _block_contents(block: Any, uri: str) -> list[ResourceContents]:
    if isinstance(block, mt.TextContent):
        return [mt.TextResourceContents(uri=uri, text=block.text, mime_type=TEXT)]
    if isinstance(block, mt.ImageContent | mt.AudioContent):
        return [mt.BlobResourceContents(uri=uri, blob=block.data, mime_type=block.mime_type)]
    if isinstance(block, mt.EmbeddedResource):
        return [block.resource]
    if isinstance(block, mt.ResourceLink):
        return [mt.TextResourceContents(uri=uri, text=block.uri, mime_type="text/uri-list")]
    return [mt.TextResourceContents(uri=uri, text=str(block), mime_type=TEXT)]
