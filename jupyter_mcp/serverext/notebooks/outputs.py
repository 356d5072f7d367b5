"""A cell's outputs as an MCP client reads them: short texts, small images, rich outputs summarised.

- stream and error outputs, ``text/plain``, ``text/markdown``, JSON: text with the ANSI colours removed,
  cut to its head and tail past ``text_chars`` (``budget.preview.head_and_tail``);
- ``image/png`` and ``image/jpeg``: an image block, downscaled with Pillow to ``image_bytes`` when it is
  larger (``budget.preview.downscale``); without Pillow, a line saying what the image is;
- HTML, widgets, SVG and any other MIME type: a summary (types and size).

Whatever is cut or smaller than the output itself keeps the whole output behind a ``result://`` link
(the server's ``ResultLinks``, bounded like every preview's full value), named in the entry.
"""

from __future__ import annotations

import base64
import binascii
import importlib.util
import json
import re
from dataclasses import dataclass, field
from typing import Any

import mcp_types as mt

from jupyter_mcp.prefixes import namespaced_uri
from jupyter_mcp.shapes.notebooks import OutputEntry
from jupyter_mcp.tools.budget.links import ResultLinks
from jupyter_mcp.tools.budget.preview import downscale, format_size, head_and_tail
from jupyter_mcp.tools.components.resource_contents import ResourceContents

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_IMAGES = ("image/png", "image/jpeg")
_TEXTS = ("text/plain", "text/markdown", "application/json", "text/latex")


@dataclass(frozen=True)
class OutputLimits:
    text_chars: int = 4_000
    """Characters of one output's text a client gets (its head and tail)."""
    image_bytes: int = 60_000
    """Bytes of one image a client gets (a larger one is downscaled)."""


@dataclass
class Outputs:
    """Renders the outputs of one answer; its image blocks go in ``blocks``, after the answer's first block."""

    links: ResultLinks
    call_id: str
    prefix: str
    """The notebook tools' prefix at ``/mcp``: links are named as clients of the union read them."""
    limits: OutputLimits = field(default_factory=OutputLimits)
    blocks: list[mt.ImageContent] = field(default_factory=list)
    _kept: int = 0

    def entries(self, outputs: list[dict[str, Any]]) -> list[OutputEntry]:
        return [self.entry(output) for output in outputs]

    def entry(self, output: dict[str, Any]) -> OutputEntry:
        kind = str(output.get("output_type", ""))
        if kind == "stream":
            return self._text(kind, str(output.get("text", "")))
        if kind == "error":
            traceback = "\n".join(str(line) for line in output.get("traceback") or [])
            fallback = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
            return self._text(kind, traceback or fallback)
        data = output.get("data")
        return self._rich(kind, data if isinstance(data, dict) else {})

    def _text(self, kind: str, text: str) -> OutputEntry:
        clean = ANSI.sub("", text)
        entry: OutputEntry = {"output_type": kind, "text": head_and_tail(clean, self.limits.text_chars)}
        if len(clean) > self.limits.text_chars:
            entry["link"] = self._keep([mt.TextResourceContents(uri="", text=clean, mime_type="text/plain")])
        return entry

    def _rich(self, kind: str, data: dict[str, Any]) -> OutputEntry:
        mimes = list(data)
        image = next((mime for mime in _IMAGES if isinstance(data.get(mime), str)), None)
        if image is not None:
            entry = self._image(kind, image, str(data[image]))
        else:
            text = next((mime for mime in _TEXTS if mime in data), None)
            entry = self._text(kind, _as_text(data[text])) if text is not None else {"output_type": kind}
        entry["mime_types"] = mimes
        shown = {image} if image is not None else {m for m in _TEXTS if m in data}
        others = [mime for mime in mimes if mime not in shown and mime != "text/plain"]
        if others:
            entry["summary"] = ", ".join(f"{mime}, {format_size(len(_as_text(data[mime])))}" for mime in others)
        return entry

    def _image(self, kind: str, mime: str, data: str) -> OutputEntry:
        entry: OutputEntry = {"output_type": kind}
        compact = data.replace("\n", "")
        try:
            raw = base64.b64decode(compact, validate=True)
        except (binascii.Error, ValueError):
            entry["summary"] = f"{mime}, not valid base64"
            return entry
        if len(raw) <= self.limits.image_bytes:
            return self._show(entry, mt.ImageContent(type="image", data=compact, mime_type=mime))
        original = mt.BlobResourceContents(uri="", blob=compact, mime_type=mime)
        entry["link"] = self._keep([original])
        smaller = downscale(raw, self.limits.image_bytes) if importlib.util.find_spec("PIL") is not None else None
        if smaller is None:
            entry["summary"] = f"{mime}, {format_size(len(raw))} (the image is at the link)"
            return entry
        png, (width, height), (new_width, new_height) = smaller
        entry["summary"] = f"{mime}, {width}×{height} shown at {new_width}×{new_height} (the original is at the link)"
        return self._show(
            entry, mt.ImageContent(type="image", data=base64.b64encode(png).decode(), mime_type="image/png")
        )

    def _show(self, entry: OutputEntry, block: mt.ImageContent) -> OutputEntry:
        self.blocks.append(block)
        entry["image"] = len(self.blocks)  # the answer's first block is its text: images follow it
        return entry

    def _keep(self, contents: list[ResourceContents]) -> str:
        """Keep an output whole for a ``result://`` link; the URI as clients of ``/mcp`` read it."""
        self._kept += 1
        key = f"{self.call_id}-{self._kept}"
        uri = f"result://{key}"
        kept = [item.model_copy(update={"uri": uri}) for item in contents]
        size = sum(len(getattr(item, "text", "") or getattr(item, "blob", "")) for item in kept)
        self.links.put(key, kept, size, "jupyter_read")
        return namespaced_uri(self.prefix, uri)


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "".join(value)
    return json.dumps(value, ensure_ascii=False)
