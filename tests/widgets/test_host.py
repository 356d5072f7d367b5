"""The views need only ``ServerHost``: a plain ``ToolServer`` with a history, outside any kernel, will do."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Mapping
from concurrent.futures import Future
from typing import Any

import mcp_types as mt
import pytest

from jupyter_mcp.endpoints import Endpoint
from jupyter_mcp.hubenv import BrowserPage
from jupyter_mcp.tools import CallHistory, ToolServer
from jupyter_mcp.tools.calls.path import NOTEBOOK
from jupyter_mcp.widgets import ResourceCard, ServerPanel, ToolCard
from jupyter_mcp.widgets.host import ServerHost
from tests.widgets.conftest import eventually


class PlainHost(ToolServer):
    """A ``ToolServer`` plus what the views read: a history, an address, and calls from a loop thread."""

    def __init__(self) -> None:
        super().__init__("plain")
        self.history = CallHistory(100, 10_000)
        self.add_call_observer(self.history)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str | None:
        return "http://127.0.0.1:1/mcp"

    @property
    def token(self) -> str:
        return "plain-token"

    def endpoint(self, page: BrowserPage | None = None) -> Endpoint | None:
        return Endpoint("http://127.0.0.1:1/mcp")

    def client_config(self, client: str = "claude", page: BrowserPage | None = None) -> dict[str, Any]:
        return {"mcpServers": {"plain": {"url": self.url}}}

    def call_in_background(self, name: str, arguments: Mapping[str, Any] | None = None) -> Future[mt.CallToolResult]:
        return asyncio.run_coroutine_threadsafe(self.calls.call(name, arguments, NOTEBOOK), self.loop)

    def read_in_background(self, uri: str) -> Future[mt.ReadResourceResult]:
        return asyncio.run_coroutine_threadsafe(self.calls.read_resource(uri, NOTEBOOK), self.loop)

    def get_prompt_in_background(
        self, name: str, arguments: Mapping[str, Any] | None = None
    ) -> Future[mt.GetPromptResult]:
        return asyncio.run_coroutine_threadsafe(self.calls.get_prompt(name, arguments, NOTEBOOK), self.loop)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def host() -> Iterator[PlainHost]:
    plain = PlainHost()

    @plain.tool
    async def double(x: int) -> int:
        """Twice x."""
        return 2 * x

    @plain.resource("data://answer")
    def answer() -> int:
        return 42

    yield plain
    plain.close()


def test_a_plain_tool_server_is_a_server_host(host: PlainHost) -> None:
    typed: ServerHost = host  # mypy checks this line: the protocol is all the views need
    panel = ServerPanel(typed)
    card = ToolCard(typed, host.tools["double"])
    assert card.try_it is not None
    card.try_it.run({"x": 21})
    eventually(lambda: card.try_it is not None and card.try_it.outcome == "ok", what="the call from the card")
    # The panel redraws on its own throttle: the row may show "running" for a moment after the card's result.
    eventually(
        lambda: [(row["tool"], row["status"]) for row in panel.history.rows] == [("double", "ok")],
        what="the finished call in the panel",
    )
    assert card.tryit["result"]["outcome"]["structured"] == {"result": 42}
    assert card.component["facts"].startswith("server's event loop")  # an async tool runs on the loop
    resource = ResourceCard(typed, host.resources["data://answer"])
    eventually(lambda: resource.shown and "42" in str(resource.shown["content"]), what="the resource card's read")
    panel.close()
    card.close()
    resource.close()
