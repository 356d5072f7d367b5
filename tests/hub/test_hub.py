"""Every student's notebook a tool server, through a real JupyterHub: routes, tokens, isolation.

A client reaches a student's tools at ``<hub>/user/<name>/mcp/notebooks/<path>`` (or all of the
student's notebooks at once at ``<hub>/user/<name>/mcp``) with that
student's hub token (scope ``access:servers!user=<name>``), in both protocol eras; nobody else's
token, a token without that scope, or no token gets anything.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters

from tests.cli.conftest import JUPYTER_MCP
from tests.conftest import NOTEBOOK_TOOLS, http_client
from tests.hub.conftest import NOTEBOOK, STUDENTS, TOOL, StudentNotebook
from tests.hub.hub import Hub
from tests.oauth import Consent, MemoryStorage, oauth_client, sdk_provider

pytestmark = pytest.mark.timeout(600)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}},
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def route(hub: Hub, user: str) -> str:
    return hub.user_url(user, "mcp/notebooks", NOTEBOOK)


@pytest.mark.parametrize("user", STUDENTS)
async def test_each_student_reaches_their_own_tools(
    hub: Hub, notebooks: dict[str, StudentNotebook], user: str, mode: str
) -> None:
    async with http_client(route(hub, user), hub.token(user), mode=mode) as client:
        assert [tool.name for tool in (await client.list_tools()).tools] == ["whoami"]
        result = await client.call_tool("whoami", {})
        assert result.structured_content == {"result": user}


async def test_a_rerun_cell_reaches_clients_through_the_hub(hub: Hub, notebooks: dict[str, StudentNotebook]) -> None:
    notebook, token, seen = notebooks["alice"], hub.token("alice"), []

    async def on_message(message: Any) -> None:
        seen.append(getattr(message, "method", ""))

    async with (
        http_client(route(hub, "alice"), token, mode="legacy", message_handler=on_message) as legacy,
        http_client(route(hub, "alice"), token, mode="auto") as modern,
    ):
        await legacy.list_tools()
        await anyio.sleep(0.5)  # the legacy client opens its GET stream after the handshake
        async with modern.listen(tools_list_changed=True) as subscription:
            notebook.kernel.run(TOOL.replace("def whoami() -> str:", "def whoami(shout: bool = False) -> str:"))
            with anyio.fail_after(20):
                event = await subscription.__anext__()
            assert type(event).__name__ == "ToolsListChanged"
        with anyio.fail_after(20):
            while "notifications/tools/list_changed" not in seen:
                await anyio.sleep(0.05)
        for client in (legacy, modern):
            (tool,) = (await client.list_tools(cache_mode="refresh")).tools
            assert set(tool.input_schema["properties"]) == {"shout"}


def refused(hub: Hub, user: str, token: str | None) -> int:
    headers = {**HEADERS, **({"Authorization": f"Bearer {token}"} if token else {})}
    reply = httpx.post(route(hub, user), json=INITIALIZE, headers=headers, timeout=30, follow_redirects=False)
    assert "whoami" not in reply.text
    assert "serverInfo" not in reply.text
    return reply.status_code


def test_nobody_else_reaches_a_students_tools(hub: Hub, notebooks: dict[str, StudentNotebook]) -> None:
    assert refused(hub, "alice", hub.token("bob")) == 403  # bob's token on alice's route
    assert refused(hub, "alice", hub.token("alice", ["read:users:name!user=alice"])) == 403  # no access scope
    assert refused(hub, "alice", None) == 401  # no token: sign in (with the hub's login), never the tools
    assert refused(hub, "alice", "not-a-token") in (302, 401, 403)


def test_a_students_server_lists_only_their_own_notebooks(hub: Hub, notebooks: dict[str, StudentNotebook]) -> None:
    for user in STUDENTS:
        reply = hub.api("GET", f"/user/{user}/api/mcp/servers", token=hub.token(user))
        assert reply.status_code == 200, reply.text
        own, server = reply.json()  # the notebook tools (served by the user's server itself), then the kernel's
        assert (own["kernel_id"], own["transport"], own["notebook_path"]) == ("notebook-tools", "server", None)
        assert (server["kernel_id"], server["notebook_path"]) == (notebooks[user].kernel_id, NOTEBOOK)
    alices_kernel = hub.user_url("bob", "mcp/kernels", notebooks["alice"].kernel_id)
    reply = httpx.post(
        alices_kernel, json=INITIALIZE, headers={**HEADERS, "Authorization": f"Bearer {hub.token('bob')}"}
    )
    assert reply.status_code == 404  # bob's server does not know alice's kernel


def test_the_kernels_own_port_stays_on_loopback(hub: Hub, notebooks: dict[str, StudentNotebook]) -> None:
    for user in STUDENTS:
        (discovery_file,) = (hub.home(user) / ".local/share/jupyter/runtime").glob("jupyter-mcp-*.json")
        assert json.loads(discovery_file.read_text())["url"].startswith("http://127.0.0.1:")


async def test_connect_bridges_a_desktop_client_to_a_students_tools(
    hub: Hub, notebooks: dict[str, StudentNotebook], mode: str, tmp_path: Path
) -> None:
    arguments = ["connect", "--url", route(hub, "bob"), "--token", hub.token("bob")]
    params = StdioServerParameters(
        command=JUPYTER_MCP, args=arguments, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    )
    async with Client(params, mode=mode) as client:
        assert [tool.name for tool in (await client.list_tools()).tools] == ["whoami"]
        assert (await client.call_tool("whoami", {})).structured_content == {"result": "bob"}


def test_the_instructor_lists_every_students_tools(hub: Hub, notebooks: dict[str, StudentNotebook]) -> None:
    env = {**os.environ, "JUPYTERHUB_API_TOKEN": hub.admin_token}
    listed = subprocess.run(
        [JUPYTER_MCP, "list", "--hub", hub.url, "--json"], capture_output=True, text=True, env=env, check=True
    )
    rows = json.loads(listed.stdout)
    assert [(r["user"], r["notebook_path"], r["tools"]) for r in rows] == [(u, NOTEBOOK, ["whoami"]) for u in STUDENTS]
    assert rows[0]["url"] == route(hub, "alice")
    wide = {**env, "COLUMNS": "200"}
    table = subprocess.run(
        [JUPYTER_MCP, "list", "--hub", hub.url], capture_output=True, text=True, env=wide, check=True
    )
    assert table.stdout.splitlines()[0].split() == ["USER", "NOTEBOOK", "TOOLS", "CLIENTS", "CALLS", "URL"]
    terminal = {**env, "COLUMNS": "80"}  # an 80-column terminal: each URL on a line of its own, nothing wider
    table = subprocess.run(
        [JUPYTER_MCP, "list", "--hub", hub.url], capture_output=True, text=True, env=terminal, check=True
    )
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["USER", "NOTEBOOK", "TOOLS", "CLIENTS", "CALLS"]
    assert [line.strip() for line in lines if line.startswith("  http")] == [route(hub, user) for user in STUDENTS]
    assert max(len(line) for line in lines if not line.startswith("  http")) <= 80, table.stdout
    refused = subprocess.run(
        [JUPYTER_MCP, "list", "--hub", hub.url, "--token", hub.token("bob")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (refused.returncode, refused.stderr) == (
        1,
        f"jupyter-mcp: the hub refused the token (403) for {hub.url}/hub/api/users; "
        "it needs the scopes list:users, read:servers, access:servers\n",
    )


@pytest.mark.parametrize("client", ["claude", "vscode"])
def test_the_config_a_student_copies_points_through_the_hub(
    hub: Hub, notebooks: dict[str, StudentNotebook], client: str
) -> None:
    reply = hub.api("GET", f"/user/alice/api/mcp/config?client={client}&notebook={NOTEBOOK}", token=hub.token("alice"))
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["url"] == route(hub, "alice")
    placeholder = f"<a JupyterHub token from {hub.url}/hub/token with the scope access:servers!user=alice>"
    (entry,) = (body["config"].get("mcpServers") or body["config"]["servers"]).values()
    if client == "claude":
        assert entry["command"] == "jupyter-mcp"  # runs on the student's machine, not the hub's
        assert entry["args"] == ["connect", "--url", route(hub, "alice")]
        assert entry["env"]["JUPYTER_MCP_TOKEN"] == placeholder
    else:
        assert entry["url"] == route(hub, "alice")
        assert entry["headers"] == {"Authorization": f"token {placeholder}"}


async def test_the_server_panel_in_a_students_notebook_points_through_the_hub(
    hub: Hub, notebooks: dict[str, StudentNotebook]
) -> None:
    """The kernel cannot know the hub's public address; the page showing its panel tells it."""
    kernel = notebooks["alice"].kernel
    kernel.run("import jupyter_mcp, json\n_connection = jupyter_mcp.get_server().panel().connection")
    before = kernel.value("json.loads(jupyter_mcp.widgets.connection.config_text(_connection.server, 'vscode'))")
    (entry,) = before["servers"].values()
    assert entry["url"] == "<the JupyterHub address>" + route(hub, "alice").removeprefix(hub.url)
    # What the panel's front end sends from the browser (tests/browser checks the front end itself).
    kernel.run(f"_connection.probe.origin = {hub.url!r}; _connection.probe.server_root = {str(hub.home('alice'))!r}")
    config = kernel.value(
        "json.loads(jupyter_mcp.widgets.connection.config_text(_connection.server, 'vscode', _connection.probe.page()))"
    )
    (entry,) = config["servers"].values()
    assert entry["url"] == route(hub, "alice")
    placeholder = f"<a JupyterHub token from {hub.url}/hub/token with the scope access:servers!user=alice>"
    assert entry["headers"] == {"Authorization": f"token {placeholder}"}
    where = kernel.value("_connection.read()['where']")  # what the panel says above the config
    assert "JupyterHub token" in where
    assert "pip install jupyter-live-mcp" in where
    async with http_client(entry["url"], hub.token("alice"), mode="legacy") as client:
        assert (await client.call_tool("whoami", {})).structured_content == {"result": "alice"}
    claude = kernel.value("_connection.server.client_config('claude', _connection.probe.page())")
    (stdio,) = claude["mcpServers"].values()
    assert stdio["command"] == "jupyter-mcp"  # the student's own, installed on their machine
    assert stdio["args"] == ["connect", "--url", route(hub, "alice")]
    assert stdio["env"] == {"JUPYTER_MCP_TOKEN": placeholder}


async def test_every_student_reaches_all_their_notebooks_and_nobody_elses_at_one_address(
    hub: Hub, notebooks: dict[str, StudentNotebook], mode: str
) -> None:
    for user in STUDENTS:
        async with http_client(hub.user_url(user, "mcp"), hub.token(user), mode=mode) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            assert [name for name in names if not name.startswith("jupyter_")] == ["tools_whoami"]
            assert set(names) - {"tools_whoami"} == NOTEBOOK_TOOLS  # the notebook tools, read-only by default
            assert (await client.call_tool("tools_whoami", {})).structured_content == {"result": user}
    async with httpx.AsyncClient(timeout=30) as http:
        bobs = {**HEADERS, "Authorization": f"Bearer {hub.token('bob')}"}
        theirs = await http.post(hub.user_url("alice", "mcp"), json=INITIALIZE, headers=bobs)
    assert theirs.status_code == 403
    assert "serverInfo" not in theirs.text


async def test_a_students_agent_sees_only_that_students_notebooks(
    hub: Hub, notebooks: dict[str, StudentNotebook], mode: str
) -> None:
    (hub.home("bob") / "bobs-secret.ipynb").write_text(
        json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    async with http_client(hub.user_url("alice", "mcp"), hub.token("alice"), mode=mode) as client:
        listing = await client.call_tool("jupyter_notebooks", {})
        assert listing.structured_content is not None
        assert [entry["path"] for entry in listing.structured_content["notebooks"]] == [NOTEBOOK]
        assert listing.structured_content["mode"] == "read"
        read = await client.call_tool("jupyter_read", {"path": NOTEBOOK})
        assert read.structured_content is not None
        assert read.structured_content["path"] == NOTEBOOK
        theirs = await client.call_tool("jupyter_read", {"path": "../bob/bobs-secret.ipynb"})
        assert theirs.is_error
        assert "not a path under the server's root" in theirs.content[0].text
        missing = await client.call_tool("jupyter_read", {"path": "bobs-secret.ipynb"})
        assert missing.is_error
        assert "no notebook at 'bobs-secret.ipynb'" in missing.content[0].text


async def test_a_student_signs_a_client_in_at_their_own_address_and_nobody_else_sees_it(
    hub: Hub, notebooks: dict[str, StudentNotebook], mode: str
) -> None:
    """Sign-in with Jupyter behind the hub: the 401, discovery through the single-user server (the path-appended
    metadata: the hub owns the root), the consent page behind the hub's login (alice's hub token stands in for
    her browser session), tools listed and called; alice's token means nothing on bob's server, her consent page
    is refused to bob, and bob's Connected apps never show her client."""
    alice, bob = hub.token("alice"), hub.token("bob")
    url = hub.user_url("alice", "mcp")
    consent = Consent(alice)
    storage = MemoryStorage()
    async with oauth_client(
        url, sdk_provider(url, consent, storage=storage, name=f"Agent of alice ({mode})"), mode=mode
    ) as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
        assert [name for name in names if not name.startswith("jupyter_")] == ["tools_whoami"]
        assert (await client.call_tool("tools_whoami", {})).structured_content == {"result": "alice"}
    assert "Agent of alice" in consent.pages[0]
    assert storage.tokens is not None
    signed_in = {**HEADERS, "Authorization": f"Bearer {storage.tokens.access_token}"}
    async with httpx.AsyncClient(timeout=30) as http:
        assert (await http.post(url, json=INITIALIZE, headers=signed_in)).status_code == 200
        on_bobs = await http.post(hub.user_url("bob", "mcp"), json=INITIALIZE, headers=signed_in)
        assert on_bobs.status_code == 401
        assert "serverInfo" not in on_bobs.text
        metadata = (await http.get(hub.user_url("alice", "mcp/oauth/.well-known/openid-configuration"))).json()
        assert metadata["issuer"] == hub.user_url("alice", "mcp/oauth")
        pending = consent.pages[0].split('name="auth_request" value="')[1].split('"')[0]
        consent_page = f"{metadata['issuer']}/consent?auth_request={pending}"
        refused = await http.get(consent_page, headers={"Authorization": f"token {bob}"})
        assert refused.status_code == 403
        assert "Agent of alice" not in refused.text
    alices_apps = hub.api("GET", "/user/alice/api/mcp/apps", token=alice).json()
    assert any(app["client_name"] == f"Agent of alice ({mode})" and app["user"] == "alice" for app in alices_apps)
    assert hub.api("GET", "/user/bob/api/mcp/apps", token=bob).json() == []
