"""Kernels as JupyterLab reaches them.

``LabKernel`` runs cells over the Jupyter server's kernel websocket, as JupyterLab does (for a
gateway's kernel the Jupyter server relays it to the gateway), so a test also sees that the
browser's connection lives through the kernel channel's traffic. The gateways themselves are in
``tests/serverext/gateways.py``.
"""

from __future__ import annotations

import ast
import asyncio
import json
import textwrap
import uuid
from typing import Any

from jupyter_client.jsonutil import json_default
from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import deserialize_binary_message
from tornado.httpclient import HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect


class LabKernel:
    """Cells run over ``<server>/api/kernels/<id>/channels``; every message is read (binary ones too)."""

    def __init__(self, socket: WebSocketClientConnection) -> None:
        self.socket = socket
        self.session = Session(key=b"")
        self.channel_answers = 0
        """Kernel-channel answers this front end received (on IOPub they would reach every front end)."""

    @classmethod
    async def connect(cls, server_url: str, kernel_id: str, token: str) -> LabKernel:
        url = f"ws{server_url.removeprefix('http')}api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}"
        socket = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {token}"}))
        return cls(socket)

    async def run(self, code: str, within: float = 60) -> str:
        """Execute a cell; fail on an error or a closed websocket; return its stdout."""
        msg = self.session.msg("execute_request", {"code": textwrap.dedent(code), "silent": False})
        await self.socket.write_message(json.dumps({**msg, "channel": "shell"}, default=json_default))
        output: list[str] = []
        async with asyncio.timeout(within):
            while True:
                reply = await self._next()
                if reply.get("parent_header", {}).get("msg_id") != msg["header"]["msg_id"]:
                    continue
                kind, content = reply["msg_type"], reply["content"]
                if kind == "stream":
                    output.append(content["text"])
                elif kind == "error":
                    raise AssertionError(f"cell failed: {content['ename']}: {content['evalue']}")
                elif kind == "status" and content["execution_state"] == "idle":
                    return "".join(output)

    async def start(self, code: str) -> None:
        """Send a cell and do not wait for it."""
        msg = self.session.msg("execute_request", {"code": textwrap.dedent(code), "silent": False})
        await self.socket.write_message(json.dumps({**msg, "channel": "shell"}, default=json_default))

    async def value(self, expression: str) -> Any:
        return ast.literal_eval((await self.run(f"print(repr({expression}))")).strip())

    async def _next(self) -> dict[str, Any]:
        data = await self.socket.read_message()
        if data is None:
            raise AssertionError("the kernel's websocket closed (as JupyterLab's would have)")
        message: dict[str, Any] = deserialize_binary_message(data) if isinstance(data, bytes) else json.loads(data)
        if message.get("msg_type") == "comm_msg":
            self.channel_answers += message.get("content", {}).get("data", {}).get("op") in ("response", "error")
        return message

    def close(self) -> None:
        self.socket.close()
