"""Replaying recorded calls: compare a call's result with what was recorded, and reach a live server.

An exported notebook's tests (``jupyter-mcp export``) are written with these::

    result = await client.call_tool("word_count", {"text": "a b a", "unique": True})
    check(result, structured={"result": 2})

Structured results compare as JSON values with floats within a tolerance; content blocks compare
as ``describe_block`` sees them (images by type and size, not bytes); errors by their text.
"""

from __future__ import annotations

import base64
import binascii
import math
import struct
from collections.abc import Mapping
from typing import Any

import mcp_types as mt
from mcp import Client

REL_TOL = 1e-6
ABS_TOL = 1e-9
_UNSET: Any = object()


def describe_block(block: Mapping[str, Any]) -> dict[str, Any]:
    """What a recorded test keeps of a content block (``mt.ContentBlock.model_dump(by_alias=True)``)."""
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text", "")}
    if kind in ("image", "audio"):
        described = {"type": kind, "mimeType": block.get("mimeType")}
        size = image_size(block.get("data")) if kind == "image" else None
        return described | ({"width": size[0], "height": size[1]} if size else {})
    if kind == "resource_link":
        return {"type": kind, "uri": block.get("uri"), "mimeType": block.get("mimeType")}
    resource = block.get("resource") or {}
    return {"type": kind, "uri": resource.get("uri"), "mimeType": resource.get("mimeType")}


def image_size(data: str | None) -> tuple[int, int] | None:
    """``(width, height)`` of base64 PNG, GIF or JPEG data; ``None`` for anything else."""
    try:
        raw = base64.b64decode(data or "", validate=True)
    except (binascii.Error, ValueError):
        return None
    if raw.startswith(b"\x89PNG\r\n\x1a\n") and len(raw) >= 24:
        width, height = struct.unpack(">II", raw[16:24])
        return int(width), int(height)
    if raw[:6] in (b"GIF87a", b"GIF89a") and len(raw) >= 10:
        width, height = struct.unpack("<HH", raw[6:10])
        return int(width), int(height)
    if raw.startswith(b"\xff\xd8"):
        return _jpeg_size(raw)
    return None


def _jpeg_size(raw: bytes) -> tuple[int, int] | None:
    index = 2
    while index + 9 < len(raw) and raw[index] == 0xFF:
        marker, length = raw[index + 1], struct.unpack(">H", raw[index + 2 : index + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # start of frame
            height, width = struct.unpack(">HH", raw[index + 5 : index + 9])
            return width, height
        index += 2 + length
    return None


def check(
    result: mt.CallToolResult, *, structured: Any = _UNSET, content: list[dict[str, Any]] | None = None,
    error: str | None = None,
) -> None:  # fmt: skip
    """Assert ``result`` is what was recorded: the ``structured`` result, the ``content`` blocks, or the ``error`` text.

    Example::

        check(await client.call_tool("add", {"a": 1, "b": 2}), structured={"result": 3})
    """
    shown = _text_of(result)
    if error is not None:
        assert result.is_error, f"expected the error {error!r}, but the call succeeded: {shown[:500]}"
        assert shown == error, f"the error text differs:\n  got      {shown!r}\n  expected {error!r}"
        return
    assert not result.is_error, f"the call failed: {shown[:1000]}"
    if structured is not _UNSET:
        problem = mismatch(result.structured_content, structured)
        assert problem is None, f"the structured result differs {problem}"
    if content is not None:
        described = [describe_block(block.model_dump(by_alias=True, mode="json")) for block in result.content]
        problem = mismatch(described, content)
        assert problem is None, f"the content differs {problem}"


def _text_of(result: mt.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, mt.TextContent))


def mismatch(actual: Any, expected: Any, path: str = "") -> str | None:
    """Where two JSON values differ (floats within ``REL_TOL``): ``at PATH: got X, expected Y``; ``None`` if equal."""
    here = f"at {path or 'the top'}: got {actual!r}, expected {expected!r}"
    if _is_number(actual) and _is_number(expected):
        return None if math.isclose(actual, expected, rel_tol=REL_TOL, abs_tol=ABS_TOL) else here
    if isinstance(expected, dict) and isinstance(actual, dict):
        if set(actual) != set(expected):
            return f"at {path or 'the top'}: got keys {sorted(actual)}, expected {sorted(expected)}"
        return next((p for k in expected if (p := mismatch(actual[k], expected[k], f"{path}[{k!r}]"))), None)
    if isinstance(expected, list) and isinstance(actual, list):
        if len(actual) != len(expected):
            return f"at {path or 'the top'}: got {len(actual)} items, expected {len(expected)}"
        pairs = zip(actual, expected, strict=True)
        return next((p for i, (a, e) in enumerate(pairs) if (p := mismatch(a, e, f"{path}[{i}]"))), None)
    return None if type(actual) is type(expected) and actual == expected else here


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def http_client(url: str, token: str | None) -> Client:
    """An ``mcp.Client`` for a live streamable-HTTP server (a notebook's kernel or an exported server)."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else None
    # The SDK's transport speaks httpx2; the timeouts are its own client's: a long call may answer in minutes.
    http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300))
    return Client(streamable_http_client(url, http_client=http))
