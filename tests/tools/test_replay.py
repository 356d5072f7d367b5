"""``tools.replay``: recorded results compare as a client sees them (floats within a tolerance, images by size)."""

from __future__ import annotations

import base64
import io

import pytest
from mcp import Client
from PIL import Image as PILImage

from jupyter_mcp.tools import Image, ToolError, ToolServer
from jupyter_mcp.tools.replay import check, describe_block, image_size, mismatch


def picture(width: int, height: int, kind: str = "PNG") -> bytes:
    buffer = io.BytesIO()
    PILImage.new("RGB", (width, height), "teal").save(buffer, format=kind)
    return buffer.getvalue()


def served() -> ToolServer:
    server = ToolServer("replay")

    @server.tool
    def ratio(a: float, b: float) -> float:
        """Divides."""
        if b == 0:
            raise ToolError("b must not be zero")
        return a / b

    @server.tool
    def card(name: str) -> dict:
        """A record."""
        return {"name": name, "scores": [0.1 + 0.2, 3], "ok": True}

    @server.tool
    def chart(width: int) -> Image:
        """A picture."""
        return Image(data=picture(width, 20), format="png")

    return server


@pytest.mark.parametrize(("kind", "mime"), [("PNG", "image/png"), ("GIF", "image/gif"), ("JPEG", "image/jpeg")])
def test_image_size_reads_the_header(kind: str, mime: str) -> None:
    data = base64.b64encode(picture(37, 21, kind)).decode()
    assert image_size(data) == (37, 21)
    assert describe_block({"type": "image", "mimeType": mime, "data": data}) == {
        "type": "image",
        "mimeType": mime,
        "width": 37,
        "height": 21,
    }


def test_image_size_of_anything_else_is_unknown() -> None:
    assert image_size(base64.b64encode(b"not an image").decode()) is None
    assert image_size("%%%") is None


def test_mismatch_says_where() -> None:
    assert mismatch({"a": [1, 0.30000000000000004]}, {"a": [1, 0.3]}) is None
    assert mismatch({"a": [1, 2.5]}, {"a": [1, 2.0]}) == "at ['a'][1]: got 2.5, expected 2.0"
    assert mismatch({"a": 1}, {"b": 1}) == "at the top: got keys ['a'], expected ['b']"
    assert mismatch([1], [1, 2]) == "at the top: got 1 items, expected 2"
    assert mismatch(True, 1) == "at the top: got True, expected 1"
    assert mismatch(3, 3.0) is None


async def test_check_passes_on_what_was_recorded_and_names_each_difference() -> None:
    async with Client(served().lowlevel) as client:
        ratio = await client.call_tool("ratio", {"a": 1, "b": 3})
        check(ratio, structured={"result": 0.333333333})
        with pytest.raises(AssertionError, match=r"structured result differs at \['result'\]: got 0.333"):
            check(ratio, structured={"result": 0.3})
        zero = await client.call_tool("ratio", {"a": 1, "b": 0})
        check(zero, error="b must not be zero")
        with pytest.raises(AssertionError, match="the error text differs"):
            check(zero, error="b is zero")
        with pytest.raises(AssertionError, match="the call failed: b must not be zero"):
            check(zero, structured={"result": 1})
        with pytest.raises(AssertionError, match="expected the error 'boom', but the call succeeded"):
            check(ratio, error="boom")
        check(await client.call_tool("card", {"name": "x"}), structured={"name": "x", "scores": [0.3, 3], "ok": True})
        chart = await client.call_tool("chart", {"width": 64})
        expected = [{"type": "image", "mimeType": "image/png", "width": 64, "height": 20}]
        check(chart, content=expected)
        with pytest.raises(AssertionError, match=r"content differs at \[0\]\['width'\]: got 64, expected 65"):
            check(chart, content=[{**expected[0], "width": 65}])
