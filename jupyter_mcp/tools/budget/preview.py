"""A preview of a result over budget: a table's first rows, a text's head and tail, a smaller image.

The preview says exactly what it left out and ends with the link to the full value. An error's
preview starts with the (cut) error text itself, as clients show an error's first block. It is built
with limits (items per list, characters per string, image bytes) halved until it fits the budget.
Structured content stays valid against the tool's output schema, or the client gets a short
message and the link instead.
"""

from __future__ import annotations

import base64
import importlib.util
import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mcp_types as mt

from jupyter_mcp.tools import codec
from jupyter_mcp.tools.components.returns import ContentBlock

Check = Callable[[Any], bool] | None
_MAX_NOTES = 6
_MIN_CHARS = 64


def result_size(result: mt.CallToolResult) -> int:
    """Bytes of ``result`` as JSON on the wire (the text and the structured value), in the larger encoding.

    Both eras send UTF-8 now (the SDK's JSON in 2025-era sessions, ``codec`` in the 2026 era), but a
    JSON encoder may escape every non-ASCII character as ``\\uXXXX`` (6 bytes, a surrogate pair 12),
    as the SDK's 2026-era entry did, so that is what is counted: an upper bound either way.
    """
    data = result.model_dump_json(by_alias=True, exclude_none=True)
    if data.isascii():
        return len(data)
    ascii_chars = len(data.encode("ascii", "ignore"))
    utf16_units = len(data.encode("utf-16-le")) // 2
    return ascii_chars + 6 * (utf16_units - ascii_chars)


def size_at_most(result: mt.CallToolResult) -> int:
    """An upper bound of ``result_size(result)`` from the lengths of its parts, without encoding the whole
    result: a character takes at most 12 bytes there (a surrogate pair, each escaped). ``sys.maxsize``
    when a part is not a plain text block or a structured value (then only the exact size tells)."""
    total = 256  # the members' names, isError and punctuation
    if result.meta:
        return sys.maxsize
    for block in result.content:
        if type(block) is not mt.TextContent or block.meta or block.annotations:
            return sys.maxsize
        total += 64 + 12 * len(block.text)
    if result.structured_content is not None:
        try:
            total += 12 * len(codec.dumps(result.structured_content))
        except (TypeError, ValueError):
            return sys.maxsize
    return total


def format_size(size: int) -> str:
    """``"1.2 MB"``, ``"640 kB"``, ``"900 bytes"`` (decimal units, as a budget is written)."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    if size >= 10_000:
        return f"{size / 1000:.0f} kB"
    return f"{size:,} bytes"


@dataclass(frozen=True)
class Limits:
    items: int
    chars: int
    image: int

    @classmethod
    def for_budget(cls, budget: int) -> Limits:
        return cls(items=50, chars=budget // 8, image=budget // 2)

    def halved(self) -> Limits | None:
        if self.items <= 1 and self.chars <= _MIN_CHARS:
            return None
        return Limits(max(1, self.items // 2), max(_MIN_CHARS, self.chars // 2), self.image // 2)


@dataclass
class _Cut:
    """What a preview left out, in words."""

    notes: list[str] = field(default_factory=list)

    def add(self, note: str) -> None:
        self.notes.append(note)

    def __str__(self) -> str:
        shown = self.notes[:_MAX_NOTES]
        more = len(self.notes) - len(shown)
        return "; ".join(shown) + (f"; and {more} more cuts" if more > 0 else "")


def build_preview(
    result: mt.CallToolResult, *, size: int, budget: int, link: mt.ResourceLink, check: Check
) -> mt.CallToolResult:
    """The largest preview of ``result`` (halving limits) whose JSON fits ``budget`` bytes."""
    limits: Limits | None = Limits.for_budget(budget)
    while limits is not None:
        preview = _attempt(result, limits, size=size, budget=budget, link=link, check=check)
        if preview is None:
            break
        if result_size(preview) <= budget:
            return preview
        limits = limits.halved()
    return _link_only(size, budget, link)


def _attempt(
    result: mt.CallToolResult, limits: Limits, *, size: int, budget: int, link: mt.ResourceLink, check: Check
) -> mt.CallToolResult | None:
    cut = _Cut()
    structured = result.structured_content
    shrunk = shrink(structured, limits, cut, "") if structured is not None else None
    if shrunk is not None and check is not None and not check(shrunk):
        return None
    # With a structured value, the text blocks repeat it: its cuts are already said once.
    block_cut = cut if structured is None else _Cut()
    blocks = [b for block in result.content for b in _block(block, limits, block_cut)]
    if result.is_error:
        note = mt.TextContent(type="text", text=_error_summary(size, budget, cut, link))
        content = [*blocks, note, link]
        return mt.CallToolResult(content=content, structured_content=shrunk, meta=result.meta, is_error=True)
    head = mt.TextContent(type="text", text=_summary(size, budget, structured, cut, link))
    return mt.CallToolResult(content=[head, *blocks, link], structured_content=shrunk, meta=result.meta)


def _summary(size: int, budget: int, structured: Any, cut: _Cut, link: mt.ResourceLink) -> str:
    shape = _table_shape(structured)
    what = f"a table of {shape[0]:,} rows × {shape[1]:,} columns, " if shape else ""
    return (
        f"This result is {what}{format_size(size)} as JSON, over this server's result budget of "
        f"{format_size(budget)}, so this is a preview ({cut or 'nothing cut'}). "
        f"The full value is at {link.uri} (read it with resources/read)."
    )


def _error_summary(size: int, budget: int, cut: _Cut, link: mt.ResourceLink) -> str:
    return (
        f"This error is {format_size(size)} as JSON, over this server's result budget of {format_size(budget)}, "
        f"so the client gets a preview ({cut or 'nothing cut'}). The full error text is at {link.uri} "
        "(read it with resources/read)."
    )


def _table_shape(structured: Any) -> tuple[int, int] | None:
    if isinstance(structured, dict) and isinstance(structured.get("records"), list):
        columns = structured.get("columns")
        if isinstance(columns, list):
            return len(structured["records"]), len(columns)
    return None


def _link_only(size: int, budget: int, link: mt.ResourceLink) -> mt.CallToolResult:
    message = (
        f"This result is {format_size(size)} as JSON, over this server's result budget of {format_size(budget)}, "
        f"and no preview of it fits its output schema and the budget. The full value is at {link.uri} "
        "(read it with resources/read)."
    )
    return mt.CallToolResult(content=[mt.TextContent(type="text", text=message), link], is_error=True)


# ---- values ----------------------------------------------------------------------------------------


def shrink(value: Any, limits: Limits, cut: _Cut, path: str) -> Any:
    """``value`` with long strings cut to head and tail and long lists to their first items; ``cut`` says where."""
    if isinstance(value, str):
        return _text(value, limits.chars, cut, path or "text")
    if isinstance(value, list):
        kept = value[: limits.items]
        if len(value) > len(kept):
            cut.add(f"{path or 'list'}: first {len(kept):,} of {len(value):,} items")
        return [shrink(item, limits, cut, f"{path}[{i}]") for i, item in enumerate(kept)]
    if isinstance(value, dict):
        return {key: shrink(item, limits, cut, f"{path}.{key}" if path else str(key)) for key, item in value.items()}
    return value


def _text(text: str, limit: int, cut: _Cut, where: str) -> str:
    if len(text) <= limit:
        return text
    head, tail = limit // 2, limit - limit // 2
    cut.add(f"{where}: first {head:,} and last {tail:,} of {len(text):,} characters")
    return head_and_tail(text, limit)


def head_and_tail(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else its head and tail with a marker saying how much
    was left out between them (and that the full text is at the link)."""
    if len(text) <= limit:
        return text
    head, tail = limit // 2, limit - limit // 2
    omitted = len(text) - head - tail
    marker = f"\n[… {omitted:,} characters left out here; the full text is at the link …]\n"
    return text[:head] + marker + text[-tail:]


# ---- content blocks ---------------------------------------------------------------------------------


def _block(block: ContentBlock, limits: Limits, cut: _Cut) -> list[ContentBlock]:
    if isinstance(block, mt.TextContent):
        return [replace_text(block, limits, cut)]
    if isinstance(block, mt.ImageContent):
        return [_image(block, limits.image, cut)]
    if isinstance(block, mt.AudioContent | mt.EmbeddedResource) and len(block.model_dump_json()) > limits.image:
        cut.add(f"a {_kind(block)} block of {len(block.model_dump_json()):,} bytes")
        return []
    return [block]


def _kind(block: ContentBlock) -> str:
    if isinstance(block, mt.AudioContent):
        return f"{block.mime_type} audio"
    return "resource"


def replace_text(block: mt.TextContent, limits: Limits, cut: _Cut) -> mt.TextContent:
    """A text block within ``limits``: JSON text shrunk as a value (still JSON), other text head + tail."""
    text = block.text
    if len(text) <= limits.chars:
        return block
    value = _json(text)
    if value is not None:
        shrunk = json.dumps(shrink(value, limits, _Cut(), ""), ensure_ascii=False)
        if len(shrunk) <= limits.chars * 2:
            return mt.TextContent(type="text", text=shrunk)
    return mt.TextContent(type="text", text=_text(text, limits.chars, cut, "text"))


def _json(text: str) -> Any:
    if text.lstrip()[:1] not in ("{", "["):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _image(block: mt.ImageContent, limit: int, cut: _Cut) -> ContentBlock:
    if len(block.data) <= limit:
        return block
    raw = base64.b64decode(block.data)
    smaller = downscale(raw, limit * 3 // 4) if importlib.util.find_spec("PIL") is not None else None
    if smaller is None:
        cut.add(f"a {block.mime_type} image of {len(raw):,} bytes (Pillow could not make a smaller one)")
        return mt.TextContent(type="text", text=f"[{block.mime_type} image of {len(raw):,} bytes: at the link]")
    data, (width, height), (new_width, new_height) = smaller
    cut.add(f"the {width}×{height} image scaled to {new_width}×{new_height}")
    return mt.ImageContent(type="image", data=base64.b64encode(data).decode(), mime_type="image/png")


def downscale(raw: bytes, max_bytes: int) -> tuple[bytes, tuple[int, int], tuple[int, int]] | None:
    """A PNG of the image in ``raw`` scaled down until it takes at most ``max_bytes`` (Pillow), else ``None``."""
    from PIL import Image as PILImage

    try:
        image = PILImage.open(io.BytesIO(raw))
        image.load()
    except (OSError, ValueError):
        return None
    original = image.size
    scale = min(1.0, (max_bytes / max(len(raw), 1)) ** 0.5)
    for _ in range(8):
        size = (max(1, int(original[0] * scale)), max(1, int(original[1] * scale)))
        buffer = io.BytesIO()
        image.resize(size).save(buffer, format="PNG", optimize=True)
        if buffer.tell() <= max_bytes:
            return buffer.getvalue(), original, size
        scale *= 0.7
    return None
