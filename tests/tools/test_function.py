"""Signature + docstring -> schemas: exact snapshots for the seed examples and the rules around them."""

import datetime as dt
import enum
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from jupyter_mcp.tools import Context, Tool, ToolDefinitionError, ToolServer
from jupyter_mcp.tools.function import parse_function

from . import seed_tools as seeds


def listed(server: ToolServer) -> dict[str, dict[str, Any]]:
    return {
        t.name: t.to_mcp().model_dump(by_alias=True, exclude_none=True, mode="json") for t in server.registry.visible()
    }


SEED_SNAPSHOT: dict[str, dict[str, Any]] = {
    "add": {
        "name": "add",
        "description": "Adds two integer numbers together.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "integer"}},
            "required": ["result"],
            "x-jupyter-mcp-wrap-result": True,
        },
    },
    "find_products": {
        "name": "find_products",
        "description": "Search the product catalog with optional category filtering.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "category": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            },
            "required": ["query"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"type": "object", "additionalProperties": True}}},
            "required": ["result"],
            "x-jupyter-mcp-wrap-result": True,
        },
        "_meta": {"version": "1.2", "author": "product-team", "jupyter-mcp/tags": ["catalog", "search"]},
    },
    "process_image_docstring": {
        "name": "process_image_docstring",
        "description": "Process an image with optional resizing.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {
                "image_url": {"type": "string", "description": "URL of the image to process."},
                "resize": {
                    "type": "boolean",
                    "default": False,
                    "description": "Whether to resize the image.",
                },
                "width": {"type": "integer", "default": 800, "description": "Target width in pixels."},
            },
            "required": ["image_url"],
        },
        "outputSchema": {"type": "object", "additionalProperties": True},
    },
    "process_image_annotated": {
        "name": "process_image_annotated",
        "description": "Process an image with optional resizing.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {
                "image_url": {"type": "string", "description": "URL of the image to process"},
                "resize": {"type": "boolean", "default": False, "description": "Whether to resize the image"},
                "width": {"type": "integer", "default": 800, "description": "Target width in pixels"},
                "format": {"type": "string", "default": "jpeg", "description": "Output image format"},
            },
            "required": ["image_url"],
        },
        "outputSchema": {"type": "object", "additionalProperties": True},
    },
    "process_image_field": {
        "name": "process_image_field",
        "description": "Process an image with optional resizing.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {
                "image_url": {"type": "string", "description": "URL of the image to process"},
                "resize": {"type": "boolean", "default": False, "description": "Whether to resize the image"},
                "width": {
                    "type": "integer",
                    "default": 800,
                    "description": "Target width in pixels",
                    "minimum": 1,
                    "maximum": 2000,
                },
                "format": {
                    "type": "string",
                    "enum": ["jpeg", "png", "webp"],
                    "default": "jpeg",
                    "description": "Output image format",
                },
            },
            "required": ["image_url"],
        },
        "outputSchema": {"type": "object", "additionalProperties": True},
    },
    "analyze_text": {
        "name": "analyze_text",
        "description": "Analyze the provided text.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "max_tokens": {"type": "integer", "default": 100},
                "language": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            },
            "required": ["text"],
        },
        "outputSchema": {"type": "object", "additionalProperties": True},
    },
    "search_products": {
        "name": "search_products",
        "description": "Search the product catalog.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "max_results": {"type": "integer", "default": 10},
                "sort_by": {"type": "string", "default": "relevance"},
                "category": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            },
            "required": ["query"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"type": "object", "additionalProperties": True}}},
            "required": ["result"],
            "x-jupyter-mcp-wrap-result": True,
        },
        "annotations": {"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False},
    },
    "get_user_profile": {
        "name": "get_user_profile",
        "description": "Get a user's profile information.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {"user_id": {"type": "string"}},
            "required": ["user_id"],
        },
        "outputSchema": {
            "type": "object",
            "title": "Person",
            "properties": {
                "name": {"title": "Name", "type": "string"},
                "age": {"title": "Age", "type": "integer"},
                "email": {"title": "Email", "type": "string"},
            },
            "required": ["name", "age", "email"],
        },
    },
    "get_quote": {
        "name": "get_quote",
        "description": "Look up a stock quote.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {"symbol": {"type": "string"}},
            "required": ["symbol"],
        },
        "outputSchema": {
            "type": "object",
            "title": "Quote",
            "properties": {
                "symbol": {"title": "Symbol", "type": "string"},
                "price": {"title": "Price", "type": "number"},
                "currency": {"title": "Currency", "type": "string", "default": "USD"},
            },
            "required": ["symbol", "price"],
        },
    },
    "divide": {
        "name": "divide",
        "description": "Divide a by b.",
        "inputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "number"}},
            "required": ["result"],
            "x-jupyter-mcp-wrap-result": True,
        },
    },
    "get_config": {
        "name": "get_config",
        "description": "Returns configuration as YAML.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    },
}


def test_seed_examples_snapshot() -> None:
    assert listed(seeds.seed_server()) == SEED_SNAPSHOT


def test_docstring_sections_are_not_description() -> None:
    parsed = parse_function(seeds.process_image_docstring)
    assert parsed.description == "Process an image with optional resizing."


@pytest.mark.parametrize("style", ["google", "numpy", "sphinx"])
def test_docstring_styles_give_parameter_descriptions(style: str) -> None:
    docs = {
        "google": "Scale a value.\n\nMore detail here.\n\nArgs:\n    x: The value.\n    k: The factor.\n\n"
        "Returns:\n    The product.\n\nExamples:\n    >>> scale(2, 3)\n",
        "numpy": "Scale a value.\n\nMore detail here.\n\nParameters\n----------\nx : int\n    The value.\n"
        "k : int\n    The factor.\n\nReturns\n-------\nint\n    The product.\n",
        "sphinx": "Scale a value.\n\nMore detail here.\n\n:param x: The value.\n:param k: The factor.\n"
        ":returns: The product.\n:raises ValueError: never\n",
    }

    def scale(x: int, k: int = 2) -> int:
        return x * k

    scale.__doc__ = docs[style]
    parsed = parse_function(scale)
    assert parsed.description == "Scale a value.\n\nMore detail here."
    props = parsed.input_schema["properties"]
    assert props["x"]["description"] == "The value."
    assert props["k"]["description"] == "The factor."


def test_explicit_description_wins_over_docstring() -> None:
    def f(a: Annotated[int, "from Annotated"], b: Annotated[int, Field(description="from Field")], c: int) -> int:
        """Doc.

        Args:
            a: from docstring
            b: from docstring
            c: from docstring
        """
        return a

    props = parse_function(f).input_schema["properties"]
    assert [props[n]["description"] for n in "abc"] == ["from Annotated", "from Field", "from docstring"]


def test_field_as_default_value() -> None:
    def search_database(
        query: str = Field(description="Search query string"),
        limit: int = Field(10, description="Maximum number of results", ge=1, le=100),
    ) -> list:
        """Search the database with the provided query."""
        return []

    schema = parse_function(search_database).input_schema
    assert schema == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Search query string"},
            "limit": {
                "type": "integer",
                "default": 10,
                "description": "Maximum number of results",
                "minimum": 1,
                "maximum": 100,
            },
        },
        "required": ["query"],
        "additionalProperties": False,
    }


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


def test_options_override_everything() -> None:
    tool = Tool.from_function(
        seeds.add,
        name="plus",
        title="Plus",
        description="Sum.",
        tags=["math"],
        annotations={"readOnlyHint": True, "title": "Plus!"},
        meta={"v": 1},
        icons=[{"src": "https://example.com/i.png", "mimeType": "image/png"}],
        timeout=2.5,
        output_schema={
            "type": "object",
            "properties": {"result": {"type": "number"}},
            "x-jupyter-mcp-wrap-result": True,
        },
        enabled=False,
        strict=True,
        run_on="main",
    )
    advertised = tool.to_mcp().model_dump(by_alias=True, exclude_none=True, mode="json")
    assert advertised == {
        "name": "plus",
        "title": "Plus",
        "description": "Sum.",
        "inputSchema": SEED_SNAPSHOT["add"]["inputSchema"],
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "number"}},
            "x-jupyter-mcp-wrap-result": True,
        },
        "icons": [{"src": "https://example.com/i.png", "mimeType": "image/png"}],
        "annotations": {"title": "Plus!", "readOnlyHint": True},
        "_meta": {"v": 1, "jupyter-mcp/tags": ["math"]},
    }
    assert (tool.timeout, tool.enabled, tool.strict, tool.run_on) == (2.5, False, True, "main")
    assert Tool.from_function(seeds.add, output_schema=False).output_schema is None


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"timeout": 0}, "timeout must be a positive number"),
        ({"run_on": "gpu"}, "run_on must be 'worker' or 'main'"),
        ({"output_schema": {"type": "array"}}, "output_schema must describe an object"),
        ({"output_schema": {"type": "object", "properties": 3}}, "not a valid JSON schema"),
        ({"annotations": {"readonly": True}}, "unknown tool annotation"),
    ],
)
def test_bad_options_are_specific_errors(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises((ToolDefinitionError, ValueError), match=fragment):
        Tool.from_function(seeds.add, **options)


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
