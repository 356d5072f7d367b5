"""Python values -> MCP content blocks and structuredContent.

The notebook-native part: matplotlib figures, PIL images and pandas DataFrames convert when
those libraries are already imported (never imported here), and any object with IPython
``_repr_*_`` methods becomes its best block.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import sys
from typing import Any

import mcp_types as mt
import pydantic_core
from pydantic import BaseModel

from jupyter_mcp.tools.components.returns import Audio, ContentBlock, File, Image, ToolResult

_CONTENT_TYPES = (mt.TextContent, mt.ImageContent, mt.AudioContent, mt.EmbeddedResource, mt.ResourceLink)
_HELPERS = (Image, Audio, File)
_TABLE_ROWS = 50


@dataclasses.dataclass(frozen=True)
class Converted:
    content: list[ContentBlock]
    structured: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None


def to_json_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(jsonable(value), ensure_ascii=False)


def jsonable(value: Any) -> Any:
    """A JSON-compatible form of ``value``; unknown objects fall back to ``str()``."""
    return pydantic_core.to_jsonable_python(value, fallback=str, serialize_unknown=True)


def text(value: str) -> mt.TextContent:
    return mt.TextContent(type="text", text=value)


def convert_tool_result(result: ToolResult) -> Converted:
    """``ToolResult`` passes through: only its ``content`` shorthand is expanded."""
    if result.content is None:
        content: list[ContentBlock] = [text(to_json_text(result.structured_content))]
    else:
        content = convert_content(result.content)
    return Converted(content, result.structured_content, result.meta)


def convert_content(value: Any) -> list[ContentBlock]:
    """Content blocks for any value (no structured part)."""
    if value is None:
        return []
    block = as_block(value)
    if block is not None:
        return block
    if isinstance(value, list | tuple) and any(is_content_like(v) for v in value):
        return [b for item in value for b in convert_content(item)]
    return [text(to_json_text(value))]


def is_content_like(value: Any) -> bool:
    return isinstance(value, (str, bytes, *_CONTENT_TYPES, *_HELPERS)) or rich_kind(value) is not None


def as_block(value: Any) -> list[ContentBlock] | None:
    """The blocks for a single content-like value, else ``None``."""
    if isinstance(value, str):
        return [text(value)]
    if isinstance(value, _CONTENT_TYPES):
        return [value]
    if isinstance(value, _HELPERS):
        return [value.to_content()]
    if isinstance(value, bytes | bytearray):
        return [File(data=bytes(value), format="application/octet-stream", name="data.bin").to_content()]
    kind = rich_kind(value)
    if kind is None:
        return None
    return _RICH_CONVERTERS[kind](value)


def convert_unannotated(value: Any) -> Converted:
    """A result without an output schema: objects become structured, the rest content."""
    if isinstance(value, ToolResult):
        return convert_tool_result(value)
    if rich_kind(value) == "dataframe":
        return Converted(_dataframe_blocks(value), _dataframe_structured(value))
    blocks = as_block(value)
    if blocks is not None:
        return Converted(blocks)
    if is_structured_object(value):
        data = jsonable(value)
        return Converted([text(to_json_text(data))], data)
    return Converted(convert_content(value))


def is_structured_object(value: Any) -> bool:
    if isinstance(value, BaseModel) or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        return True
    return isinstance(value, dict)


# ---- notebook-native values ----------------------------------------------------------------------


def rich_kind(value: Any) -> str | None:
    module = type(value).__module__
    if "matplotlib" in sys.modules and module.startswith("matplotlib") and hasattr(value, "savefig"):
        return "figure"
    if "PIL" in sys.modules and module.startswith("PIL") and hasattr(value, "save") and hasattr(value, "mode"):
        return "pil"
    if "pandas" in sys.modules and module.startswith("pandas") and type(value).__name__ == "DataFrame":
        return "dataframe"
    if isinstance(value, type):
        return None
    for method in _REPR_ORDER:
        if callable(getattr(value, method, None)):
            return "repr"
    return None


def _figure_blocks(figure: Any) -> list[ContentBlock]:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return [Image(data=buffer.getvalue(), format="png").to_content()]


def _pil_blocks(image: Any) -> list[ContentBlock]:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return [Image(data=buffer.getvalue(), format="png").to_content()]


def _dataframe_structured(frame: Any) -> dict[str, Any]:
    records = json.loads(frame.to_json(orient="records", date_format="iso"))
    return {"columns": [str(c) for c in frame.columns], "records": records}


def _dataframe_blocks(frame: Any) -> list[ContentBlock]:
    return [text(markdown_table(frame))]


def markdown_table(frame: Any, max_rows: int = _TABLE_ROWS) -> str:
    """A GitHub-style markdown table of a DataFrame's first ``max_rows`` rows."""
    columns = [str(c) for c in frame.columns]
    shown = frame.head(max_rows)
    rows = [[_cell(v) for v in row] for row in shown.itertuples(index=False, name=None)]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    if len(frame) > max_rows:
        lines.append(f"\n({len(frame)} rows, first {max_rows} shown)")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


_REPR_ORDER = ("_repr_png_", "_repr_jpeg_", "_repr_svg_", "_repr_markdown_", "_repr_html_")


def _repr_blocks(value: Any) -> list[ContentBlock]:
    for method in _REPR_ORDER:
        data = _call_repr(value, method)
        if data is None:
            continue
        block = _repr_block(method, data)
        if block is not None:
            return [block]
    return [text(repr(value))]


def _call_repr(value: Any, method: str) -> Any:
    fn = getattr(value, method, None)
    if not callable(fn):
        return None
    data = fn()
    # IPython allows (data, metadata) tuples from _repr_*_.
    return data[0] if isinstance(data, tuple) and data else data


def _repr_block(method: str, data: Any) -> ContentBlock | None:
    if method in ("_repr_png_", "_repr_jpeg_"):
        raw = data if isinstance(data, bytes) else base64.b64decode(data)
        return Image(data=raw, format="png" if method == "_repr_png_" else "jpeg").to_content()
    if method == "_repr_svg_":
        raw = data.encode() if isinstance(data, str) else data
        return Image(data=raw, format="svg").to_content()
    return text(str(data))


_RICH_CONVERTERS = {
    "figure": _figure_blocks,
    "pil": _pil_blocks,
    "dataframe": _dataframe_blocks,
    "repr": _repr_blocks,
}
