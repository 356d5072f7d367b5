"""Helpers for the ``jupyter-mcp connect`` tests: a real stdio client through the real bridge."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt
from mcp import Client

from tests.cli.conftest import (
    stdio_client,
)

SLOW_TOOL = '''%%mcp_tool
async def slow(seconds: float) -> str:
    """Sleeps, noting whether it finished or was cancelled."""
    import asyncio
    global slow_state
    slow_state = "running"
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        slow_state = "cancelled"
        raise
    slow_state = "finished"
    return "done"
'''


class ListChanged:
    """Sees ``notifications/tools/list_changed`` in either era (message handler or listen stream)."""

    def __init__(self) -> None:
        self.count = 0

    async def on_message(self, message: Any) -> None:
        if isinstance(message, mt.ToolListChangedNotification):
            self.count += 1

    async def wait_beyond(self, seen: int) -> None:
        with anyio.fail_after(30):
            while self.count <= seen:
                await anyio.sleep(0.02)


@asynccontextmanager
async def bridged(
    runtime: Path, mode: str, target: list[str], **options: Any
) -> AsyncIterator[tuple[Client, ListChanged]]:
    """A client on ``jupyter-mcp connect TARGET``; in the 2026 era it also listens for list changes."""
    changes = ListChanged()
    async with stdio_client(["connect", *target], runtime, mode, message_handler=changes.on_message, **options) as c:
        if mode == "legacy":
            yield c, changes
            return
        async with c.listen(tools_list_changed=True) as subscription, anyio.create_task_group() as group:

            async def count_events() -> None:
                async for _event in subscription:
                    changes.count += 1

            group.start_soon(count_events)
            yield c, changes
            group.cancel_scope.cancel()


async def names(client: Client) -> list[str]:
    return [t.name for t in (await client.list_tools(cache_mode="refresh")).tools]


def text_of(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent)
    return block.text


# ---- relaying ------------------------------------------------------------------------------------------


async def wait_for(condition: Callable[[], bool]) -> None:
    with anyio.fail_after(30):
        while not condition():
            await anyio.sleep(0.1)
