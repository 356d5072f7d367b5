"""A real Jupyter server (pytest-jupyter) with the extension, under an odd base_url, and notebook
kernels started through its sessions API."""

from __future__ import annotations

import ast
import asyncio
import json
import textwrap
from collections.abc import AsyncIterator
from typing import Any

import pytest
from traitlets.config import Config

from tests.conftest import http_client

BASE_URL = "/my%20lab/%C3%BC@x~y/"
"""Percent-encoded space and non-ASCII, an @ and a ~: routes must be joined, never concatenated."""


@pytest.fixture
async def jp_asyncio_loop() -> asyncio.AbstractEventLoop:
    """The server runs on the loop pytest-asyncio gives the test, so the test's clients can reach it."""
    return asyncio.get_running_loop()


@pytest.fixture
def jp_base_url() -> str:
    return BASE_URL


@pytest.fixture
def mcp_settings() -> dict[str, Any]:
    """``MCPExtensionApp`` traits for a test; override to change them. The notebook tools (``jupyter_read`` ...)
    are off here: these tests are about the notebooks' own tools, and ``tests/serverext/notebooks`` about them."""
    return {"notebook_tools": "off"}


@pytest.fixture
def jp_server_config(mcp_settings: dict[str, Any]) -> Config:
    return Config({"ServerApp": {"jpserver_extensions": {"jupyter_mcp": True}}, "MCPExtensionApp": mcp_settings})


WHOAMI = '''
%%mcp_tool --read-only
def whoami() -> str:
    """Say which notebook answers."""
    return NOTEBOOK
'''
"""A read-only tool cell saying which notebook answers (``Notebook.serve`` sets ``NOTEBOOK``)."""

_STARTS = 3
"""Kernel connections tried: as in ``tests/harness.py``, another process (a parallel worker's kernel, or any
server binding port 0, such as a kernel's MCP server) may take a port jupyter_client chose before the kernel
binds it (jupyter_client issue 487); the kernel then dies with "Address already in use", or its ports
answer for someone else. Seen once in four full runs."""


class Notebook:
    """A notebook session started through the Jupyter server's sessions API, and its kernel."""

    def __init__(self, jp_fetch: Any, serverapp: Any, path: str) -> None:
        self.fetch = jp_fetch
        self.serverapp = serverapp
        self.path = path
        self.kernel_id = ""
        self.client: Any = None

    async def start(self) -> Notebook:
        body = {
            "path": self.path,
            "name": self.path.rsplit("/", 1)[-1],
            "type": "notebook",
            "kernel": {"name": "python3"},
        }
        reply = await self.fetch("api", "sessions", method="POST", body=json.dumps(body))
        self.kernel_id = json.loads(reply.body)["kernel"]["id"]
        await self.reconnect()
        return self

    async def reconnect(self) -> None:
        """Connect a kernel client to the notebook's (current) kernel; restart it on new ports when it never
        answers (see ``_STARTS``)."""
        kernel = self.serverapp.kernel_manager.get_kernel(self.kernel_id)
        for attempt in range(_STARTS):
            if self.client is not None:
                self.client.stop_channels()
            self.client = kernel.client()
            self.client.start_channels()
            try:
                await self.client.wait_for_ready(timeout=30)
                return
            except RuntimeError:  # died, or its ports answer for another process
                if attempt == _STARTS - 1:
                    raise
                await _restart_on_new_ports(kernel)

    async def run(self, code: str, wait: float = 60) -> list[dict[str, Any]]:
        """Execute a cell; fail on an error; return its iopub messages."""
        messages: list[dict[str, Any]] = []
        reply = await self.client.execute_interactive(textwrap.dedent(code), timeout=wait, output_hook=messages.append)
        if reply["content"]["status"] != "ok":
            raise AssertionError(f"cell failed: {reply['content'].get('ename')}: {reply['content'].get('evalue')}")
        return messages

    async def value(self, expression: str) -> Any:
        """Evaluate an expression in the kernel (via repr / literal_eval)."""
        messages = await self.run(f"print(repr({expression}))")
        text = "".join(m["content"]["text"] for m in messages if m["msg_type"] == "stream")
        return ast.literal_eval(text.strip())

    async def load(self) -> None:
        await self.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")

    async def serve(self, *cells: str) -> Notebook:
        """Start it, load jupyter_mcp, set ``NOTEBOOK`` to its path and run ``cells`` (its tools)."""
        await self.start()
        await self.load()
        await self.run(f"NOTEBOOK = {self.path!r}")
        for cell in cells:
            await self.run(cell)
        return self

    async def restart(self) -> None:
        await self.fetch("api", "kernels", self.kernel_id, "restart", method="POST", body="")
        await self.reconnect()

    def close(self) -> None:
        if self.client is not None:
            self.client.stop_channels()


async def _restart_on_new_ports(kernel: Any) -> None:
    """Restart ``kernel`` on ports chosen anew (``restart_kernel(newports=True)`` keeps the ports a provisioner
    chose: it forgets only those the connection file made up)."""
    kernel.provisioner.ports_cached = False
    kernel.cleanup_connection_file()
    await kernel.restart_kernel(now=True)


@pytest.fixture
async def notebook(jp_fetch: Any, jp_serverapp: Any) -> AsyncIterator[Notebook]:
    """A running notebook ``work dir/demo nb.ipynb`` with ``%load_ext jupyter_mcp`` done."""
    started = await Notebook(jp_fetch, jp_serverapp, "work dir/demo nb.ipynb").start()
    try:
        await started.load()
        yield started
    finally:
        started.close()


@pytest.fixture
def server_url(jp_serverapp: Any, jp_http_port: int) -> str:
    """``http://127.0.0.1:<port><base_url>``."""
    return f"http://127.0.0.1:{jp_http_port}{jp_serverapp.base_url}"


@pytest.fixture
def jupyter_token(jp_serverapp: Any) -> str:
    return str(jp_serverapp.identity_provider.token)


def jupyter_client(url: str, token: str, **options: Any) -> Any:
    """A real ``mcp.Client`` presenting Jupyter's token (as MCP clients send it: a bearer header)."""
    return http_client(url, token, **options)
