"""Schemas read back as Python types, constraints and parameter rows (schema_text)."""

from __future__ import annotations

import datetime
import enum
import uuid
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from jupyter_mcp.tools import Tool
from jupyter_mcp.widgets.schema_text import constraints, non_null, output_summary, parameter_rows, type_label


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Point(BaseModel):
    x: int
    y: int = 0


class Movie(TypedDict):
    title: str
    year: int


def schema_of(annotation: Any) -> dict[str, Any]:
    """The dereferenced property schema a tool advertises for a parameter of this annotation."""

    def probe(value):  # type: ignore[no-untyped-def]
        return None

    probe.__annotations__ = {"value": annotation, "return": None}
    return dict(Tool.from_function(probe).to_mcp().input_schema["properties"]["value"])


@pytest.mark.parametrize(
    ("annotation", "label"),
    [
        (int, "int"),
        (float, "float"),
        (str, "str"),
        (bool, "bool"),
        (list[int], "list[int]"),
        (list[list[str]], "list[list[str]]"),
        (set[int], "set[int]"),
        (tuple[int, str], "tuple[int, str]"),
        (dict[str, float], "dict[str, float]"),
        (dict, "dict"),
        (Literal["a", "b"], "Literal['a', 'b']"),
        (Literal[1, 2], "Literal[1, 2]"),
        (Literal["only"], "Literal['only']"),
        (Color, "Color"),
        (str | None, "str | None"),
        (int | str, "int | str"),
        (list[int] | None, "list[int] | None"),
        (Point, "Point"),
        (Point | None, "Point | None"),
        (Movie, "Movie"),
        (datetime.datetime, "datetime"),
        (datetime.date, "date"),
        (uuid.UUID, "UUID"),
        (Any, "Any"),
    ],
)
def test_type_labels_read_like_python(annotation: Any, label: str) -> None:
    assert type_label(schema_of(annotation)) == label


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (Annotated[int, Field(ge=0, le=10)], ["≥ 0", "≤ 10"]),
        (Annotated[float, Field(gt=0, lt=1)], ["> 0", "< 1"]),
        (
            Annotated[str, Field(min_length=2, max_length=5, pattern=r"^\w+$")],
            ["length ≥ 2", "length ≤ 5", r"pattern ^\w+$"],
        ),
        (Annotated[list[int], Field(min_length=1)], ["items ≥ 1"]),
        (Annotated[int, Field(multiple_of=5)], ["multiple of 5"]),
        (Annotated[int | None, Field(ge=1)], ["≥ 1"]),
        (Color, ["one of 'red', 'blue'"]),
        (tuple[int, int], []),
        (int, []),
    ],
)
def test_constraints_in_short_form(annotation: Any, expected: list[str]) -> None:
    assert constraints(schema_of(annotation)) == expected


def test_non_null_unwraps_optional() -> None:
    assert non_null({"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None}) == (
        {"type": "integer", "default": None},
        True,
    )
    assert non_null({"type": ["string", "null"]}) == ({"type": "string"}, True)
    assert non_null({"type": "string"}) == ({"type": "string"}, False)
    union = {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]}
    assert non_null(union) == (union, True)


def search(
    query: str,
    limit: Annotated[int, Field(ge=1, le=100)] = 10,
    sort: Literal["relevance", "date"] = "relevance",
    tags: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Search the catalog.

    Args:
        query: Words to look for.
        limit: How many results at most.
    """
    return []


def test_parameter_rows_for_a_documented_function() -> None:
    rows = parameter_rows(Tool.from_function(search).to_mcp().input_schema)
    assert rows == [
        {
            "name": "query",
            "type": "str",
            "required": True,
            "default": "",
            "constraints": [],
            "description": "Words to look for.",
        },
        {
            "name": "limit",
            "type": "int",
            "required": False,
            "default": "10",
            "constraints": ["≥ 1", "≤ 100"],
            "description": "How many results at most.",
        },
        {
            "name": "sort",
            "type": "Literal['relevance', 'date']",
            "required": False,
            "default": "'relevance'",
            "constraints": [],
            "description": "",
        },
        {
            "name": "tags",
            "type": "list[str] | None",
            "required": False,
            "default": "None",
            "constraints": [],
            "description": "",
        },
    ]


def test_no_parameters_no_rows() -> None:
    assert parameter_rows({"type": "object", "properties": {}}) == []


def returns_point() -> Point:
    return Point(x=1)


def returns_mapping() -> dict[str, int]:
    return {}


def returns_nothing():  # type: ignore[no-untyped-def]
    return 1


@pytest.mark.parametrize(
    ("function", "summary"),
    [(search, "list[dict]"), (returns_point, "Point"), (returns_mapping, "dict[str, int]"), (returns_nothing, "")],
)
def test_output_summary(function: Any, summary: str) -> None:
    assert output_summary(Tool.from_function(function).output_schema) == summary


def test_output_summary_of_an_untitled_object_lists_fields() -> None:
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}, "n": {"type": "integer"}}}
    assert output_summary(schema) == "{ok: bool, n: int}"
