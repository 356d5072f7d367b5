"""Annotations -> input and output schemas: every supported type, injected and refused parameters, wrapping."""

import datetime as dt
import enum
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel
from typing_extensions import TypedDict

from jupyter_mcp.tools import Context, Tool, ToolDefinitionError
from jupyter_mcp.tools.components.function import parse_function


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Address(TypedDict):
    street: str
    city: str


@dataclass
class Point:
    x: float
    y: float


class User(BaseModel):
    name: str
    address: Address


def test_every_supported_annotation_has_a_schema() -> None:
    def kitchen_sink(
        i: int,
        f: float,
        s: str,
        b: bool,
        raw: bytes,
        when: dt.datetime,
        day: dt.date,
        span: dt.timedelta,
        items: list[str],
        mapping: dict[str, int],
        unique: set[int],
        pair: tuple[int, str],
        maybe: float | None,
        either: str | int,
        choice: Literal["A", "B"],
        color: Color,
        path: Path,
        ident: uuid.UUID,
        user: User,
        address: Address,
        point: Point,
    ) -> None:
        """Everything."""

    props = parse_function(kitchen_sink).input_schema["properties"]
    assert props["i"] == {"type": "integer"}
    assert props["raw"] == {"type": "string", "format": "binary"}
    assert props["when"] == {"type": "string", "format": "date-time"}
    assert props["day"] == {"type": "string", "format": "date"}
    assert props["span"] == {"type": "string", "format": "duration"}
    assert props["unique"] == {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}
    assert props["pair"]["prefixItems"] == [{"type": "integer"}, {"type": "string"}]
    assert props["maybe"] == {"anyOf": [{"type": "number"}, {"type": "null"}]}
    assert props["choice"] == {"type": "string", "enum": ["A", "B"]}
    assert props["color"] == {"$ref": "#/$defs/Color"}
    assert props["path"] == {"type": "string", "format": "path"}
    assert props["ident"] == {"type": "string", "format": "uuid"}
    # $defs are inlined in the advertised schema: nested models, TypedDicts and dataclasses.
    advertised = Tool.from_function(kitchen_sink).to_mcp().input_schema
    assert "$defs" not in advertised
    assert advertised["properties"]["color"] == {"type": "string", "enum": ["red", "green"], "title": "Color"}
    user = advertised["properties"]["user"]
    assert user["properties"]["address"]["properties"]["city"] == {"title": "City", "type": "string"}
    assert advertised["properties"]["point"]["required"] == ["x", "y"]


def test_dereference_can_be_turned_off() -> None:
    def f(user: User) -> None:
        """F."""

    tool = Tool.from_function(f)
    raw = tool.to_mcp(dereference_schemas=False).input_schema
    assert raw["properties"]["user"] == {"$ref": "#/$defs/User"}
    assert set(raw["$defs"]) == {"User", "Address"}
    assert "$defs" not in tool.to_mcp().input_schema


@pytest.mark.parametrize(
    ("signature", "fragment"),
    [
        ("def f(a: int, *args: int) -> int: ...", "'*args' is not allowed"),
        ("def f(a: int, **kwargs: int) -> int: ...", "'**kwargs' is not allowed"),
    ],
)
def test_variadic_parameters_are_refused_with_the_reason(signature: str, fragment: str) -> None:
    namespace: dict[str, Any] = {}
    exec(signature, namespace)
    with pytest.raises(ToolDefinitionError) as info:
        Tool.from_function(namespace["f"])
    message = str(info.value)
    assert fragment in message
    assert "tool 'f'" in message
    assert "fixed set of named parameters" in message


def test_context_parameters_are_injected_not_advertised() -> None:
    def f(x: int, ctx: Context, maybe_ctx: Context | None = None) -> int:
        """F."""
        return x

    parsed = parse_function(f)
    assert list(parsed.input_schema["properties"]) == ["x"]
    assert set(parsed.injected) == {"ctx", "maybe_ctx"}


def test_bound_method_drops_self() -> None:
    class Calculator:
        def __init__(self, multiplier: int) -> None:
            self.multiplier = multiplier

        def multiply(self, x: int) -> int:
            """Multiply x by the instance multiplier."""
            return x * self.multiplier

    tool = Tool.from_function(Calculator(3).multiply)
    assert tool.name == "multiply"
    assert tool.input_schema == {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "required": ["x"],
        "additionalProperties": False,
    }


def test_parameter_names_that_clash_with_pydantic_are_kept() -> None:
    def f(schema: str, model_config: int = 1, _private: bool = False) -> str:
        """F."""
        return schema

    tool = Tool.from_function(f)
    assert set(tool.input_schema["properties"]) == {"schema", "model_config", "_private"}
    bound = tool.bind({"schema": "s", "model_config": "2", "_private": True}, strict=False, injected={})
    assert bound.kwargs == {"schema": "s", "model_config": 2, "_private": True}


def test_unschemable_parameter_type_names_the_parameter() -> None:
    class Opaque:
        pass

    def f(thing: Opaque) -> None:
        """F."""

    with pytest.raises(ToolDefinitionError, match="parameter 'thing' has type Opaque"):
        Tool.from_function(f)


def test_undefined_annotation_is_a_clear_error() -> None:
    namespace: dict[str, Any] = {}
    exec("from __future__ import annotations\ndef f(x: Missing) -> int: ...", namespace)
    with pytest.raises(ToolDefinitionError, match="undefined"):
        Tool.from_function(namespace["f"])


def test_lambda_needs_a_name() -> None:
    with pytest.raises(ToolDefinitionError, match="explicit name"):
        Tool.from_function(lambda x: x)
    assert Tool.from_function(lambda x: x, name="identity").name == "identity"


@pytest.mark.parametrize(
    ("annotation", "wrapped"),
    [
        (int, True),
        (str, True),
        (list[int], True),
        (int | str, True),
        (dict, False),
        (User, False),
        (Point, False),
    ],
)
def test_output_wrapping_rule(annotation: Any, wrapped: bool) -> None:
    def f() -> None:
        """F."""

    f.__annotations__["return"] = annotation
    tool = Tool.from_function(f)
    assert tool.wrap_result is wrapped
    assert tool.output_schema is not None
    assert tool.output_schema.get("x-jupyter-mcp-wrap-result", False) is wrapped


def test_no_output_schema_without_annotation_or_for_content() -> None:
    from jupyter_mcp.tools import Image, ToolResult

    def none() -> None: ...
    def plain(): ...
    def image() -> Image: ...  # type: ignore[empty-body]
    def result() -> ToolResult: ...  # type: ignore[empty-body]
    def anything() -> Any: ...

    for fn in (none, plain, image, result, anything):
        assert Tool.from_function(fn, name="t").output_schema is None


def test_typing_typeddict_on_old_python_is_a_clear_error() -> None:
    import sys
    import typing

    if sys.version_info >= (3, 12):
        pytest.skip("typing.TypedDict works with pydantic from Python 3.12")

    class Old(typing.TypedDict):
        a: int

    def f(x: Old) -> None:
        """F."""

    with pytest.raises(ToolDefinitionError, match=r"typing_extensions\.TypedDict"):
        Tool.from_function(f)
