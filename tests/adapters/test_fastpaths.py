"""Each adapter checks itself; a failed check is one warning and the public path; off on purpose is one INFO line.

"Hidden" is ``tests/privacy.py``: the private parts the adapters reach made invisible to
``jupyter_mcp``, as a release renaming them would. Servers built meanwhile serve through the
public path (their requests below), and keep doing so after.
"""

from __future__ import annotations

import logging
import threading
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from ipykernel.kernelbase import Kernel
from jupyter_client.multikernelmanager import AsyncMultiKernelManager

from jupyter_mcp.adapters import fastpaths, ipykernel, jupyter_client, jupyter_server, sdk, stdlib
from jupyter_mcp.adapters.fastpaths import ENV, PUBLIC, settle
from jupyter_mcp.tools import Context, ToolServer
from tests.conftest import http_client, served
from tests.privacy import FALLS_BACK, hidden
from tests.tools.protocol.test_notifications import Heard

OFF = "fast paths are off"


def verdicts(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level and OFF in r.getMessage()]


def adapters() -> list[Any]:
    """Every adapter, the kernel ones checked against an ipykernel ``Kernel`` (without its shell-channel thread:
    a kernel's own checks run in tests/kernel) and a kernel manager of jupyter_client's."""
    return [
        sdk.ADAPTER,
        stdlib.ADAPTER,
        ipykernel.adapter_for(Kernel()),
        jupyter_client.ADAPTER,
        jupyter_server.adapter_for(AsyncMultiKernelManager()),
    ]


@pytest.mark.fast_path
def test_every_adapter_holds_on_the_installed_libraries(caplog: pytest.LogCaptureFixture) -> None:
    """CI installs the newest release of each library: a reach that stopped holding fails here first."""
    caplog.set_level(logging.INFO)
    paths = settle(adapters(), wanted=True, logger=logging.getLogger("test"))
    assert paths.on == FALLS_BACK
    assert verdicts(caplog, logging.WARNING) == verdicts(caplog, logging.INFO) == []


def test_with_their_private_parts_hidden_each_adapter_falls_back_with_one_warning(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV, raising=False)  # wanted: only the checks turn them off
    caplog.set_level(logging.INFO)
    with hidden():
        paths = settle(adapters(), wanted=True, logger=logging.getLogger("test"))
    assert paths == PUBLIC
    warnings = verdicts(caplog, logging.WARNING)
    assert sorted(w.split(": ")[1].removesuffix("'s fast paths are off") for w in warnings) == sorted(FALLS_BACK)


def test_off_on_purpose_is_one_info_line(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Off by a server's setting: one line for that server. Off by the environment: one line for the whole
    process, however many servers and adapters settle in it (a Jupyter server settles its own adapter and
    its notebook tools' server; a kernel its server and its channel)."""
    monkeypatch.setattr(fastpaths, "_ENV_OFF_SAID", threading.Event())  # as in a process that said nothing yet
    caplog.set_level(logging.INFO)
    assert ToolServer("off", fast_paths=False).fast_paths_taken == PUBLIC
    monkeypatch.setenv(ENV, "0")
    assert ToolServer("env").fast_paths_taken == PUBLIC
    assert ToolServer("env again").fast_paths_taken == PUBLIC
    manager = jupyter_server.adapter_for(AsyncMultiKernelManager())
    assert settle([manager, jupyter_client.ADAPTER], wanted=True, logger=logging.getLogger("test")) == PUBLIC
    said = verdicts(caplog, logging.INFO)
    assert len(said) == 2, said
    assert "the fast_paths setting is False" in said[0]
    assert f"{ENV}=0" in said[1]
    assert verdicts(caplog, logging.WARNING) == []


def test_the_setting_settles_again_when_it_changes(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    server = ToolServer("switch", fast_paths=False)
    server.settings.fast_paths = True
    assert server.fast_paths_taken.on == ({"mcp", "stdlib"} if not _public_run() else frozenset())


def test_a_sync_tool_stays_in_workers_without_the_stdlib_fast_path() -> None:
    server = ToolServer("workers", fast_paths=False)
    threads: list[str] = []

    @server.tool
    def quick() -> int:
        threads.append(threading.current_thread().name)
        return 1

    async def calls() -> None:
        for _ in range(40):
            await server.call("quick")

    anyio.run(calls)
    assert all(name.startswith("jupyter-mcp-worker") for name in threads), set(threads)


def _library() -> ToolServer:
    server = ToolServer("library", fast_paths=True)

    @server.tool
    async def shout(text: str, ctx: Context) -> str:
        """Logs, reports progress, answers."""
        await ctx.info(f"shouting {text}")
        await ctx.report_progress(1, 1)
        return text.upper()

    @server.resource("data://books/{id}")
    def book(id: int) -> str:
        return f"book {id}"

    return server


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
async def test_with_the_private_parts_hidden_a_server_serves_both_eras_through_the_public_path(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built while hidden, a server falls back (two warnings: mcp, stdlib) and serves a 2025-era session in full
    (logs at its level, progress, subscriptions, list changes, the client list) and 2026-era requests."""
    monkeypatch.delenv(ENV, raising=False)
    caplog.set_level(logging.INFO)
    with hidden():
        server = _library()
    assert server.fast_paths_taken == PUBLIC
    assert len(verdicts(caplog, logging.WARNING)) == 2
    heard, logs, progress = Heard(), [], []

    async def on_log(params: Any) -> None:
        logs.append(params.data)

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    with served(server) as url:
        async with http_client(url, "test-token", mode="legacy", message_handler=heard, logging_callback=on_log) as c:
            await c.set_logging_level("info")
            result = await c.call_tool("shout", {"text": "hi"}, progress_callback=on_progress)
            assert result.content[0].text == "HI"  # type: ignore[union-attr]
            assert logs == ["shouting hi"]
            assert progress == [1]
            assert [entry["kind"] for entry in server.connected_clients()] == ["session"]
            await c.subscribe_resource("data://books/7")
            assert server.notify_resource_updated("data://books/{id}") == ["data://books/7"]
            await heard.until(("notifications/resources/updated", "data://books/7"))
            server.add_tool(lambda: "new", name="fresh")
            await heard.until(("notifications/tools/list_changed", None))
        with anyio.fail_after(10):
            while server.connected_clients():  # the client said goodbye (DELETE): no longer listed
                await anyio.sleep(0.02)
        async with http_client(url, "test-token", mode="auto") as modern:
            assert (await modern.call_tool("fresh", {})).content[0].text == "new"  # type: ignore[union-attr]


def _public_run() -> bool:
    from tests.fastpaths import public_run

    return public_run()


def test_jupyter_servers_adapter_without_its_fast_path_says_only_a_gone_kernel_is_shutting_down() -> None:
    from jupyter_mcp.serverext.directory import ToolServerDirectory

    manager = SimpleNamespace(list_kernel_ids=lambda: ["alive"], _pending_kernels={"alive": None})
    directory = ToolServerDirectory(manager, None, None)  # type: ignore[arg-type]
    directory.fast_paths_taken = PUBLIC
    assert not directory.shutting_down("alive")
    assert directory.shutting_down("gone")
