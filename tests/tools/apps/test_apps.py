"""MCP Apps, negotiated per request: clients that declare the extension get each tool's ``ui://`` card and
its document; every other client gets exactly what it got before. Real ``mcp.Client``s in both eras."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import mcp_types as mt
import pytest
from mcp import Client
from mcp.client.extension import advertise
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.apps import apponly, document
from tests.conftest import connected, http_client, served

APPS = advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})
"""What a host that renders MCP Apps declares (Claude, VS Code, the MCP Inspector)."""
OTHER_UI = advertise(EXTENSION_ID, {"mimeTypes": ["text/uri-list"]})
"""The extension without the MCP App MIME type: no apps."""
DOCUMENT_LIMIT = 300_000


def dump(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True, mode="json")


def make_server(**options: Any) -> ToolServer:
    server = ToolServer("apps", **options)

    @server.tool(annotations={"readOnlyHint": True}, tags={"geo"})
    def cities(limit: int = 2) -> list[dict[str, Any]]:
        """Cities and their populations."""
        return [{"city": "Oslo", "population": 709_000}, {"city": "Bergen", "population": 291_000}][:limit]

    @server.tool(app=False)
    def plain(text: str) -> str:
        """A tool without an app."""
        return text

    @server.tool(meta={"ui": {"resourceUri": "ui://mine/view"}})
    def own_app() -> str:
        """A tool that brings an app of its own."""
        return "mine"

    @server.tool
    def big(rows: int = 40_000) -> list[dict[str, Any]]:
        """A result far over the result budget."""
        return [{"n": i, "text": "x" * 20} for i in range(rows)]

    return server


def ui_of(tool: mt.Tool) -> Any:
    meta = tool.meta or {}
    return meta.get("ui"), meta.get("ui/resourceUri")


async def test_a_client_that_renders_apps_sees_each_tools_card(mode: str) -> None:
    server = make_server()
    async with connected(server, mode, extensions=[APPS]) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    uri = "ui://jupyter-mcp/tool/cities"
    assert ui_of(tools["cities"]) == ({"resourceUri": uri}, uri)
    assert ui_of(tools["big"])[1] == "ui://jupyter-mcp/tool/big"
    assert ui_of(tools["plain"]) == (None, None)  # app=False
    assert ui_of(tools["own_app"]) == ({"resourceUri": "ui://mine/view"}, None)  # its own app stays
    assert (tools["cities"].meta or {})["jupyter-mcp/tags"] == ["geo"]
    for name in apponly.NAMES:  # listed for the app, marked so the host keeps them from the model
        assert (tools[name].meta or {})["ui"] == {"visibility": ["app"]}
    assert len(tools) == 4 + len(apponly.NAMES)


@pytest.mark.parametrize("extensions", [[], [OTHER_UI]], ids=["none", "other-mime-type"])
async def test_any_other_client_gets_exactly_what_it_got_before(mode: str, extensions: list[Any]) -> None:
    with_apps, without = make_server(), make_server(apps=False)
    answers = []
    for server in (with_apps, without):
        async with connected(server, mode, extensions=extensions) as client:
            listed = dump(await client.list_tools())
            called = dump(await client.call_tool("cities", {"limit": 1}))
            answers.append((listed, called))
    assert answers[0] == answers[1]
    names = [tool["name"] for tool in answers[0][0]["tools"]]
    assert names == ["cities", "plain", "own_app", "big"]
    assert all("ui" not in (tool.get("_meta") or {}) or tool["name"] == "own_app" for tool in answers[0][0]["tools"])


async def test_other_clients_can_neither_read_a_card_nor_call_the_app_only_tools(mode: str) -> None:
    server = make_server()
    async with connected(server, mode) as client:
        with pytest.raises(MCPError, match="Resource not found: 'ui://jupyter-mcp/tool/cities'"):
            await client.read_resource("ui://jupyter-mcp/tool/cities")
        refused = await client.call_tool(apponly.STATUS_TOOL, {"tool": "cities"})
    assert refused.is_error
    assert isinstance(refused.content[0], mt.TextContent)
    assert refused.content[0].text.startswith(f"Unknown tool: {apponly.STATUS_TOOL!r}")


async def test_the_setting_turns_apps_off_and_on_at_once(mode: str) -> None:
    server = make_server()
    async with connected(server, mode, extensions=[APPS]) as client:
        assert ui_of((await client.list_tools()).tools[0])[1] is not None
        server.settings.apps = False
        listed = (await client.list_tools(cache_mode="refresh")).tools
        assert [ui_of(tool) for tool in listed if tool.name != "own_app"] == [(None, None)] * 3
        with pytest.raises(MCPError, match="Resource not found"):
            await client.read_resource("ui://jupyter-mcp/tool/cities")
        server.settings.apps = True
        assert len((await client.list_tools(cache_mode="refresh")).tools) == 4 + len(apponly.NAMES)


async def test_the_list_cache_keeps_one_answer_per_kind_of_client() -> None:
    server = make_server()
    for _ in range(2):  # the second round is answered from the cache
        for extensions, linked in (([APPS], True), ([], False), ([OTHER_UI], False), ([APPS], True)):
            for mode in ("legacy", "auto"):
                async with connected(server, mode, extensions=extensions) as client:
                    tool = (await client.list_tools()).tools[0]
                    assert (ui_of(tool)[1] is not None) is linked, (extensions, mode)


class _Document(HTMLParser):
    """What a host checks in an app document: an HTML5 page whose script and style are all inline."""

    def __init__(self) -> None:
        super().__init__()
        self.doctype = ""
        self.external: list[str] = []
        self.scripts = 0

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script":
            self.scripts += 1
        if (tag in ("script", "img", "iframe") and names.get("src")) or (tag == "link" and names.get("href")):
            self.external.append(f"{tag} {names}")


async def test_the_card_document_is_one_self_contained_html5_page(mode: str) -> None:
    server = make_server()
    async with connected(server, mode, extensions=[APPS]) as client:
        read = await client.read_resource("ui://jupyter-mcp/tool/big")
        await client.call_tool("big", {})  # a result of megabytes: the document does not grow with it
        again = await client.read_resource("ui://jupyter-mcp/tool/big")
    (contents,) = read.contents
    assert isinstance(contents, mt.TextResourceContents)
    assert (contents.uri, contents.mime_type, contents.meta) == (
        "ui://jupyter-mcp/tool/big",
        APP_MIME_TYPE,
        {"ui": {"prefersBorder": True}},
    )
    parsed = _Document()
    parsed.feed(contents.text)
    assert (parsed.doctype, parsed.external, parsed.scripts) == ("DOCTYPE html", [], 2)
    size = len(contents.text.encode())
    assert 20_000 < size < DOCUMENT_LIMIT, size
    assert again == read
    data = re.search(r'<script type="application/json" id="jmcp-app-data">(.*?)</script>', contents.text)
    assert data is not None
    assert '"name":"big"' in data.group(1)
    assert '"status":"jupyter_mcp_app_status"' in data.group(1)


async def test_a_card_of_a_tool_without_one_is_not_found() -> None:
    server = make_server()
    async with connected(server, "auto", extensions=[APPS]) as client:
        for name in ("plain", "own_app", "nothing"):
            with pytest.raises(MCPError, match=f"No app at 'ui://jupyter-mcp/tool/{name}'"):
                await client.read_resource(f"ui://jupyter-mcp/tool/{name}")


def test_a_bad_app_option_is_refused() -> None:
    def f() -> int:
        return 1

    with pytest.raises(TypeError, match=r"^tool 'f': app must be True or False, got 'no'$"):
        ToolServer("x").tool(app="no")(f)  # type: ignore[call-overload]


async def test_over_http_both_eras_negotiate_per_request() -> None:
    server = make_server()
    with served(server) as url:
        for mode in ("legacy", "auto"):
            async with (
                http_client(url, "test-token", mode=mode, extensions=[APPS]) as apps,
                http_client(url, "test-token", mode=mode) as plain,
            ):
                for _ in range(3):  # the first list is built, the next ones come from the cache (as bytes)
                    assert (
                        ui_of((await apps.list_tools(cache_mode="refresh")).tools[0])[1]
                        == "ui://jupyter-mcp/tool/cities"
                    )
                    assert ui_of((await plain.list_tools(cache_mode="refresh")).tools[0]) == (None, None)
                read = await apps.read_resource("ui://jupyter-mcp/tool/cities")
                assert read.contents[0].mime_type == APP_MIME_TYPE


def test_the_document_escapes_what_could_end_its_script() -> None:
    tool = mt.Tool(name="t", description="</script><script>alert(1)</script>", input_schema={"type": "object"})
    html = document.document(tool, {"status": "s", "read": "r"}, "void 0")
    assert html.count("</script>") == 2
    assert "\\u003c/script>" in html


def test_an_unbuilt_bundle_means_no_apps(monkeypatch: pytest.MonkeyPatch) -> None:
    document.bundle.cache_clear()
    monkeypatch.setattr(document, "BUNDLE", ("widgets", "static", "missing.js"))
    try:
        assert document.bundle() is None
    finally:
        document.bundle.cache_clear()


async def test_no_app_for_a_client_when_the_bundle_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(document, "bundle", lambda: None)
    server = make_server()
    async with Client(server.lowlevel, mode="auto", extensions=[APPS]) as client:
        assert [ui_of(t)[1] for t in (await client.list_tools()).tools] == [None] * 4
