"""The try-it form's schema → input mapping and reading inputs back (form, tryit.build_input)."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import ipywidgets as widgets
import pytest
from pydantic import BaseModel, Field

from jupyter_mcp.tools import Tool
from jupyter_mcp.widgets.form import OMIT, FieldError, FieldSpec, collect, field_spec, field_specs, parse_field
from jupyter_mcp.widgets.tryit import build_input


class Mode(enum.Enum):
    FAST = "fast"
    SAFE = "safe"


class Point(BaseModel):
    x: int
    y: int = 0


def spec_for(annotation: Any, default: Any = ...) -> FieldSpec:
    """The field a tool parameter ``value: annotation = default`` gets (``...``: no default)."""

    def probe(value):  # type: ignore[no-untyped-def]
        return None

    probe.__annotations__ = {"value": annotation}
    if default is not ...:
        probe.__defaults__ = (default,)
    (spec,) = field_specs(Tool.from_function(probe).to_mcp().input_schema)
    return spec


@pytest.mark.parametrize(
    ("annotation", "default", "kind", "parse_as", "initial"),
    [
        (str, ..., "text", "str", ""),
        (str, "hi", "text", "str", "hi"),
        (str | None, None, "text", "str", ""),
        (int, ..., "integer", "value", 0),
        (int, 5, "integer", "value", 5),
        (float, 0.5, "number", "value", 0.5),
        (Annotated[int, Field(ge=1)], 3, "integer", "value", 3),
        (int | None, None, "text", "int", ""),
        (float | None, 1.5, "text", "float", "1.5"),
        (bool, False, "checkbox", "value", False),
        (bool, True, "checkbox", "value", True),
        (bool | None, None, "dropdown", "value", None),
        (Literal["a", "b"], "b", "dropdown", "value", "b"),
        (Literal[1, 2], ..., "dropdown", "value", OMIT),
        (Mode, Mode.SAFE, "dropdown", "value", "safe"),
        (list[int], ..., "json", "json", ""),
        (list[int], [1, 2], "json", "json", "[1, 2]"),
        (dict[str, int] | None, None, "json", "json", ""),
        (Point, ..., "json", "json", ""),
        (tuple[int, str], (1, "x"), "json", "json", '[1, "x"]'),
        (int | str, 1, "json", "json", "1"),
    ],
)
def test_each_type_gets_the_right_input(annotation: Any, default: Any, kind: str, parse_as: str, initial: Any) -> None:
    spec = spec_for(annotation, default)
    assert (spec.kind, spec.parse_as, spec.initial) == (kind, parse_as, initial)
    assert spec.required is (default is ...)


def test_dropdown_choices_for_literal_enum_and_optional_bool() -> None:
    assert spec_for(Literal["a", "b"], "a").choices == (("'a'", "a"), ("'b'", "b"))
    assert spec_for(Mode, Mode.FAST).choices == (("'fast'", "fast"), ("'safe'", "safe"))
    assert spec_for(bool | None, None).choices == (("True", True), ("False", False), ("None", None))
    assert spec_for(Literal["a", "b"] | None).choices == (("'a'", "a"), ("'b'", "b"), ("None", None))


def test_an_optional_dropdown_without_default_can_stay_unset() -> None:
    schema = {"enum": ["x", "y"], "type": "string"}
    spec = field_spec("pick", schema, required=False)
    assert spec.choices[0] == ("(not set)", OMIT)
    assert spec.initial is OMIT


def test_labels_hints_and_descriptions_come_from_the_schema() -> None:
    schema = {"type": "integer", "minimum": 0, "description": "How many."}
    spec = field_spec("n", schema, required=True)
    assert (spec.type_label, spec.hint, spec.description) == ("int", "≥ 0", "How many.")


@pytest.mark.parametrize(
    ("annotation", "default", "raw", "value"),
    [
        (str, ..., "  spaced  ", "  spaced  "),
        (str, ..., "", ""),
        (str, "x", "", OMIT),
        (str | None, ..., "", None),
        (int | None, None, "42", 42),
        (int | None, None, "", OMIT),
        (float | None, None, "2.5", 2.5),
        (list[int], ..., "[1, 2]", [1, 2]),
        (Point, ..., '{"x": 1}', {"x": 1}),
        (dict[str, int] | None, None, "  ", OMIT),
        (int, ..., 7, 7),
        (bool, False, True, True),
    ],
)
def test_parse_field(annotation: Any, default: Any, raw: Any, value: Any) -> None:
    assert parse_field(spec_for(annotation, default), raw) == value


@pytest.mark.parametrize(
    ("annotation", "raw", "message"),
    [
        (list[int], "[1, 2", "not valid JSON"),
        (int | None, "ten", "not an integer: 'ten'"),
        (float | None, "1,5", "not a number: '1,5'"),
        (list[int], "", "required"),
    ],
)
def test_unreadable_input_says_why(annotation: Any, raw: str, message: str) -> None:
    default = None if "None" in str(annotation) else ...
    with pytest.raises(FieldError, match=message):
        parse_field(spec_for(annotation, default), raw)


def search(
    query: str, limit: int = 10, sort: Literal["relevance", "date"] = "relevance", tags: list[str] | None = None
) -> int:
    return 0


def test_collect_sends_only_what_differs_from_defaults_and_reports_errors() -> None:
    specs = field_specs(Tool.from_function(search).to_mcp().input_schema)
    arguments, errors = collect(specs, {"query": "cats", "limit": 10, "sort": "date", "tags": '["a"]'})
    assert (arguments, errors) == ({"query": "cats", "sort": "date", "tags": ["a"]}, {})
    arguments, errors = collect(specs, {"query": "cats", "limit": 3, "sort": "relevance", "tags": "[oops"})
    assert arguments == {"query": "cats", "limit": 3}
    assert list(errors) == ["tags"]


def test_default_detection_does_not_confuse_true_and_one() -> None:
    spec = field_spec("n", {"type": "integer", "default": 1}, required=False)
    assert collect([spec], {"n": True}) == ({"n": True}, {})
    assert collect([spec], {"n": 1}) == ({}, {})


@pytest.mark.parametrize(
    ("annotation", "default", "widget_type", "value"),
    [
        (str, "hi", widgets.Text, "hi"),
        (int, 5, widgets.IntText, 5),
        (float, 0.5, widgets.FloatText, 0.5),
        (bool, True, widgets.Checkbox, True),
        (Literal["a", "b"], "b", widgets.Dropdown, "b"),
        (Literal["a", "b"], ..., widgets.Dropdown, "a"),
        (list[int], [1], widgets.Textarea, "[1]"),
        (int | None, None, widgets.Text, ""),
    ],
)
def test_build_input_makes_the_matching_widget(annotation: Any, default: Any, widget_type: type, value: Any) -> None:
    control = build_input(spec_for(annotation, default))
    assert type(control) is widget_type
    assert control.value == value
