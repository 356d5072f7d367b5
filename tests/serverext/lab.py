"""Kernels as JupyterLab reaches them, and a real Kernel Gateway for the kernel channel's tests.

``LabKernel`` runs cells over the Jupyter server's kernel websocket, as JupyterLab does (for a
gateway's kernel the Jupyter server relays it to the gateway), so a test also sees that the
browser's connection lives through the kernel channel's traffic. ``KernelGateway`` is
``jupyter kernelgateway`` from PyPI, started for a module and stopped whatever happens, with a
runtime directory of its own: its kernels' discovery files are out of the Jupyter server's
sight, as on another machine.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import textwrap
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from jupyter_client.jsonutil import json_default
from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import deserialize_binary_message
from tornado.httpclient import HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

from tests.harness import free_port

BIN = Path(sys.executable).parent


class LabKernel:
    """Cells run over ``<server>/api/kernels/<id>/channels``; every message is read (binary ones too)."""

    def __init__(self, socket: WebSocketClientConnection) -> None:
        self.socket = socket
        self.session = Session(key=b"")
        self.comm_messages = 0
        """Comm messages this front end received (the kernel channel's answers go to every front end)."""

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
        self.comm_messages += message.get("msg_type") == "comm_msg"
        return message

    def close(self) -> None:
        self.socket.close()


class KernelGateway:
    """``jupyter kernelgateway`` on a free loopback port, with a token and a runtime dir of its own."""

    def __init__(self, home: Path) -> None:
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.runtime = home / "runtime"
        self.log = home / "gateway.log"
        env = {key: value for key, value in os.environ.items() if not key.startswith("JUPYTER_")}
        env.update({"JUPYTER_RUNTIME_DIR": str(self.runtime), "HOME": str(home), "PYTHONUNBUFFERED": "1"})
        command = [
            str(BIN / "jupyter-kernelgateway"),
            "--KernelGatewayApp.ip=127.0.0.1",
            f"--KernelGatewayApp.port={self.port}",
            f"--KernelGatewayApp.auth_token={self.token}",
            "--KernelGatewayApp.port_retries=0",
        ]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=home
            )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        request = urllib.request.Request(
            f"{self.url}/api/kernelspecs", headers={"Authorization": f"token {self.token}"}
        )
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the kernel gateway exited:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(request, timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"the kernel gateway did not answer in {timeout}s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        """Stop the gateway and every kernel it started (its process group)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
