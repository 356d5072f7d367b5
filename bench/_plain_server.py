"""A plain mcp-SDK low-level server with a hand-written ``add`` tool: the baseline to beat.

Run as a process: prints ``PORT <n>`` once listening. Same transport settings as ours (streamable
HTTP, SSE responses, TCP_NODELAY socket), no jupyter_mcp code on the request path. uvicorn parses
HTTP with h11 on asyncio's loop, as a plain ``pip install mcp`` has it; ``--http httptools`` gives it the
parser jupyter-mcp depends on, and ``--loop uvloop`` the event loop its standalone server runs on.
``--event-store`` gives it resumability (the SDK's ``EventStore`` interface, kept in memory as the SDK's
examples keep it): its 2025-era answers then open with a priming event, as ours do.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from typing import Any

import mcp_types as mt
import uvicorn
from mcp.server import Server
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.server.transport_security import TransportSecuritySettings

ADD = mt.Tool(
    name="add",
    description="Adds two integer numbers together.",
    input_schema={
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
)


TOOLS = [ADD]


def extra_tool(index: int) -> mt.Tool:
    """The same schema jupyter-mcp generates for bench/_our_server.py's extra tools."""
    return mt.Tool(
        name=f"tool_{index:04d}",
        description="Search something.",
        input_schema={
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for."},
                "limit": {"type": "integer", "default": 10, "description": "How many results."},
                "exact": {"type": "boolean", "default": False, "description": "Exact matches only."},
            },
            "required": ["query"],
        },
        output_schema={
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"type": "string"}}},
            "required": ["result"],
            "x-jupyter-mcp-wrap-result": True,
        },
    )


async def list_tools(ctx: Any, params: Any) -> mt.ListToolsResult:
    return mt.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: Any, params: mt.CallToolRequestParams) -> mt.CallToolResult:
    arguments = params.arguments or {}
    total = int(arguments["a"]) + int(arguments["b"])
    return mt.CallToolResult(
        content=[mt.TextContent(type="text", text=str(total))], structured_content={"result": total}
    )


class MemoryEvents(EventStore):
    """Every event in a dict, ids counted up: the least an event store does."""

    def __init__(self) -> None:
        self.events: dict[int, tuple[StreamId, Any]] = {}

    async def store_event(self, stream_id: StreamId, message: Any) -> EventId:
        event_id = len(self.events) + 1
        self.events[event_id] = (stream_id, message)
        return str(event_id)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        last = int(last_event_id)
        if last not in self.events:
            return None
        stream_id = self.events[last][0]
        for event_id, (stream, message) in list(self.events.items()):
            if event_id > last and stream == stream_id and message is not None:
                await send_callback(EventMessage(message, str(event_id)))
        return stream_id


class _Server(Server[Any]):
    def create_initialization_options(self, notification_options: Any = None, *args: Any, **kwargs: Any) -> Any:
        return super().create_initialization_options(NotificationOptions(tools_changed=True), *args, **kwargs)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=0)
    parser.add_argument(
        "--http", default="h11", help="uvicorn's parser: h11 (what `pip install mcp` brings) or httptools"
    )
    parser.add_argument("--event-store", action="store_true", help="resumable: events kept in memory")
    parser.add_argument(
        "--loop", default="asyncio", help="asyncio (what `pip install mcp` brings) or uvloop (as jupyter-mcp has it)"
    )
    options = parser.parse_args()
    TOOLS.extend(extra_tool(i) for i in range(options.tools))
    server = _Server("plain", on_list_tools=list_tools, on_call_tool=call_tool)
    app = server.streamable_http_app(
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        event_store=MemoryEvents() if options.event_store else None,
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="on", ws="none", http=options.http)
    run = asyncio.run if options.loop == "asyncio" else __import__(options.loop).run
    run(uvicorn.Server(config).serve(sockets=[sock]))


if __name__ == "__main__":
    sys.exit(main())
