"""The extension's side of one kernel-channel exchange (``ChannelExchange``), without a kernel."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.serverext.carriers.exchange import ChannelExchange


async def test_the_extension_side_hears_pieces_gaps_and_loss() -> None:
    sent: list[tuple[Any, list[bytes]]] = []
    exchange = ChannelExchange(lambda frame, buffers: sent.append((frame, buffers)), "POST", "/mcp", [("a", "b")])
    exchange.send(b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call"}')
    exchange.end_request()
    assert sent[0][0]["headers"] == [["a", "b"]]
    exchange.feed(
        {"op": "response", "seq": 0, "status": 200, "headers": [["Content-Type", "text/event-stream"]], "more": True},
        [b"event: message\n\n"],
    )
    response = await exchange.response()
    exchange.feed({"op": "response", "seq": 2, "more": False}, [b"late"])  # seq 1 never came
    chunks = [chunk async for chunk in response.chunks()]
    assert chunks[0] == b"event: message\n\n"
    last = json.loads(chunks[1].decode().split("data: ", 1)[1])
    assert last["id"] == 7
    assert "messages of the response were lost" in last["error"]["message"]

    plain = ChannelExchange(lambda frame, buffers: None, "GET", "/status", [])
    plain.end_request()
    plain.fail("the kernel restarted")
    with pytest.raises(HttpError, match="the kernel restarted"):
        await asyncio.wait_for(plain.response(), 1)
