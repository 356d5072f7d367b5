"""Structured values as HTML: JSON trees and record tables (structured)."""

from __future__ import annotations

import pandas as pd
import pytest

from jupyter_mcp.tools.components.results import jsonable
from jupyter_mcp.widgets.structured import MAX_ITEMS, MAX_TABLE_ROWS, json_tree, records, repeats, structured_html
from tests.widgets.htmltext import visible_text


def test_json_tree_nests_counts_and_escapes() -> None:
    markup = json_tree({"name": "<b>x</b>", "tags": ["a", "b"], "deep": {"more": {"n": 1.5, "ok": True, "none": None}}})
    assert "&lt;b&gt;x&lt;/b&gt;" in markup
    assert "<b>x</b>" not in markup
    text = visible_text(markup)
    assert '{ 3 keys } "name": "<b>x</b>" "tags": [ 2 items ] "a" "b"' in text
    assert '"n": 1.5 "ok": true "none": null' in text


def test_json_tree_opens_the_first_levels_only() -> None:
    markup = json_tree({"a": {"b": {"c": {"d": 1}}}}, open_depth=2)
    assert markup.count("<details open>") == 2
    assert markup.count("<details>") == 2


def test_json_tree_cuts_long_lists() -> None:
    text = visible_text(json_tree(list(range(MAX_ITEMS + 50))))
    assert f"[ {MAX_ITEMS + 50} items ]" in text
    assert "… 50 more" in text
    assert f" {MAX_ITEMS - 1} " in text
    assert f" {MAX_ITEMS} " not in text


def test_json_tree_scalars_and_empties() -> None:
    assert visible_text(json_tree("hi")) == '"hi"'
    assert visible_text(json_tree([])) == "[]"
    assert visible_text(json_tree({})) == "{}"


CITIES = [{"city": "Oslo", "population": 709000}, {"city": "Bergen", "population": None, "coastal": True}]


@pytest.mark.parametrize(
    "value",
    [CITIES, {"result": CITIES}, {"columns": ["city", "population"], "records": CITIES}],
)
def test_records_are_found_bare_wrapped_or_from_a_dataframe(value: object) -> None:
    assert records(value) == CITIES


@pytest.mark.parametrize(
    "value",
    [
        [],
        [1, 2],
        [{"nested": {"a": 1}}],
        [{"a": 1}, "x"],
        {"result": 3},
        {"rows": CITIES},
        [{"i": i} for i in range(MAX_TABLE_ROWS + 1)],
    ],
)
def test_other_values_are_not_records(value: object) -> None:
    assert records(value) is None


def test_records_render_as_a_table_with_the_json_folded_away() -> None:
    markup = structured_html({"result": CITIES})
    assert markup.startswith('<table class="jmcp-table jmcp-records">')
    text = visible_text(markup)
    assert text.startswith("city population coastal Oslo 709000 Bergen true JSON { 1 key }")


def test_a_dataframe_result_renders_as_a_table() -> None:
    frame = pd.DataFrame({"x": [1, 2], "label": ["a", "<b>"]})
    structured = {"columns": ["x", "label"], "records": jsonable(frame.to_dict("records"))}
    text = visible_text(structured_html(structured))
    assert text.startswith("x label 1 a 2 <b>")


def test_other_structured_values_render_as_an_open_tree() -> None:
    markup = structured_html({"a": {"b": {"c": [1]}}})
    assert markup.count("<details open>") == 3
    assert "<table" not in markup


@pytest.mark.parametrize(
    ("text", "structured", "expected"),
    [
        ("3", {"result": 3}, True),
        ('{"result": 3}', {"result": 3}, True),
        ('{"a": 1}', {"a": 1}, True),
        ('[{"a": 1}]', {"result": [{"a": 1}]}, True),
        ("4", {"result": 3}, False),
        ("not json", {"result": 3}, False),
        ('{"a": 1}', {"a": 2}, False),
    ],
)
def test_repeats_spots_the_json_twin_of_structured_content(text: str, structured: object, expected: bool) -> None:
    assert repeats({"type": "text", "text": text}, structured) is expected
    assert repeats({"type": "image", "data": "", "mimeType": "image/png"}, structured) is False
