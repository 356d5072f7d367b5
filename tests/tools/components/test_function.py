"""Docstrings -> descriptions: the seed examples as an exact snapshot (snapshots/seed_tools.json), sections, styles."""

import json
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import Field

from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.components.function import parse_function
from tests.tools import seed_tools as seeds


def listed(server: ToolServer) -> dict[str, dict[str, Any]]:
    return {
        t.name: t.to_mcp().model_dump(by_alias=True, exclude_none=True, mode="json") for t in server.registry.visible()
    }


SNAPSHOTS = Path(__file__).with_name("snapshots")
SEED_SNAPSHOT: dict[str, dict[str, Any]] = json.loads((SNAPSHOTS / "seed_tools.json").read_text())
"""What ``tools/list`` says for the seed documents' examples (FastMCP's own snapshots), exactly."""


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
