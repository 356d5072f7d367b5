"""Helpers a tool returns for rich content: ``Image``, ``Audio``, ``File`` and ``ToolResult``."""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp_types as mt

ContentBlock = mt.TextContent | mt.ImageContent | mt.AudioContent | mt.EmbeddedResource | mt.ResourceLink

# mimetypes answers differently across platforms (audio/x-wav, ...); clients expect these names.
_MIME_BY_SUFFIX = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "svg": "image/svg+xml",
    "wav": "audio/wav",
    "mp3": "audio/mpeg",
    "ogg": "audio/ogg",
    "flac": "audio/flac",
    "m4a": "audio/mp4",
    "pdf": "application/pdf",
    "json": "application/json",
    "csv": "text/csv",
    "txt": "text/plain",
}


def guess_mime(name_or_format: str, fallback: str) -> str:
    """MIME type for a file name, a suffix (``"png"``) or a full MIME type."""
    if "/" in name_or_format and "." not in name_or_format.rsplit("/", 1)[-1]:
        return name_or_format
    suffix = name_or_format.rsplit(".", 1)[-1].lower()
    if suffix in _MIME_BY_SUFFIX:
        return _MIME_BY_SUFFIX[suffix]
    return mimetypes.guess_type(f"x.{suffix}")[0] or fallback


@dataclass
class _Media:
    path: str | Path | None = None
    data: bytes | None = None
    format: str | None = None
    annotations: mt.Annotations | None = None

    _kind = "media"
    _fallback_mime = "application/octet-stream"

    def __post_init__(self) -> None:
        if (self.path is None) == (self.data is None):
            raise ValueError(f"{type(self).__name__} takes exactly one of path= or data=")
        if self.data is not None and self.format is None:
            raise ValueError(f"{type(self).__name__}(data=...) needs format= (e.g. 'png') to know its MIME type")

    @property
    def mime_type(self) -> str:
        if self.format is not None:
            return guess_mime(self.format, self._fallback_mime)
        return guess_mime(str(self.path), self._fallback_mime)

    def read(self) -> bytes:
        if self.data is not None:
            return self.data
        assert self.path is not None
        return Path(self.path).expanduser().read_bytes()

    def base64(self) -> str:
        return base64.b64encode(self.read()).decode("ascii")


@dataclass
class Image(_Media):
    """An image for a tool result: ``Image(path="chart.png")`` or ``Image(data=png, format="png")``."""

    _fallback_mime = "image/png"

    def to_content(self) -> mt.ImageContent:
        return mt.ImageContent(type="image", data=self.base64(), mime_type=self.mime_type, annotations=self.annotations)


@dataclass
class Audio(_Media):
    """An audio clip for a tool result: ``Audio(path="clip.wav")`` or ``Audio(data=b, format="wav")``."""

    _fallback_mime = "audio/wav"

    def to_content(self) -> mt.AudioContent:
        return mt.AudioContent(type="audio", data=self.base64(), mime_type=self.mime_type, annotations=self.annotations)


@dataclass
class File(_Media):
    """A file sent as an embedded resource.

    ``File(path="report.pdf")`` or ``File(data=b, format="csv", name="x.csv")``.
    """

    name: str | None = None

    def __post_init__(self) -> None:
        if (self.path is None) == (self.data is None):
            raise ValueError("File takes exactly one of path= or data=")

    @property
    def mime_type(self) -> str:
        source = self.format or (str(self.path) if self.path is not None else self.name or "")
        return guess_mime(source, self._fallback_mime) if source else self._fallback_mime

    def to_content(self) -> mt.EmbeddedResource:
        name = self.name or (Path(self.path).name if self.path is not None else "file")
        resource = mt.BlobResourceContents(uri=f"file:///{name}", mime_type=self.mime_type, blob=self.base64())
        return mt.EmbeddedResource(type="resource", resource=resource, annotations=self.annotations)


@dataclass
class ToolResult:
    """Full control over a tool's result; passed to the client as is.

    ``content`` is a string, a list of MCP content blocks (or ``Image``/``Audio``/``File``),
    or any JSON-able value; ``structured_content`` a dict; ``meta`` result metadata.

    Example::

        return ToolResult(content="Found 3 users", structured_content={"users": users})
    """

    content: Any = None
    structured_content: dict[str, Any] | None = None
    meta: dict[str, Any] | None = field(default=None)

    def __post_init__(self) -> None:
        if self.content is None and self.structured_content is None:
            raise ValueError("ToolResult needs content=, structured_content= or both")
        if self.structured_content is not None and not isinstance(self.structured_content, dict):
            raise TypeError("ToolResult.structured_content must be a dict")
