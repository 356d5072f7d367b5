"""What a resource function returns -> resource contents, for every kind of value a notebook holds."""

from __future__ import annotations

import base64
import dataclasses
import io
import json
from typing import Any

import mcp_types as mt
import pandas as pd
import pytest
from PIL import Image as PILImage
from pydantic import BaseModel

from jupyter_mcp.tools import Image
from jupyter_mcp.tools.components.resource_contents import mime_for_annotation, to_contents

URI = "data://x"


class Point(BaseModel):
    x: int
    y: int


@dataclasses.dataclass
class Box:
    width: int


class Markdown:
    def _repr_markdown_(self) -> str:
        return "**bold**"


class Svg:
    def _repr_svg_(self) -> str:
        return "<svg/>"

    def _repr_html_(self) -> str:
        return "<b>svg</b>"


def one(value: Any, mime_type: str | None = None) -> dict[str, Any]:
    (contents,) = to_contents(value, URI, mime_type)
    dumped: dict[str, Any] = contents.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


def png_bytes(contents: dict[str, Any]) -> bytes:
    return base64.b64decode(contents["blob"])


def test_text_bytes_and_json() -> None:
    assert one("hi") == {"uri": URI, "mimeType": "text/plain", "text": "hi"}
    assert one("# hi", "text/markdown")["mimeType"] == "text/markdown"
    assert one(b"\x00\x01") == {"uri": URI, "mimeType": "application/octet-stream", "blob": "AAE="}
    assert one({"a": [1, 2]}) == {"uri": URI, "mimeType": "application/json", "text": '{"a": [1, 2]}'}
    assert json.loads(one(Point(x=1, y=2))["text"]) == {"x": 1, "y": 2}
    assert json.loads(one(Box(3))["text"]) == {"width": 3}
    assert one(None)["text"] == "null"


def test_dataframes_follow_the_mime_type() -> None:
    frame = pd.DataFrame({"city": ["Paris", "Rome"], "people": [2.1, 2.8]})
    assert json.loads(one(frame)["text"]) == [{"city": "Paris", "people": 2.1}, {"city": "Rome", "people": 2.8}]
    assert one(frame, "text/csv")["text"] == "city,people\nParis,2.1\nRome,2.8\n"
    assert one(frame, "text/markdown")["text"].splitlines() == [
        "| city | people |",
        "|---|---|",
        "| Paris | 2.1 |",
        "| Rome | 2.8 |",
    ]
    assert one(frame, "text/html")["text"].startswith('<table border="1" class="dataframe">')


def test_images_become_png_blobs() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots()
    axes.plot([1, 2, 3])
    drawn = one(figure)
    plt.close(figure)
    assert drawn["mimeType"] == "image/png"
    assert png_bytes(drawn).startswith(b"\x89PNG")
    picture = one(PILImage.new("RGB", (4, 3), "red"))
    assert PILImage.open(io.BytesIO(png_bytes(picture))).size == (4, 3)
    helper = one(Image(data=png_bytes(picture), format="png"))
    assert (helper["mimeType"], png_bytes(helper)) == ("image/png", png_bytes(picture))


def test_rich_reprs_pick_the_declared_type_or_the_best() -> None:
    assert one(Markdown()) == {"uri": URI, "mimeType": "text/markdown", "text": "**bold**"}
    assert one(Svg())["mimeType"] == "image/svg+xml"
    assert one(Svg(), "text/html")["text"] == "<b>svg</b>"


def test_mcp_contents_pass_through() -> None:
    contents = mt.TextResourceContents(uri="data://other", mime_type="text/csv", text="a\n")
    assert to_contents(contents, URI, None) == [contents]
    assert to_contents([contents, contents], URI, None) == [contents, contents]


@pytest.mark.parametrize(
    ("annotation", "mime"),
    [
        (str, "text/plain"),
        (bytes, "application/octet-stream"),
        (dict[str, int], "application/json"),
        (list[Point], "application/json"),
        (Point, "application/json"),
        (pd.DataFrame, "application/json"),
        (Image, None),
        (Any, None),
        (Markdown, None),
    ],
)
def test_return_annotations_promise_a_mime_type(annotation: Any, mime: str | None) -> None:
    assert mime_for_annotation(annotation) == mime
