"""``direct_runner``: a 2026-era ``CallToolResult`` dumped once answers exactly as the SDK's shaping does."""

from __future__ import annotations

from typing import Any

import mcp_types as mt
import pytest
from mcp.server import Server
from mcp.server.caching import CacheHint
from mcp.server.connection import Connection
from mcp.server.runner import ServerRunner
from mcp.shared.exceptions import MCPError
from mcp_types import SERVER_INFO_META_KEY
from mcp_types.version import LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS

from jupyter_mcp.adapters.sdk import ShapingRunner
from jupyter_mcp.tools.transports.http.direct import direct_runner

pytestmark = pytest.mark.fast_path  # the SDK adapter's ShapingRunner

ICON = mt.Icon(src="https://example.com/i.png", mime_type="image/png")
RESULTS = [
    mt.CallToolResult(content=[mt.TextContent(type="text", text="3")], structured_content={"result": 3}),
    mt.CallToolResult(content=[], is_error=True),
    mt.CallToolResult(
        content=[
            mt.TextContent(type="text", text="x", annotations=mt.Annotations(audience=["user"], priority=0.5)),
            mt.ImageContent(type="image", data="aGk=", mime_type="image/png", _meta={"k": 1}),
            mt.AudioContent(type="audio", data="aGk=", mime_type="audio/wav"),
            mt.ResourceLink(type="resource_link", uri="result://1", name="r", icons=[ICON], size=3),
            mt.EmbeddedResource(
                type="resource", resource=mt.TextResourceContents(uri="file:///a", text="a", mime_type="text/plain")
            ),
            mt.EmbeddedResource(type="resource", resource=mt.BlobResourceContents(uri="file:///b", blob="aGk=")),
        ],
        _meta={"io.example/kept": [1, {"a": None}]},
    ),
    mt.CallToolResult(content=[], _meta={SERVER_INFO_META_KEY: {"name": "mine", "version": "0"}}),
]


STAMPS: dict[int, dict[str, Any]] = {}


def _runners(version: str, server: Server[Any] | None = None) -> tuple[ServerRunner[Any], ServerRunner[Any]]:
    server = server or Server("direct-test", version="1.2.3", title="Direct")
    connection = Connection.from_envelope(version, {"name": "c", "version": "1"}, {})
    stamp = server.server_info_stamp
    direct = direct_runner(server, connection, None, stamp)
    assert isinstance(direct, ShapingRunner)
    STAMPS[id(direct)] = stamp
    return ServerRunner(server, connection, None), direct


def test_without_a_stamp_the_runner_is_the_sdks() -> None:
    server: Server[Any] = Server("plain")
    connection = Connection.from_envelope(max(MODERN_PROTOCOL_VERSIONS), None, None)
    assert type(direct_runner(server, connection, None, None)) is ServerRunner


@pytest.mark.parametrize("version", sorted(MODERN_PROTOCOL_VERSIONS))
@pytest.mark.parametrize("result", RESULTS)
def test_one_dump_is_the_sdk_answer(version: str, result: mt.CallToolResult) -> None:
    sdk, direct = _runners(version)
    shaped = direct._serialize("tools/call", version, result)
    assert shaped == sdk._serialize("tools/call", version, result)
    if result is RESULTS[-1]:
        assert shaped["_meta"][SERVER_INFO_META_KEY]["name"] == "mine"
    else:  # the one dump taken at the start, not the SDK's fresh copy: this path was the direct one
        assert shaped["_meta"][SERVER_INFO_META_KEY] is STAMPS[id(direct)]


class _Extended(mt.CallToolResult):
    extra_field: str = "dropped by the surface"


@pytest.mark.parametrize(
    ("method", "version", "result"),
    [
        ("tools/call", LATEST_HANDSHAKE_VERSION, RESULTS[0]),  # the 2025 surface has no resultType
        ("tools/call", max(MODERN_PROTOCOL_VERSIONS), _Extended(content=[])),
        ("tools/call", max(MODERN_PROTOCOL_VERSIONS), mt.InputRequiredResult(input_requests={}, request_state="s")),
        ("tools/call", max(MODERN_PROTOCOL_VERSIONS), {**RESULTS[0].model_dump(by_alias=True), "extra": 1}),
        ("prompts/get", max(MODERN_PROTOCOL_VERSIONS), mt.GetPromptResult(messages=[])),
    ],
)
def test_other_shapes_are_the_sdks(method: str, version: str, result: Any) -> None:
    sdk, direct = _runners(version)
    assert direct._serialize(method, version, result) == sdk._serialize(method, version, result)
    if isinstance(result, _Extended):
        assert "extraField" not in direct._serialize(method, version, result)


def test_a_cache_hint_is_the_sdks() -> None:
    server: Server[Any] = Server("hinted")
    server.cache_hints["tools/call"] = CacheHint(ttl_ms=5, scope="public")
    version = max(MODERN_PROTOCOL_VERSIONS)
    sdk, direct = _runners(version, server)
    shaped = direct._serialize("tools/call", version, RESULTS[0])
    assert shaped == sdk._serialize("tools/call", version, RESULTS[0])


def test_an_invalid_result_is_still_refused() -> None:
    version = max(MODERN_PROTOCOL_VERSIONS)
    _, direct = _runners(version)
    with pytest.raises(MCPError, match="invalid result"):
        direct._serialize("tools/call", version, {"content": "not a list"})
