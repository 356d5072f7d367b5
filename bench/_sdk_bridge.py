"""A minimal stdio-to-HTTP bridge built from mcp 2.3 parts: the reference `jupyter-mcp connect` is measured against.

stdio_server() streams on one side, streamable_http_client() streams on the other, messages passed
across as parsed SessionMessages (2026-era routing headers stamped the way the SDK client does).
No reconnect, no fallback: only the relay, to see what the SDK's transports cost.

    python bench/_sdk_bridge.py URL TOKEN
"""

from __future__ import annotations

import sys

import anyio
import mcp_types as mt
from _common import http_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.stdio import stdio_server
from mcp.shared.message import ClientMessageMetadata, SessionMessage

from jupyter_mcp.cli.bridge import messages


def stamped(message: SessionMessage, params: messages.ParamHeaders) -> SessionMessage:
    raw = message.message.model_dump(by_alias=True, mode="json", exclude_unset=True)
    version = messages.modern_version(raw)
    if version is None or not isinstance(message.message, mt.JSONRPCRequest | mt.JSONRPCNotification):
        return message
    headers = messages.modern_headers(raw, version, params)
    return SessionMessage(message.message, ClientMessageMetadata(headers=headers))


async def main(url: str, token: str) -> None:
    http = http_client(token)
    params = messages.ParamHeaders()
    async with stdio_server() as (stdin, stdout), streamable_http_client(url, http_client=http) as (up, down):

        async def to_server() -> None:
            async for message in stdin:
                if isinstance(message, SessionMessage):
                    await down.send(stamped(message, params))

        async def to_client() -> None:
            async for message in up:
                if isinstance(message, SessionMessage):
                    await stdout.send(message)

        async with anyio.create_task_group() as group:
            group.start_soon(to_client)
            await to_server()
            group.cancel_scope.cancel()


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
