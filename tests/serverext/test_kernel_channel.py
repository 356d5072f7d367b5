"""MCP over the kernel's own channels, through the Jupyter server's routes: real engines, real clients.

Kernels the Jupyter server cannot reach on loopback: ``local``, a kernel of this server with
``JupyterMCP.transport = "kernel"`` (no port of its own); ``kernel-gateway`` and
``enterprise-gateway``, a kernel of a real ``jupyter kernelgateway`` or ``jupyter enterprisegateway``
behind ``--gateway-url`` (``GatewayClient.url``), serving over HTTP inside the gateway's machine as it
would by default, its discovery file out of the Jupyter server's sight. Cells run over the Jupyter
server's kernel websocket, as JupyterLab runs them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import anyio
import mcp_types as mt
import psutil
import pytest
from ipykernel.thread import SHELL_CHANNEL_THREAD_NAME
from jupyter_server.gateway.gateway_client import GatewayClient
from mcp.shared.exceptions import MCPError
from traitlets.config import Config

from tests.conftest import MODES
from tests.fastpaths import public_run
from tests.serverext.conftest import jupyter_client
from tests.serverext.gateways import EnterpriseGateway, Gateway, KernelGateway
from tests.serverext.lab import LabKernel
from tests.serverext.test_approvals_api import ASKING_TOOLS, DESK_AGENT, post, question_waiting, text_of
from tests.tasks_client import CreatedTask, TasksClient, start, wait_for
from tests.tools.protocol.test_notifications import Heard

GATEWAYS = {"kernel-gateway": "kernel_gateway", "enterprise-gateway": "enterprise_gateway"}
"""A backend behind ``--gateway-url``, and the module's fixture for its gateway."""
BACKENDS = ["local", *GATEWAYS] if not public_run() else ["local"]
"""The public-path runs (tests/fastpaths.py) change the kernel's side, not the gateways': one backend is enough."""
LONG_CELL = (
    "import time\nlong_cell_done = False\nt = time.time()\nwhile time.time() - t < 8: pass\nlong_cell_done = True"
)

LOAD = """
%load_ext jupyter_mcp
import jupyter_mcp
server = jupyter_mcp.get_server()
"""

TOOLS = '''%%mcp_tool --read-only
def get_var(name: str) -> str:
    """Return repr() of a notebook variable."""
    return repr(globals()[name])
'''

MORE_TOOLS = '''
import asyncio, threading
gate = threading.Event()

@jupyter_mcp.tool(task=True)
async def crunch() -> str:
    """Works until the notebook opens the gate."""
    await asyncio.to_thread(gate.wait, 60)
    return "crunched"

@jupyter_mcp.tool
def big_text(megabytes: int) -> str:
    """Lines of text, megabytes of them."""
    return ("0123456789" * 9 + "abcdefghi\\n") * (megabytes * 10_000)

@jupyter_mcp.tool
def cell_finished() -> bool:
    """Whether the long cell has finished."""
    return globals().get("long_cell_done", False)
'''

TAKEN_IN = """
import threading
taken_in = []
_receive = server._channel.exchanges.receive
server._channel.exchanges.receive = lambda *args: (taken_in.append(threading.current_thread().name), _receive(*args))
"""


@dataclass
class Lab:
    """A notebook session of the Jupyter server, its kernel, and JupyterLab's connection to it."""

    kernel_id: str
    path: str
    kernel: LabKernel
    url: str
    """The notebook's MCP route."""
    pid: int | None
    """The kernel's process (a local kernel's)."""
    listening_before: set[int]
    """The kernel process's listening TCP ports before jupyter_mcp was loaded (a local kernel's)."""


def running(gateway: Gateway) -> Iterator[Gateway]:
    try:
        gateway.wait_ready()
        yield gateway
    finally:
        gateway.stop()


@pytest.fixture(scope="module")
def kernel_gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    yield from running(KernelGateway(tmp_path_factory.mktemp("kernel-gateway")))


@pytest.fixture(scope="module")
def enterprise_gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    yield from running(EnterpriseGateway(tmp_path_factory.mktemp("enterprise-gateway")))


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def forget_gateway() -> Iterator[None]:
    """``GatewayClient`` is a singleton: a server must not inherit an earlier test's (with a gateway, or
    without one: any Jupyter server made one, and a gateway test after it ran its kernels locally).
    Cleared before the server is made, and after pytest-jupyter's cleanup, which shuts the kernels
    down through it."""
    GatewayClient.clear_instance()
    yield
    GatewayClient.clear_instance()


@pytest.fixture
async def jp_asyncio_loop(forget_gateway: None) -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


@pytest.fixture
def jp_server_config(backend: str, mcp_settings: dict[str, Any], request: pytest.FixtureRequest) -> Config:
    config: dict[str, Any] = {
        "ServerApp": {"jpserver_extensions": {"jupyter_mcp": True}},
        "MCPExtensionApp": {**mcp_settings, "channel_watch_interval": 0.5},
    }
    if backend == "control":
        config["MCPExtensionApp"]["channel_route"] = "control"
    if backend in GATEWAYS:
        gateway: Gateway = request.getfixturevalue(GATEWAYS[backend])
        config["GatewayClient"] = {"url": gateway.url, "auth_token": gateway.token}
    return Config(config)


def listening(pid: int) -> set[int]:
    """The TCP ports a process listens on."""
    sockets = psutil.Process(pid).net_connections(kind="tcp")
    return {socket.laddr.port for socket in sockets if socket.status == psutil.CONN_LISTEN}


@pytest.fixture
async def lab(
    backend: str, jp_fetch: Any, jp_serverapp: Any, server_url: str, jupyter_token: str
) -> AsyncIterator[Lab]:
    path = "work dir/channel nb.ipynb"
    body = {"path": path, "name": "channel nb.ipynb", "type": "notebook", "kernel": {"name": "python3"}}
    reply = await jp_fetch("api", "sessions", method="POST", body=json.dumps(body))
    kernel_id = json.loads(reply.body)["kernel"]["id"]
    kernel = await LabKernel.connect(server_url, kernel_id, jupyter_token)
    local = backend not in GATEWAYS
    pid = jp_serverapp.kernel_manager.get_kernel(kernel_id).provisioner.process.pid if local else None
    before = listening(pid) if pid is not None else set()
    try:
        transport = "server.settings.transport = 'kernel'" if local else ""
        await kernel.run(LOAD + transport)
        await kernel.run(TOOLS)
        await kernel.run(MORE_TOOLS)
        yield Lab(kernel_id, path, kernel, f"{server_url}mcp/notebooks/{quote(path)}", pid, before)
    finally:
        kernel.close()


def via(serverapp: Any, kernel_id: str) -> str | None:
    """Where the extension's channel to the kernel sends requests: ``"subshell"`` or ``"control"``."""
    (extension,) = serverapp.extension_manager.extension_apps["jupyter_mcp"]
    return extension.services.carriers.via(kernel_id)  # type: ignore[no-any-return]


async def servers(jp_fetch: Any) -> list[dict[str, Any]]:
    return list(json.loads((await jp_fetch("api", "mcp", "servers")).body))


async def test_clients_list_and_call_tools_in_both_eras(lab: Lab, jp_fetch: Any, jupyter_token: str) -> None:
    await lab.kernel.run("data = {'rows': 3}")
    for mode in MODES:
        async with jupyter_client(lab.url, jupyter_token, mode=mode) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            assert names == ["get_var", "crunch", "big_text", "cell_finished"]
            result = await client.call_tool("get_var", {"name": "data"})
            assert result.structured_content == {"result": "{'rows': 3}"}
    (entry,) = await servers(jp_fetch)
    assert (entry["kernel_id"], entry["transport"], entry["live"]) == (lab.kernel_id, "kernel", True)
    assert entry["routes"]["notebook"].endswith(quote(lab.path))
    assert [tool["name"] for tool in entry["tools"]] == ["get_var", "crunch", "big_text", "cell_finished"]
    assert await lab.kernel.value("len(server.history)") == 2
    # With ipykernel's fast path the answers went to the Jupyter server alone (on the shell socket, not
    # IOPub): JupyterLab's websocket saw none of them go by, and still works. Without it, the subshell
    # answers on IOPub (docs/gateways.md says so).
    assert (lab.kernel.channel_answers == 0) is not public_run()
    assert await lab.kernel.value("1 + 1") == 2


@pytest.mark.fast_path
async def test_the_channels_messages_are_taken_in_the_shell_channel_thread(lab: Lab, jupyter_token: str) -> None:
    """ipykernel 7: the channel's frames go from the thread that reads the shell socket straight to the
    MCP app, not through the subshell's thread (its status messages, stdout/stderr flushes)."""
    await lab.kernel.run(TAKEN_IN)
    async with jupyter_client(lab.url, jupyter_token, mode="legacy") as client:
        assert (await client.call_tool("cell_finished", {})).structured_content == {"result": False}
    assert await lab.kernel.value("sorted(set(taken_in))") == [SHELL_CHANNEL_THREAD_NAME]


async def test_a_2025_session_hears_list_changed_when_a_cell_runs_again(lab: Lab, jupyter_token: str) -> None:
    heard = Heard()
    async with jupyter_client(lab.url, jupyter_token, mode="legacy", message_handler=heard) as client:
        await client.list_tools()
        await lab.kernel.run(TOOLS)  # the same cell again: its tool is replaced
        await heard.until(("notifications/tools/list_changed", None))


async def test_a_task_runs_and_is_read_back(lab: Lab, jupyter_token: str) -> None:
    async with jupyter_client(lab.url, jupyter_token, mode="auto", extensions=[TasksClient()]) as client:
        created = await start(client, "crunch")
        assert isinstance(created, CreatedTask)
        await lab.kernel.run("gate.set()")
        done = await wait_for(client.session, created.task_id, ("completed",))
    assert done.result is not None
    assert done.result["content"][0]["text"] == "crunched"


async def test_a_question_is_answered_from_jupyterlab(lab: Lab, jp_fetch: Any, jupyter_token: str) -> None:
    await lab.kernel.run(ASKING_TOOLS)
    async with jupyter_client(lab.url, jupyter_token, mode="legacy", client_info=DESK_AGENT) as client:
        call = asyncio.ensure_future(client.call_tool("export_table", {}))
        question = await question_waiting(jp_fetch)
        answer = {"action": "accept", "content": {"table": "stock", "rows": 5}}
        assert await post(jp_fetch, lab.kernel_id, "questions", question["id"], body=answer) == {"ok": True}
        assert text_of(await call) == "exported stock (5 rows)"


async def test_a_20_mb_result_arrives_as_its_preview_and_its_link_reads_back_whole(
    lab: Lab, jupyter_token: str
) -> None:
    for mode in MODES:
        async with jupyter_client(lab.url, jupyter_token, mode=mode) as client:
            result = await client.call_tool("big_text", {"megabytes": 20})
            assert result.is_error is False
            first, link = result.content[0], result.content[-1]
            assert isinstance(first, mt.TextContent)
            assert isinstance(link, mt.ResourceLink)
            assert "20,000,000 characters" in first.text
            (contents,) = (await client.read_resource(link.uri)).contents
            assert isinstance(contents, mt.TextResourceContents)
            assert len(contents.text) == 20_000_000
            assert contents.text.startswith("0123456789")
            assert contents.text.endswith("abcdefghi\n")


async def test_a_call_is_answered_while_a_cpu_bound_cell_runs(lab: Lab, jp_serverapp: Any, jupyter_token: str) -> None:
    """On the channel's subshell: a gateway passes ``create_subshell_request`` on control and the
    ``subshell_id`` of shell messages through (a message without it would wait for the cell)."""
    await lab.kernel.start(LONG_CELL)
    async with jupyter_client(lab.url, jupyter_token, mode="auto") as client:
        for _ in range(5):
            assert (await client.call_tool("cell_finished", {})).structured_content == {"result": False}
    assert via(jp_serverapp, lab.kernel_id) == "subshell"
    assert await lab.kernel.value("long_cell_done") is True  # waits for the long cell


@pytest.mark.parametrize("backend", BACKENDS[:2], indirect=True)  # Enterprise Gateway: CI time
async def test_a_restart_fails_the_call_under_way_and_the_channel_comes_back(
    lab: Lab, jp_fetch: Any, jupyter_token: str, backend: str
) -> None:
    async with jupyter_client(lab.url, jupyter_token, mode="auto") as client:
        call = asyncio.ensure_future(client.call_tool("crunch", {}))
        await asyncio.sleep(1)  # the call is in the kernel
        await jp_fetch("api", "kernels", lab.kernel_id, "restart", method="POST", body="")
        with anyio.fail_after(20), pytest.raises(MCPError) as failed:
            await call
    assert "restarted" in str(failed.value)
    assert "outcome is unknown" in str(failed.value)
    transport = "server.settings.transport = 'kernel'" if backend not in GATEWAYS else ""
    await lab.kernel.run(LOAD + transport)
    await lab.kernel.run(TOOLS)
    async with jupyter_client(lab.url, jupyter_token, mode="legacy") as client:
        await lab.kernel.run("data = 'after'")
        assert (await client.call_tool("get_var", {"name": "data"})).structured_content == {"result": "'after'"}


@pytest.mark.parametrize("backend", ["local"], indirect=True)
async def test_a_kernel_with_transport_kernel_listens_on_no_port_of_its_own(lab: Lab, jupyter_token: str) -> None:
    assert lab.pid is not None
    async with jupyter_client(lab.url, jupyter_token, mode="legacy") as client:
        assert [tool.name for tool in (await client.list_tools()).tools][:1] == ["get_var"]
    assert await lab.kernel.value("(server.url, server.transport)") == (None, "kernel")
    assert listening(lab.pid) == lab.listening_before  # ipykernel's own ports, nothing of jupyter_mcp's
    await lab.kernel.run("server.settings.transport = 'http'\nserver.restart()")
    port = await lab.kernel.value("server.port")
    assert listening(lab.pid) == lab.listening_before | {port}  # the check sees a port when there is one


@pytest.mark.parametrize("backend", ["control"], indirect=True)
async def test_the_control_channel_carries_calls_too_while_a_cell_runs(
    lab: Lab, jp_fetch: Any, jp_serverapp: Any, jupyter_token: str
) -> None:
    """What a kernel without subshells (ipykernel 6) gets; here forced with ``channel_route = "control"``."""
    await lab.kernel.start(LONG_CELL)
    for mode in MODES:
        async with jupyter_client(lab.url, jupyter_token, mode=mode) as client:
            assert (await client.call_tool("cell_finished", {})).structured_content == {"result": False}
    (entry,) = await servers(jp_fetch)
    assert entry["transport"] == "kernel"
    assert via(jp_serverapp, lab.kernel_id) == "control"
    assert await lab.kernel.value("long_cell_done") is True
    assert lab.kernel.channel_answers == 0  # answered on the control socket, to the Jupyter server alone
