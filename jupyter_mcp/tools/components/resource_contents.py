"""What a resource function returns -> the ``contents`` of a ``resources/read`` result.

``str`` is text, ``bytes`` a blob, dicts, lists, dataclasses and pydantic models JSON; the notebook's
own types convert as the tool layer converts them: a DataFrame to JSON records, CSV or a markdown
table (by the resource's MIME type), a matplotlib figure or PIL image to a PNG blob, any object with
IPython ``_repr_*_`` methods to its best representation. ``Image``/``Audio``/``File`` helpers and
MCP ``*ResourceContents`` pass through.
"""

from __future__ import annotations

import base64
import dataclasses
import inspect
import json
import typing
from collections.abc import Callable
from typing import Any

import mcp_types as mt
from pydantic import BaseModel

from jupyter_mcp.tools.components.results import jsonable, markdown_table, rich_kind
from jupyter_mcp.tools.components.returns import Audio, File, Image

ResourceContents = mt.TextResourceContents | mt.BlobResourceContents
_CONTENTS = (mt.TextResourceContents, mt.BlobResourceContents)

TEXT = "text/plain"
JSON = "application/json"
BINARY = "application/octet-stream"
PNG = "image/png"


def to_contents(value: Any, uri: str, mime_type: str | None) -> list[ResourceContents]:
    """The contents for ``value`` read at ``uri``; ``mime_type`` is the resource's declared type, if any."""
    if isinstance(value, _CONTENTS):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, _CONTENTS) for v in value):
        return list(value)
    if isinstance(value, Image | Audio | File):
        return [_blob(uri, value.read(), mime_type or value.mime_type)]
    if isinstance(value, str):
        return [_text(uri, value, mime_type or TEXT)]
    if isinstance(value, bytes | bytearray | memoryview):
        return [_blob(uri, bytes(value), mime_type or BINARY)]
    kind = rich_kind(value)
    if kind is not None:
        return [_RICH[kind](value, uri, mime_type)]
    return [_text(uri, json.dumps(jsonable(value), ensure_ascii=False), mime_type or JSON)]


def mime_for_annotation(annotation: Any) -> str | None:
    """The MIME type a return annotation promises (``-> str`` is text, ``-> dict`` JSON), if it says one."""
    if annotation is inspect.Signature.empty or annotation is Any:
        return None
    origin = typing.get_origin(annotation) or annotation
    if origin in (Image, Audio, File):
        return None  # the value's own format says which
    if origin is str:
        return TEXT
    if origin in (bytes, bytearray):
        return BINARY
    if origin in (dict, list, tuple, int, float, bool) or _is_model(origin):
        return JSON
    name = getattr(origin, "__name__", "")
    if name == "DataFrame":
        return JSON
    if name == "Figure":
        return PNG
    return None


def _is_model(annotation: Any) -> bool:
    if not isinstance(annotation, type):
        return False
    return issubclass(annotation, BaseModel) or dataclasses.is_dataclass(annotation) or typing.is_typeddict(annotation)


def _text(uri: str, text: str, mime_type: str) -> mt.TextResourceContents:
    return mt.TextResourceContents(uri=uri, mime_type=mime_type, text=text)


def _blob(uri: str, data: bytes, mime_type: str) -> mt.BlobResourceContents:
    return mt.BlobResourceContents(uri=uri, mime_type=mime_type, blob=base64.b64encode(data).decode("ascii"))


# ---- notebook-native values ----------------------------------------------------------------------


def _dataframe(frame: Any, uri: str, mime_type: str | None) -> ResourceContents:
    if mime_type == "text/csv":
        return _text(uri, frame.to_csv(index=False), mime_type)
    if mime_type == "text/markdown":
        return _text(uri, markdown_table(frame, max_rows=len(frame)), mime_type)
    if mime_type == "text/html":
        return _text(uri, frame.to_html(index=False), mime_type)
    records = frame.to_json(orient="records", date_format="iso")
    return _text(uri, records, mime_type or JSON)


def _image(save: Callable[[Any], bytes]) -> Callable[[Any, str, str | None], ResourceContents]:
    def convert(value: Any, uri: str, mime_type: str | None) -> ResourceContents:
        return _blob(uri, save(value), mime_type or PNG)

    return convert


def _figure_png(figure: Any) -> bytes:
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()


def _pil_png(image: Any) -> bytes:
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


_REPRS = (
    ("_repr_png_", PNG, True),
    ("_repr_jpeg_", "image/jpeg", True),
    ("_repr_svg_", "image/svg+xml", False),
    ("_repr_markdown_", "text/markdown", False),
    ("_repr_html_", "text/html", False),
    ("_repr_json_", JSON, False),
)
"""IPython's rich representations, in the order a resource prefers them: (method, MIME type, binary)."""


def _repr(value: Any, uri: str, mime_type: str | None) -> ResourceContents:
    wanted = [entry for entry in _REPRS if mime_type is None or entry[1] == mime_type] or list(_REPRS)
    for method, mime, binary in wanted:
        fn = getattr(value, method, None)
        data: Any = fn() if callable(fn) else None
        data = data[0] if isinstance(data, tuple) and data else data
        if data is None:
            continue
        if binary:
            raw = data if isinstance(data, bytes) else base64.b64decode(data)
            return _blob(uri, raw, mime)
        text = data if isinstance(data, str) else json.dumps(jsonable(data), ensure_ascii=False)
        return _text(uri, text, mime)
    return _text(uri, repr(value), mime_type or TEXT)


_RICH: dict[str, Callable[[Any, str, str | None], ResourceContents]] = {
    "figure": _image(_figure_png),
    "pil": _image(_pil_png),
    "dataframe": _dataframe,
    "repr": _repr,
}
