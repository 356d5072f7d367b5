"""Content conversion: helpers, MCP blocks, lists, and notebook-native values."""

import base64
import io
import sys
from pathlib import Path

import mcp_types as mt
import pytest

from jupyter_mcp.tools import Audio, File, Image, ToolResult
from jupyter_mcp.tools.components.results import convert_content, convert_unannotated, markdown_table

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


def test_image_from_path_and_data(tmp_path: Path) -> None:
    path = tmp_path / "chart.png"
    path.write_bytes(PNG)
    for image in (Image(path=path), Image(data=PNG, format="png")):
        block = image.to_content()
        assert block.type == "image"
        assert block.mime_type == "image/png"
        assert base64.b64decode(block.data) == PNG


def test_audio_wav_mime_is_exactly_audio_wav(tmp_path: Path) -> None:
    path = tmp_path / "clip.wav"
    path.write_bytes(b"RIFF0000WAVE")
    assert Audio(path=path).to_content().mime_type == "audio/wav"
    assert Audio(data=b"x", format="wav").to_content().mime_type == "audio/wav"


def test_file_is_an_embedded_blob(tmp_path: Path) -> None:
    path = tmp_path / "report.csv"
    path.write_text("a,b\n1,2\n")
    block = File(path=path).to_content()
    assert block.type == "resource"
    assert isinstance(block.resource, mt.BlobResourceContents)
    assert block.resource.mime_type == "text/csv"
    assert block.resource.uri == "file:///report.csv"
    assert base64.b64decode(block.resource.blob) == b"a,b\n1,2\n"


def test_helpers_refuse_ambiguous_construction() -> None:
    with pytest.raises(ValueError, match="exactly one of path= or data="):
        Image()
    with pytest.raises(ValueError, match="needs format="):
        Image(data=PNG)
    with pytest.raises(ValueError, match="needs content="):
        ToolResult()


def test_mixed_list_converts_each_item() -> None:
    blocks = convert_content([Image(data=PNG, format="png"), "text content", {"k": 1}])
    assert [b.type for b in blocks] == ["image", "text", "text"]
    assert blocks[2].text == '{"k": 1}'  # type: ignore[union-attr]


def test_plain_list_is_one_json_text() -> None:
    blocks = convert_content([1, 2, 3])
    assert len(blocks) == 1
    assert blocks[0].text == "[1, 2, 3]"  # type: ignore[union-attr]


def test_bytes_become_a_blob_resource() -> None:
    block = convert_content(b"\x00\x01")[0]
    assert block.type == "resource"


class HasRepr:
    def __init__(self, **reprs: object) -> None:
        for name, value in reprs.items():
            setattr(self, f"_repr_{name}_", lambda value=value: value)


@pytest.mark.parametrize(
    ("reprs", "kind", "mime"),
    [
        ({"png": PNG, "html": "<b>x</b>"}, "image", "image/png"),
        ({"jpeg": PNG, "markdown": "**x**"}, "image", "image/jpeg"),
        ({"svg": "<svg/>", "html": "<b>x</b>"}, "image", "image/svg+xml"),
        ({"markdown": "**x**", "html": "<b>x</b>"}, "text", None),
        ({"html": "<b>x</b>"}, "text", None),
    ],
)
def test_ipython_reprs_pick_the_best_block(reprs: dict[str, object], kind: str, mime: str | None) -> None:
    block = convert_content(HasRepr(**reprs))[0]
    assert block.type == kind
    if mime:
        assert block.mime_type == mime  # type: ignore[union-attr]
    else:
        expected = reprs.get("markdown", reprs.get("html"))
        assert block.text == expected  # type: ignore[union-attr]


def test_png_repr_given_as_base64_string() -> None:
    block = convert_content(HasRepr(png=base64.b64encode(PNG).decode()))[0]
    assert base64.b64decode(block.data) == PNG  # type: ignore[union-attr]


def test_matplotlib_figure_is_png() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots()
    axes.plot([1, 2, 3])
    block = convert_content(figure)[0]
    plt.close(figure)
    assert block.type == "image"
    assert block.mime_type == "image/png"  # type: ignore[union-attr]
    assert base64.b64decode(block.data).startswith(b"\x89PNG")  # type: ignore[union-attr]


def test_pil_image_is_png() -> None:
    import PIL.Image as pil

    block = convert_content(pil.new("RGB", (4, 4), "red"))[0]
    assert block.type == "image"
    assert base64.b64decode(block.data).startswith(b"\x89PNG")  # type: ignore[union-attr]


def test_dataframe_is_records_plus_markdown_table() -> None:
    import pandas as pd

    frame = pd.DataFrame({"name": ["a", "b|c"], "n": [1, 2]})
    converted = convert_unannotated(frame)
    assert converted.structured == {
        "columns": ["name", "n"],
        "records": [{"name": "a", "n": 1}, {"name": "b|c", "n": 2}],
    }
    assert converted.content[0].text == "| name | n |\n|---|---|\n| a | 1 |\n| b\\|c | 2 |"  # type: ignore[union-attr]


def test_long_dataframe_table_is_cut_with_a_note() -> None:
    import pandas as pd

    table = markdown_table(pd.DataFrame({"x": range(60)}), max_rows=5)
    assert table.count("\n| ") == 5
    assert table.endswith("(60 rows, first 5 shown)")


def test_optional_libraries_are_never_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("matplotlib", "PIL", "pandas"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    convert_content({"a": 1})
    convert_content(io.BytesIO(b"x"))
    assert not {"matplotlib", "PIL", "pandas"} & set(sys.modules)
