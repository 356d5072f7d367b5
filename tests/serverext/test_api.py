"""``/api/mcp/servers`` and ``/api/mcp/config`` with a real notebook kernel."""

from __future__ import annotations

import json
import os
import shlex
from typing import Any

import mcp_types as mt
import pytest

from jupyter_mcp import discovery
from tests.cli.conftest import JUPYTER_MCP
from tests.conftest import http_client
from tests.serverext.conftest import BASE_URL, Notebook, jupyter_client
from tests.serverext.test_proxy import TOOLS, kernel_url

NOTEBOOK_ROUTE = f"{BASE_URL}mcp/notebooks/work%20dir/demo%20nb.ipynb"


async def get_json(jp_fetch: Any, *parts: str, **params: str) -> Any:
    return json.loads((await jp_fetch(*parts, params=params)).body)


async def test_servers_lists_live_tools_clients_and_routes(
    jp_fetch: Any, notebook: Notebook, server_url: str, jupyter_token: str, jp_http_port: int
) -> None:
    assert await get_json(jp_fetch, "api", "mcp", "servers") == []
    await notebook.run(TOOLS)
    await notebook.run("x = 1")
    # Another process's tool server in the same runtime dir is not this Jupyter server's to expose.
    discovery.write(discovery.ServerInfo("http://127.0.0.1:9/mcp", "t", os.getpid(), "someone-else", None))
    info = mt.Implementation(name="panel-test", version="2")
    async with jupyter_client(
        kernel_url(server_url, notebook), jupyter_token, mode="legacy", client_info=info
    ) as client:
        await client.call_tool("get_var", {"name": "x"})
        (entry,) = await get_json(jp_fetch, "api", "mcp", "servers")
    assert entry["kernel_id"] == notebook.kernel_id
    assert entry["notebook_path"] == "work dir/demo nb.ipynb"
    assert entry["live"] is True
    assert entry["routes"] == {"kernel": f"{BASE_URL}mcp/kernels/{notebook.kernel_id}", "notebook": NOTEBOOK_ROUTE}
    (tool,) = entry["tools"]
    assert tool.pop("mean_duration") > 0
    assert tool == {
        "name": "get_var",
        "title": None,
        "description": "Return repr() of a notebook variable.",
        "enabled": True,
        "tags": [],
        "run_on": "worker",
        "calls": 1,
        "errors": 0,
        "refused": 0,
        "running": 0,
    }
    assert entry["calls"] == 1
    assert [(c["name"], c["version"], c["kind"]) for c in entry["clients"]] == [("panel-test", "2", "session")]
    # The advertised route is the one that works.
    url = f"http://127.0.0.1:{jp_http_port}{entry['routes']['notebook']}"
    async with jupyter_client(url, jupyter_token, mode="auto") as client:
        assert (await client.call_tool("get_var", {"name": "x"})).structured_content == {"result": "1"}


async def test_disabled_tools_are_listed_as_disabled(jp_fetch: Any, notebook: Notebook) -> None:
    await notebook.run(TOOLS)
    await notebook.run("%mcp disable get_var")
    (entry,) = await get_json(jp_fetch, "api", "mcp", "servers")
    assert [(t["name"], t["enabled"]) for t in entry["tools"]] == [("get_var", False)]


async def test_config_points_http_clients_at_the_notebook_route(
    jp_fetch: Any, notebook: Notebook, jupyter_token: str, jp_http_port: int
) -> None:
    await notebook.run(TOOLS)
    await notebook.run("x = 'configured'")
    reply = await get_json(jp_fetch, "api", "mcp", "config", client="vscode", notebook=notebook.path)
    url = f"http://127.0.0.1:{jp_http_port}{NOTEBOOK_ROUTE}"
    assert reply["url"] == url
    assert reply["config"] == {
        "servers": {"demo-nb": {"type": "http", "url": url, "headers": {"Authorization": f"token {jupyter_token}"}}}
    }
    # A client configured exactly so reaches the notebook's tools.
    entry = reply["config"]["servers"]["demo-nb"]
    token = entry["headers"]["Authorization"].removeprefix("token ")
    async with http_client(entry["url"], token, mode="auto") as client:
        assert (await client.call_tool("get_var", {"name": "x"})).structured_content == {"result": "'configured'"}


async def test_config_for_stdio_and_inspector_clients(jp_fetch: Any, jupyter_token: str, jp_http_port: int) -> None:
    url = f"http://127.0.0.1:{jp_http_port}{NOTEBOOK_ROUTE}"
    claude = await get_json(jp_fetch, "api", "mcp", "config", client="claude", notebook="work dir/demo nb.ipynb")
    # This server's jupyter-mcp by absolute path; the token in the environment, not the arguments.
    entry = {"command": JUPYTER_MCP, "args": ["connect", "--url", url], "env": {"JUPYTER_MCP_TOKEN": jupyter_token}}
    assert claude["config"] == {"mcpServers": {"demo-nb": entry}}
    cursor = await get_json(jp_fetch, "api", "mcp", "config", client="cursor", kernel="abc-123")
    kernel_url = f"http://127.0.0.1:{jp_http_port}{BASE_URL}mcp/kernels/abc-123"
    assert cursor["config"] == {
        "mcpServers": {"kernel-abc-123": {"url": kernel_url, "headers": {"Authorization": f"token {jupyter_token}"}}}
    }
    inspector = await get_json(jp_fetch, "api", "mcp", "config", client="inspector", notebook="a.ipynb")
    inspector_url = f"http://127.0.0.1:{jp_http_port}{BASE_URL}mcp/notebooks/a.ipynb"
    assert shlex.split(inspector["config"]["command"]) == [
        *("npx", "@modelcontextprotocol/inspector", "--cli", inspector_url, "--transport", "http"),
        *("--header", f"Authorization: token {jupyter_token}", "--method", "tools/list"),
    ]


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"client": "emacs", "notebook": "a.ipynb"}, "client must be one of"),
        ({"client": "vscode", "notebook": "a.ipynb", "kernel": "k"}, "give notebook=PATH or kernel=ID"),
    ],
)
async def test_config_rejects_bad_requests(jp_fetch: Any, params: dict[str, str], reason: str) -> None:
    response = await jp_fetch("api", "mcp", "config", params=params, raise_error=False)
    assert response.code == 400
    assert reason in json.loads(response.body)["message"]


@pytest.mark.parametrize(
    "mcp_settings",
    [{"config_includes_token": False, "public_url": "https://hub.example.org/", "notebook_tools": "off"}],
)
async def test_config_can_leave_the_token_out_and_use_a_public_url(jp_fetch: Any) -> None:
    reply = await get_json(jp_fetch, "api", "mcp", "config", client="cursor", notebook="a b.ipynb")
    url = f"https://hub.example.org{BASE_URL}mcp/notebooks/a%20b.ipynb"
    assert reply["config"] == {
        "mcpServers": {"a-b": {"url": url, "headers": {"Authorization": "token <JUPYTER_TOKEN>"}}}
    }


async def test_servers_list_resources_and_prompts(jp_fetch: Any, notebook: Notebook) -> None:
    await notebook.run(
        '%%mcp_resource data://motd --mime-type text/plain\ndef motd() -> str:\n    "Message of the day."\n    return "hi"'
    )
    await notebook.run("%%mcp_resource data://notes/{day}\ndef note(day: str) -> str:\n    return day")
    await notebook.run('%%mcp_prompt\ndef greet(name: str) -> str:\n    "Greet someone."\n    return name')
    await notebook.run("%mcp disable greet\nr = await server.read_resource('data://notes/monday')")
    (entry,) = await get_json(jp_fetch, "api", "mcp", "servers")
    assert entry["tools"] == []
    assert [r.pop("mean_duration") > 0 for r in entry["resources"]] == [True, True]
    assert entry["prompts"][0].pop("mean_duration") is None  # never got
    never = {"errors": 0, "refused": 0, "running": 0, "tags": []}
    assert entry["resources"] == [
        {
            "uri": "data://motd",
            "name": "motd",
            "title": None,
            "description": "Message of the day.",
            "mime_type": "text/plain",
            "template": False,
            "enabled": True,
            "calls": 1,  # the card's preview read
            **never,
        },
        {
            "uri": "data://notes/{day}",
            "name": "note",
            "title": None,
            "description": None,
            "mime_type": "text/plain",
            "template": True,
            "enabled": True,
            "calls": 1,
            **never,
        },
    ]
    assert entry["prompts"] == [
        {
            "name": "greet",
            "title": None,
            "description": "Greet someone.",
            "arguments": ["name"],
            "enabled": False,
            "calls": 0,
            **never,
        }
    ]
