"""Argument validation (flexible vs strict) and return-value conversion of a ``Tool``."""

import enum
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from jupyter_mcp.tools import Tool, ToolResult
from jupyter_mcp.tools.errors import ToolArgumentsError, ToolOutputError


class Color(enum.Enum):
    RED = "red"


class Inner(BaseModel):
    n: int


def typed(i: int, f: float, b: bool, ints: list[int], model: Inner) -> dict:
    """Typed."""
    return {"i": i, "f": f, "b": b, "ints": ints, "model": model.n}


GOOD = {"i": 1, "f": 1.5, "b": True, "ints": [1, 2], "model": {"n": 1}}

# The coercion table of seed 000 (FastMCP): flexible coerces, strict rejects; invalid fails both.
COERCION_TABLE = [
    ("string integer", {"i": "10"}, {"i": 10}, True),
    ("string float", {"f": "3.14"}, {"f": 3.14}, True),
    ("string boolean", {"b": "true"}, {"b": True}, True),
    ("list of strings", {"ints": ["1", "2"]}, {"ints": [1, 2]}, True),
    ("model field mismatch", {"model": {"n": "5"}}, {"model": 5}, True),
    ("invalid value", {"i": "abc"}, None, False),
]


@pytest.mark.parametrize(
    ("label", "change", "expected", "coercible"), COERCION_TABLE, ids=[r[0] for r in COERCION_TABLE]
)
def test_flexible_validation_coerces(label: str, change: dict[str, Any], expected: Any, coercible: bool) -> None:
    tool = Tool.from_function(typed)
    arguments = {**GOOD, **change}
    if not coercible:
        with pytest.raises(ToolArgumentsError):
            tool.bind(arguments, strict=False, injected={})
        return
    result = typed(**tool.bind(arguments, strict=False, injected={}).kwargs)
    for key, value in expected.items():
        assert result[key] == value


@pytest.mark.parametrize(
    ("label", "change", "expected", "coercible"), COERCION_TABLE, ids=[r[0] for r in COERCION_TABLE]
)
def test_strict_validation_rejects_mismatches(
    label: str, change: dict[str, Any], expected: Any, coercible: bool
) -> None:
    tool = Tool.from_function(typed)
    with pytest.raises(ToolArgumentsError) as info:
        tool.bind({**GOOD, **change}, strict=True, injected={})
    parameter = next(iter(change))
    assert f"- {parameter}" in str(info.value)


def test_strict_accepts_correct_json_types_for_rich_parameters() -> None:
    def rich(color: Color, ident: uuid.UUID, path: Path, raw: bytes) -> None:
        """Rich."""

    tool = Tool.from_function(rich)
    value = uuid.uuid4()
    bound = tool.bind({"color": "red", "ident": str(value), "path": "/tmp/x", "raw": "abc"}, strict=True, injected={})
    assert bound.kwargs == {"color": Color.RED, "ident": value, "path": Path("/tmp/x"), "raw": b"abc"}


def test_enum_clients_send_values_function_gets_members() -> None:
    def paint(color: Color) -> str:
        """Paint."""
        return color.name

    tool = Tool.from_function(paint)
    assert tool.bind({"color": "red"}, strict=False, injected={}).kwargs == {"color": Color.RED}
    with pytest.raises(ToolArgumentsError, match="Input should be 'red'"):
        tool.bind({"color": "RED"}, strict=False, injected={})


def test_error_names_every_bad_parameter_and_the_expectation() -> None:
    tool = Tool.from_function(typed)
    with pytest.raises(ToolArgumentsError) as info:
        tool.bind({"i": "x", "f": 1.0, "ints": [1, "two"], "model": {}}, strict=False, injected={})
    assert str(info.value) == (
        "Invalid arguments for tool 'typed':\n"
        "- i: Input should be a valid integer, unable to parse string as an integer (got 'x')\n"
        "- b: Field required\n"
        "- ints.1: Input should be a valid integer, unable to parse string as an integer (got 'two')\n"
        "- model.n: Field required"
    )


def test_stringified_model_is_not_accepted() -> None:
    tool = Tool.from_function(typed)
    with pytest.raises(ToolArgumentsError, match="model"):
        tool.bind({**GOOD, "model": '{"n": 1}'}, strict=False, injected={})


def test_positional_only_parameters_are_passed_positionally() -> None:
    def f(a: int, /, b: int) -> int:
        """F."""
        return a - b

    bound = Tool.from_function(f).bind({"a": 5, "b": 2}, strict=False, injected={})
    assert f(*bound.args, **bound.kwargs) == 3


# ---- output ----------------------------------------------------------------------------------------


@dataclass
class Person:
    name: str
    age: int


def test_primitive_is_wrapped() -> None:
    def f() -> int: ...

    converted = Tool.from_function(f).convert(8)
    assert converted.structured == {"result": 8}
    assert [b.text for b in converted.content] == ["8"]  # type: ignore[union-attr]


def test_string_result_text_is_not_json_quoted() -> None:
    def f() -> str: ...

    converted = Tool.from_function(f).convert("hello")
    assert converted.structured == {"result": "hello"}
    assert converted.content[0].text == "hello"  # type: ignore[union-attr]


def test_dataclass_and_model_are_their_own_object() -> None:
    def person() -> Person: ...
    def inner() -> Inner: ...

    assert Tool.from_function(person).convert(Person("Alice", 30)).structured == {"name": "Alice", "age": 30}
    converted = Tool.from_function(inner).convert(Inner(n=3))
    assert converted.structured == {"n": 3}
    assert converted.content[0].text == '{"n": 3}'  # type: ignore[union-attr]


def test_value_violating_the_annotation_is_an_output_error() -> None:
    def f() -> int: ...

    with pytest.raises(ToolOutputError, match="does not match its return annotation"):
        Tool.from_function(f).convert("not a number")


def test_value_violating_an_explicit_output_schema_is_an_output_error() -> None:
    schema = {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}

    def f() -> dict: ...

    tool = Tool.from_function(f, output_schema=schema)
    assert tool.convert({"count": 2}).structured == {"count": 2}
    with pytest.raises(ToolOutputError, match="at count: 'two' is not of type 'integer'"):
        tool.convert({"count": "two"})
    with pytest.raises(ToolOutputError, match="needs an object"):
        tool.convert([1, 2])


def test_unannotated_dict_is_structured_primitives_are_not() -> None:
    def f(): ...

    tool = Tool.from_function(f)
    assert tool.convert({"a": 1}).structured == {"a": 1}
    number = tool.convert(8)
    assert number.structured is None
    assert number.content[0].text == "8"  # type: ignore[union-attr]
    assert tool.convert(None).content == []


def test_tool_result_passes_through_untouched() -> None:
    def f() -> ToolResult: ...

    result = ToolResult(content="Found 3 users", structured_content={"users": [1, 2, 3]}, meta={"ms": 145})
    converted = Tool.from_function(f).convert(result)
    assert converted.structured == {"users": [1, 2, 3]}
    assert converted.meta == {"ms": 145}
    assert converted.content[0].text == "Found 3 users"  # type: ignore[union-attr]
    only_structured = Tool.from_function(f).convert(ToolResult(structured_content={"a": 1}))
    assert only_structured.content[0].text == '{"a": 1}'  # type: ignore[union-attr]


def test_unannotated_helpers_are_content_not_structured() -> None:
    from jupyter_mcp.tools import Audio, Image

    def f(): ...

    tool = Tool.from_function(f)
    image = tool.convert(Image(data=b"png", format="png"))
    assert image.structured is None
    assert image.content[0].type == "image"
    audio = tool.convert(Audio(data=b"wav", format="wav"))
    assert audio.structured is None
    assert audio.content[0].mime_type == "audio/wav"  # type: ignore[union-attr]
