"""The app-only tools an app calls while its user looks: a call's live status and a preview's full value in
chunks. Each answers only its requester's own calls, and nothing of it reaches the notebook's history."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import mcp_types as mt
import pytest
from mcp import Client

from jupyter_mcp.tools import CallHistory, Context, ToolServer
from jupyter_mcp.tools.apps.apponly import CHUNK_BYTES, READ_TOOL, STATUS_TOOL
from tests.conftest import http_client, served
from tests.tools.apps.test_apps import APPS

RELEASE = threading.Event()


def app_server() -> ToolServer:
    server = ToolServer("apps")

    @server.tool
    def slow(label: str, ctx: Context) -> str:
        """Reports half its progress, then waits for the test."""
        ctx.report_progress(1, 2, "half way")
        RELEASE.wait(10)
        return label

    @server.tool(confirm=True)
    def guarded(region: str) -> str:
        """Waits for the notebook user's approval."""
        return f"{region} reset"

    @server.tool
    def big(rows: int = 60_000) -> list[dict[str, Any]]:
        """Over the result budget: the client gets a preview and a result:// link."""
        return [{"n": i, "text": "ü" * 20, "quote": '"'} for i in range(rows)]

    return server


@pytest.fixture
def setup() -> Iterator[tuple[ToolServer, CallHistory, str]]:
    RELEASE.clear()
    server = app_server()
    history = CallHistory()
    server.add_call_observer(history)
    with served(server) as url:
        yield server, history, url
    RELEASE.set()


def apps_client(url: str, mode: str, name: str = "host") -> Client:
    return http_client(
        url, "test-token", mode=mode, extensions=[APPS], client_info=mt.Implementation(name=name, version="1")
    )


async def status(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    answer = await client.call_tool(STATUS_TOOL, {"tool": tool, "arguments": arguments})
    assert not answer.is_error, answer
    assert answer.structured_content is not None
    return answer.structured_content


async def until_status(client: Client, tool: str, arguments: dict[str, Any], wanted: str) -> dict[str, Any]:
    for _ in range(200):
        found = await status(client, tool, arguments)
        if found["found"] and found["call"]["status"] == wanted:
            return found["call"]
        await asyncio.sleep(0.05)
    raise AssertionError(f"{tool} never reached {wanted!r}: {found}")


async def test_the_app_sees_its_calls_progress_and_only_its_own(
    setup: tuple[ToolServer, CallHistory, str], mode: str
) -> None:
    _, _, url = setup
    async with apps_client(url, mode) as host, apps_client(url, mode, name="another-host") as other:
        running = asyncio.create_task(host.call_tool("slow", {"label": "a"}))
        call = await until_status(host, "slow", {"label": "a"}, "running")
        assert (call["progress"], call["text"], call["task"]) == (0.5, "1/2 · half way", "")
        assert await status(other, "slow", {"label": "a"}) == {"found": False}  # another session or client
        assert await status(host, "slow", {"label": "b"}) == {"found": False}  # other arguments
        RELEASE.set()
        assert (await running).content[0] == mt.TextContent(type="text", text="a")
        done = await until_status(host, "slow", {"label": "a"}, "ok")
    assert done["id"] == call["id"]


async def test_the_app_shows_a_wait_for_the_notebook_users_approval(
    setup: tuple[ToolServer, CallHistory, str], mode: str
) -> None:
    server, _, url = setup
    async with apps_client(url, mode) as host:
        waiting = asyncio.create_task(host.call_tool("guarded", {"region": "north"}))
        call = await until_status(host, "guarded", {"region": "north"}, "waiting")
        assert call["text"] == "for the notebook user's approval"
        server.pending[0].allow()
        assert not (await waiting).is_error
        await until_status(host, "guarded", {"region": "north"}, "ok")


async def test_a_full_value_comes_in_chunks_to_its_own_client_only(
    setup: tuple[ToolServer, CallHistory, str], mode: str
) -> None:
    server, _, url = setup
    async with apps_client(url, mode) as host, apps_client(url, mode, name="another-host") as other:
        preview = await host.call_tool("big", {})
        (link,) = [block for block in preview.content if isinstance(block, mt.ResourceLink)]
        assert link.uri.startswith("result://")
        chunks, offset = [], 0
        while offset is not None:
            answer = await host.call_tool(READ_TOOL, {"uri": link.uri, "offset": offset})
            chunk = answer.structured_content
            assert chunk is not None
            assert not answer.is_error
            assert len(json.dumps(chunk["data"], ensure_ascii=False).encode()) <= CHUNK_BYTES
            assert len(answer.content[0].text) < 500  # type: ignore[union-attr]  # the data is not said twice
            chunks.append(chunk["data"])
            offset = chunk["next"]
        refused = await other.call_tool(READ_TOOL, {"uri": link.uri})
        prefixed = await host.call_tool(READ_TOOL, {"uri": link.uri.replace("result://", "result://sales/")})
    full = server.result_links.get(link.uri.removeprefix("result://"))
    assert full is not None
    assert isinstance(full[0], mt.TextResourceContents)
    assert len(chunks) >= 3
    assert "".join(chunks) == full[0].text
    assert json.loads("".join(chunks))[59_999] == {"n": 59_999, "text": "ü" * 20, "quote": '"'}
    assert chunk["mimeType"] == "application/json"
    assert chunk["encoding"] == "text"
    assert refused.is_error
    assert refused.content[0].text == f"{link.uri} is not kept (any more) for this client: call the tool again"  # type: ignore[union-attr]
    assert prefixed.structured_content is not None
    assert prefixed.structured_content["data"] == chunks[0]


async def test_opening_the_app_adds_nothing_to_the_history(setup: tuple[ToolServer, CallHistory, str]) -> None:
    server, history, url = setup
    async with apps_client(url, "legacy") as host:
        preview = await host.call_tool("big", {"rows": 30_000})
        await host.read_resource("ui://jupyter-mcp/tool/big")
        await status(host, "big", {"rows": 30_000})
        (link,) = [block for block in preview.content if isinstance(block, mt.ResourceLink)]
        await host.call_tool(READ_TOOL, {"uri": link.uri})
    assert [(record.tool, record.kind) for record in history] == [("big", "tool")]
    assert server.stats.snapshot()["big"].calls == 1


async def test_bad_arguments_are_a_tool_error_that_names_them(setup: tuple[ToolServer, CallHistory, str]) -> None:
    _, _, url = setup
    async with apps_client(url, "auto") as host:
        missing = await host.call_tool(STATUS_TOOL, {"arguments": {}})
        negative = await host.call_tool(READ_TOOL, {"uri": "result://x", "offset": -1})
        gone = await host.call_tool(READ_TOOL, {"uri": "result://nothing-1"})
    assert missing.is_error
    assert negative.is_error
    assert gone.is_error
    assert missing.content[0].text.splitlines() == [  # type: ignore[union-attr]
        f"Invalid arguments for tool {STATUS_TOOL!r}:",
        "- tool: Field required",
    ]
    assert "- offset: Input should be greater than or equal to 0 (got -1)" in negative.content[0].text  # type: ignore[union-attr]
    assert gone.content[0].text.startswith("result://nothing-1 is not kept")  # type: ignore[union-attr]
