"""Resources and templates through a real mcp.Client in both eras: listing, reading, coercion, refusals."""

from __future__ import annotations

import base64
from typing import Any

import mcp_types as mt
import pytest
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools import Context, ResourceError, ResourceTemplate, ToolDefinitionError, ToolServer
from jupyter_mcp.tools.components.resources import resource_from_function
from tests.conftest import connected

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAAASUVORK5CYII="
)


def dump(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True, mode="json")


def catalog() -> ToolServer:
    server = ToolServer("catalog")
    table = [{"city": "Paris", "country": "fr"}, {"city": "Lyon", "country": "fr"}, {"city": "Rome", "country": "it"}]

    @server.resource("data://cities", description="The city table", tags={"data"})
    def cities() -> list[dict[str, str]]:
        return table

    @server.resource("data://cities/{country}{?limit}")
    def cities_in(country: str, limit: int = 10) -> list[dict[str, str]]:
        """The cities of one country."""
        return [row for row in table if row["country"] == country][:limit]

    @server.resource("files://notes/{path*}", mime_type="text/markdown")
    def note(path: str) -> str:
        return f"# {path}"

    @server.resource("data://logo", mime_type="image/png", annotations={"audience": ["user"], "priority": 0.5})
    def logo() -> bytes:
        return PNG

    @server.resource("data://whoami")
    async def whoami(ctx: Context) -> str:
        return ctx.client_info.name if ctx.client_info else "nobody"

    @server.resource("data://broken")
    def broken() -> str:
        raise ResourceError("The table is being rebuilt, try again in a minute")

    @server.resource("data://crash")
    def crash() -> str:
        return str(1 / 0)

    return server


async def read(client: Any, uri: str) -> list[dict[str, Any]]:
    return [dump(contents) for contents in (await client.read_resource(uri)).contents]


async def test_lists_resources_and_templates_apart(mode: str) -> None:
    async with connected(catalog(), mode) as client:
        resources = {r.uri: dump(r) for r in (await client.list_resources()).resources}
        templates = {t.uri_template: dump(t) for t in (await client.list_resource_templates()).resource_templates}
        capabilities = client.server_capabilities.resources
    assert resources["data://cities"] == {
        "uri": "data://cities",
        "name": "cities",
        "description": "The city table",
        "mimeType": "application/json",
        "_meta": {"jupyter-mcp/tags": ["data"]},
    }
    assert resources["data://logo"]["annotations"] == {"audience": ["user"], "priority": 0.5}
    assert templates == {
        "data://cities/{country}{?limit}": {
            "uriTemplate": "data://cities/{country}{?limit}",
            "name": "cities_in",
            "description": "The cities of one country.",
            "mimeType": "application/json",
        },
        "files://notes/{path*}": {"uriTemplate": "files://notes/{path*}", "name": "note", "mimeType": "text/markdown"},
    }
    assert capabilities is not None
    assert capabilities.list_changed is True


async def test_reads_text_json_blobs_and_templates(mode: str) -> None:
    async with connected(catalog(), mode) as client:
        assert (await read(client, "data://cities/it")) == [
            {"uri": "data://cities/it", "mimeType": "application/json", "text": '[{"city": "Rome", "country": "it"}]'}
        ]
        limited = await read(client, "data://cities/fr?limit=1")
        assert limited[0]["text"] == '[{"city": "Paris", "country": "fr"}]'
        assert (await read(client, "data://logo")) == [
            {"uri": "data://logo", "mimeType": "image/png", "blob": base64.b64encode(PNG).decode()}
        ]
        assert (await read(client, "files://notes/2024/june/plan.md"))[0]["text"] == "# 2024/june/plan.md"
        assert (await read(client, "data://whoami"))[0]["text"] == "mcp"


async def test_a_bad_template_value_is_an_error_naming_the_parameter(mode: str) -> None:
    async with connected(catalog(), mode) as client:
        with pytest.raises(MCPError) as bad:
            await client.read_resource("data://cities/fr?limit=many")
    assert bad.value.code == mt.INVALID_PARAMS
    assert bad.value.message.splitlines() == [
        "Invalid arguments for resource 'data://cities/{country}{?limit}':",
        "- limit: Input should be a valid integer, unable to parse string as an integer (got 'many')",
    ]


@pytest.mark.parametrize(
    "uri",
    [
        "files://notes/../../etc/passwd",
        "files://notes/a/%2E%2E/%2E%2E/secret",
        "files://notes//etc/passwd",
        "files://notes/a%00b",
    ],
)
async def test_paths_never_escape_their_directory(mode: str, uri: str) -> None:
    async with connected(catalog(), mode) as client:
        with pytest.raises(MCPError) as refused:
            await client.read_resource(uri)
    assert refused.value.code == mt.INVALID_PARAMS
    assert "- path: " in refused.value.message
    assert "values may not contain '..' segments, absolute paths or NUL bytes" in refused.value.message


async def test_unknown_resource_is_the_spec_error_of_each_era(mode: str) -> None:
    async with connected(catalog(), mode) as client:
        with pytest.raises(MCPError) as missing:
            await client.read_resource("data://nothing")
    assert missing.value.code == (-32002 if mode == "legacy" else mt.INVALID_PARAMS)
    assert missing.value.data == {"uri": "data://nothing"}
    assert missing.value.message.startswith("Resource not found: 'data://nothing'. Available resources: data://cities")


async def test_failing_functions_are_errors_with_their_message(mode: str) -> None:
    async with connected(catalog(), mode) as client:
        with pytest.raises(MCPError) as broken:
            await client.read_resource("data://broken")
        with pytest.raises(MCPError) as crash:
            await client.read_resource("data://crash")
    assert (broken.value.code, broken.value.message) == (
        mt.INTERNAL_ERROR,
        "The table is being rebuilt, try again in a minute",
    )
    assert (crash.value.code, crash.value.message) == (mt.INTERNAL_ERROR, "ZeroDivisionError: division by zero")


async def test_masked_errors_still_send_resource_errors(mode: str) -> None:
    server = catalog()
    server.calls.settings.mask_error_details = True
    async with connected(server, mode) as client:
        with pytest.raises(MCPError) as crash:
            await client.read_resource("data://crash")
        with pytest.raises(MCPError) as broken:
            await client.read_resource("data://broken")
    assert crash.value.message == "Reading resource 'data://crash' failed; the server hides error details"
    assert broken.value.message == "The table is being rebuilt, try again in a minute"


async def test_disabled_resources_look_unknown_and_come_back(mode: str) -> None:
    server = catalog()
    server.disable(names={"cities"})  # by name: the same as its URI
    server.disable(tags={"data"})
    async with connected(server, mode) as client:
        assert "data://cities" not in {r.uri for r in (await client.list_resources()).resources}
        with pytest.raises(MCPError):
            await client.read_resource("data://cities")
        server.enable(names={"data://cities"}, tags={"data"})
        assert (await read(client, "data://cities"))[0]["uri"] == "data://cities"


def test_templates_must_fit_their_function() -> None:
    def by_country(country: str, limit: int) -> str:
        return country

    with pytest.raises(ToolDefinitionError, match=r"has \{region\}, but by_country\(\) has no parameter 'region'"):
        resource_from_function(by_country, "data://{region}")
    with pytest.raises(ToolDefinitionError, match=r"by_country\(\) needs 'limit', which the template does not give"):
        resource_from_function(by_country, "data://{country}")
    with pytest.raises(
        ToolDefinitionError, match="query parameter 'limit' is optional in a URI, so it needs a default"
    ):
        resource_from_function(by_country, "data://{country}{?limit}")
    with pytest.raises(ToolDefinitionError, match=r"use a template such as 'data://x/\{country\}/\{limit\}'"):
        resource_from_function(by_country, "data://x")
    with pytest.raises(ToolDefinitionError, match="not a valid RFC 6570 URI template"):
        resource_from_function(by_country, "data://{country")
    with pytest.raises(ToolDefinitionError, match="must look like scheme://path"):
        resource_from_function(by_country, "cities")
    with pytest.raises(ToolDefinitionError, match=r"unknown resource option 'mimetype' \(did you mean 'mime_type'\?\)"):
        resource_from_function(by_country, "data://{country}/{limit}", mimetype="text/plain")  # type: ignore[call-arg]


def test_template_expands_the_values_it_matches() -> None:
    template = catalog().resources["files://notes/{path*}"]
    assert isinstance(template, ResourceTemplate)
    assert template.expand({"path": "a/b.md"}) == "files://notes/a/b.md"
    assert template.match("files://notes/a/b.md") == {"path": "a/b.md"}
    assert template.variables == ["path"]
