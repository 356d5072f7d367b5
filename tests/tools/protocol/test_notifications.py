"""Change notifications for resources and prompts in both eras: list_changed, resources/updated."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from jupyter_mcp.tools import ToolServer
from tests.conftest import connected


def library() -> ToolServer:
    server = ToolServer("library")

    @server.resource("data://books")
    def books() -> list[str]:
        return ["Dune"]

    @server.resource("data://books/{id}")
    def book(id: int) -> str:
        return f"book {id}"

    return server


class Heard:
    """What a 2025-era client's message handler received: (method, uri or None)."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str | None]] = []

    async def __call__(self, message: Any) -> None:
        method = getattr(message, "method", None)
        if method is not None:
            params = getattr(message, "params", None)
            self.messages.append((method, getattr(params, "uri", None)))

    async def until(self, expected: tuple[str, str | None]) -> None:
        with anyio.fail_after(5):
            while expected not in self.messages:
                await anyio.sleep(0.01)


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
async def test_a_2025_session_hears_list_changes_and_updates_it_subscribed_to() -> None:
    server = library()
    heard = Heard()
    async with connected(server, "legacy", message_handler=heard) as client:
        await client.subscribe_resource("data://books")
        await client.subscribe_resource("data://books/7")

        @server.prompt
        def recommend() -> str:
            """Recommend a book."""
            return "Read Dune"

        await heard.until(("notifications/prompts/list_changed", None))
        server.add_resource(lambda: ["Dune", "Emma"], "data://books", name="books")  # a re-run cell
        await heard.until(("notifications/resources/list_changed", None))
        await heard.until(("notifications/resources/updated", "data://books"))
        assert server.notify_resource_updated("data://books/{id}") == ["data://books/7"]
        await heard.until(("notifications/resources/updated", "data://books/7"))
        await client.unsubscribe_resource("data://books")
        assert server.notify_resource_updated("data://books") == []
    assert heard.messages.count(("notifications/resources/updated", "data://books")) == 1


async def test_a_2026_listener_hears_list_changes_and_updates_it_listens_for() -> None:
    server = library()
    async with connected(server, "auto") as client:
        watched = ["data://books", "data://books/7"]
        async with client.listen(
            resources_list_changed=True, prompts_list_changed=True, resource_subscriptions=watched
        ) as subscription:
            server.add_prompt(lambda: "Read Dune", name="recommend", description="Recommend a book.")
            server.notify_resource_updated("data://books/{id}")
            server.notify_resource_updated("data://other")
            server.remove_resource("data://books")
            with anyio.fail_after(5):
                events = [await subscription.__anext__() for _ in range(3)]
    described = [(type(e).__name__, getattr(e, "uri", None)) for e in events]
    assert described == [
        ("PromptsListChanged", None),
        ("ResourceUpdated", "data://books/7"),
        ("ResourcesListChanged", None),
    ]
