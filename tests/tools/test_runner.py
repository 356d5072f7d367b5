"""``jupyter_mcp.tools.run``: a ToolServer as a command, over stdio and streamable HTTP, with real clients."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from mcp import Client, StdioServerParameters

from tests.conftest import http_client

SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "runner_server.py"
_UVLOOP = importlib.util.find_spec("uvloop") is not None
"""A dependency on Linux and macOS: the standalone HTTP server runs on it."""
_SETTLED = 20_000
"""Fewer objects than a started server has alive (~90,000): its heap was settled (``gc.freeze``)."""


async def test_stdio_keeps_printed_text_off_the_wire(mode: str) -> None:
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], cwd=str(SERVER.parent))
    async with Client(params, mode=mode) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["add", "chatty", "process"]
        assert (await client.call_tool("chatty", {"text": "hi"})).structured_content == {"result": "hi"}
        assert (await client.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}
        assert (await client.call_tool("process", {})).structured_content["frozen"] > _SETTLED  # type: ignore[index]


@contextmanager
def http_server(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, str]]:
    """The fixture server over HTTP on a free port; yields its URL and what it said on stderr."""
    command = [sys.executable, str(SERVER), "--transport", "http", "--port", "0", *args]
    process = subprocess.Popen(
        command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env={**os.environ, **(env or {})}
    )
    try:
        said = ""
        while "Stop with Ctrl-C." not in said:
            line = process.stderr.readline() if process.stderr else ""
            assert line, f"the server exited ({process.wait()}): {said}"
            said += line
        found = re.search(r"at (http://\S+/mcp)", said)
        assert found is not None, said
        yield found[1], said
    finally:
        process.terminate()
        process.wait(10)


async def test_http_requires_the_given_token(mode: str) -> None:
    with http_server("--token", "s3cret") as (url, said):
        assert "s3cret" not in said  # a token the user chose is not printed
        async with http_client(url, "s3cret", mode=mode) as client:
            assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
            assert (await client.call_tool("process", {})).structured_content["frozen"] > _SETTLED  # type: ignore[index]
        async with httpx.AsyncClient() as http:
            refused = await http.post(url, json={}, headers={"Authorization": "Bearer wrong"})
        assert refused.status_code == 401


async def test_http_token_from_the_environment_or_generated() -> None:
    with http_server(env={"JUPYTER_MCP_TOKEN": "from-env"}) as (url, said):
        assert "Authorization" not in said
        async with http_client(url, "from-env") as client:
            assert [t.name for t in (await client.list_tools()).tools] == ["add", "chatty", "process"]
    with http_server(env={"JUPYTER_MCP_TOKEN": ""}) as (url, said):
        token = re.search(r"Authorization: Bearer (\S+)", said)
        assert token is not None
        async with http_client(url, token[1]) as client:
            assert (await client.call_tool("add", {"a": 2, "b": 2})).structured_content == {"result": 4}


async def test_http_checks_the_host_unless_allowed() -> None:
    with http_server("--token", "t", "--allow-host", "tools.example") as (url, _said):
        async with httpx.AsyncClient(headers={"Authorization": "Bearer t"}) as http:
            port = url.split(":")[2].split("/")[0]
            other = await http.get(url.replace("/mcp", "/status"), headers={"Host": f"elsewhere:{port}"})
            named = await http.get(url.replace("/mcp", "/status"), headers={"Host": f"tools.example:{port}"})
    assert other.status_code == 421
    assert named.status_code == 200
    assert named.json()["name"] == "runner-demo"


def test_http_options_are_refused_for_stdio() -> None:
    command = [sys.executable, str(SERVER), "--port", "9", "--token", "x", "--host", "0.0.0.0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "--host, --port, --token only apply to --transport http" in done.stderr
