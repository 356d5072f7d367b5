"""``input_schema=``: a JSON Schema 2020-12 advertised exactly as given, and still enforced."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from jupyter_mcp.tools import Tool, ToolDefinitionError, ToolServer
from tests.conftest import connected

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "required": ["name"],
    "additionalProperties": False,
}


def contact(
    name: str, address: dict[str, str] | None = None, phone: str | None = None, email: str | None = None
) -> str:
    """Whom to reach, and how."""
    city = (address or {}).get("city", "somewhere")
    return f"{name} in {city} at {phone or email}"


@pytest.mark.parametrize("dereference", [True, False])
async def test_the_schema_is_listed_exactly_as_given(mode: str, dereference: bool) -> None:
    server = ToolServer("t", dereference_schemas=dereference)
    given = copy.deepcopy(SCHEMA)
    server.add_tool(contact, input_schema=given)
    given["title"] = "changed afterwards"  # the tool kept its own copy
    async with connected(server, mode) as client:
        (tool,) = (await client.list_tools()).tools
    assert tool.input_schema == SCHEMA


async def test_calls_are_checked_against_it_then_bound(mode: str) -> None:
    server = ToolServer("t")
    server.add_tool(contact, input_schema=SCHEMA)
    async with connected(server, mode) as client:
        ok = await client.call_tool("contact", {"name": "Ada", "address": {"city": "London"}, "email": "a@b"})
        neither = await client.call_tool("contact", {"name": "Ada"})
        extra = await client.call_tool("contact", {"name": "Ada", "phone": "1", "fax": "2"})
        nested = await client.call_tool("contact", {"name": "Ada", "phone": "1", "address": {"city": 3}})
    assert ok.structured_content == {"result": "Ada in London at a@b"}
    assert [r.is_error for r in (neither, extra, nested)] == [True, True, True]
    assert neither.content[0].text.startswith("Invalid arguments for tool 'contact':\n- (arguments): ")  # type: ignore[union-attr]
    assert "'fax' was unexpected" in extra.content[0].text  # type: ignore[union-attr]
    assert "- address.city: 3 is not of type 'string'" in nested.content[0].text  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("schema", "fragment"),
    [
        ({"type": "array"}, 'must describe an object ("type": "object")'),
        ({"type": "object", "properties": 3}, "is not a valid JSON schema"),
        (
            {"type": "object", "properties": {"fax": {}}, "required": ["name"]},
            "properties the function does not take: fax",
        ),
        ({"type": "object", "properties": {"name": {}}}, "must list the function's required parameters"),
    ],
)
def test_schemas_that_do_not_fit_the_function_are_refused(schema: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ToolDefinitionError, match="tool 'contact': input_schema") as refused:
        Tool.from_function(contact, input_schema=schema)
    assert fragment in str(refused.value)
