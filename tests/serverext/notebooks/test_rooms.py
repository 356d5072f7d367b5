"""The shared documents the notebook tools open for a notebook no tab has open are closed once the tools stop
using them (``document_cleanup_delay`` after the last use, as jupyter-server-ydoc closes a room its last tab
left), never while a run still writes to one, and never before the notebook on disk holds the agent's work."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from traitlets.config import Config

from tests.serverext.notebooks.conftest import Agents, structured, write_notebook

CLEANUP = 1.0
"""``document_cleanup_delay`` here; with the suite's 0.2 s save delay, a room closes 2.2 s after its last use."""
CLOSES_AFTER = 2.2

pytestmark = pytest.mark.parametrize("mode", ["auto"])


@pytest.fixture
def jp_server_config(jp_server_config: Config) -> Config:
    jp_server_config.YDocExtension.document_cleanup_delay = CLEANUP
    return jp_server_config


def room_open(serverapp: Any, path: str) -> bool:
    (extension,) = serverapp.extension_manager.extension_apps["jupyter_mcp"]
    documents = extension.notebooks.documents
    server = documents.ydoc.ywebsocket_server
    return bool(server.room_exists(documents.room_id(path)))


async def closed_within(serverapp: Any, path: str, seconds: float) -> float:
    """How long until the room of ``path`` is closed (failing after ``seconds``)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while room_open(serverapp, path):
        assert loop.time() - start < seconds, f"the room of {path} is still open after {seconds} s"
        await asyncio.sleep(0.1)
    return loop.time() - start


async def undoable(jp_fetch: Any) -> list[int]:
    """The edits each agent can still take back, as the sidebar shows them."""
    return [entry["edits"] for entry in json.loads((await jp_fetch("api", "mcp", "notebook-tools")).body)["agents"]]


async def test_a_room_the_tools_opened_closes_after_its_last_use_with_the_edit_saved(
    jp_root_dir: Path, jp_serverapp: Any, jp_fetch: Any, agent: Agents
) -> None:
    file = write_notebook(jp_root_dir, "idle.ipynb", ["a = 1"])
    async with agent("helper") as client:
        (cell,) = structured(await client.call_tool("jupyter_read", {"path": "idle.ipynb"}))["cells"]
        assert room_open(jp_serverapp, "idle.ipynb")
        ops = [{"op": "insert", "after": cell["id"], "source": "b = 2"}]
        structured(await client.call_tool("jupyter_edit", {"path": "idle.ipynb", "ops": ops}))
        assert await undoable(jp_fetch) == [1]
        await asyncio.sleep(CLOSES_AFTER / 2)
        assert room_open(jp_serverapp, "idle.ipynb")  # still in use a moment ago
        waited = await closed_within(jp_serverapp, "idle.ipynb", CLOSES_AFTER + 5)
        assert waited >= CLOSES_AFTER / 2 - 0.5
        assert [c.source for c in nbformat.read(file, as_version=4).cells] == ["a = 1", "b = 2"]
        # closed, its edits are history (as JupyterLab's own undo): no Undo offered, none taken
        assert await undoable(jp_fetch) == [0]
        body = json.dumps({"agent": "helper", "notebook": "idle.ipynb"})
        undo = await jp_fetch("api", "mcp", "notebook-tools", "undo", method="POST", body=body, raise_error=False)
        assert undo.code == 409
        again = structured(await client.call_tool("jupyter_read", {"path": "idle.ipynb"}))["cells"]
        assert [c["source"] for c in again] == ["a = 1", "b = 2"]  # opened again from the saved file
        assert room_open(jp_serverapp, "idle.ipynb")


async def test_a_run_longer_than_the_delay_keeps_its_room_open_and_its_outputs_are_saved(
    jp_root_dir: Path, jp_serverapp: Any, agent: Agents
) -> None:
    file = write_notebook(jp_root_dir, "long.ipynb", ["import time\ntime.sleep(4)\nprint('slept')"])
    async with agent() as client:
        (cell,) = structured(await client.call_tool("jupyter_read", {"path": "long.ipynb"}))["cells"]
        run = asyncio.create_task(client.call_tool("jupyter_run", {"path": "long.ipynb", "ids": [cell["id"]]}))
        await asyncio.sleep(CLOSES_AFTER + 1)
        assert not run.done()
        assert room_open(jp_serverapp, "long.ipynb")  # idle longer than the delay, but a run writes there
        (ran,) = structured(await run)["cells"]
        assert ran["status"] == "ok"
        await closed_within(jp_serverapp, "long.ipynb", CLOSES_AFTER + 5)
    (saved,) = nbformat.read(file, as_version=4).cells
    assert [output.get("text") for output in saved.outputs] == ["slept\n"]
    assert saved.execution_count == ran["execution_count"]


async def test_an_edit_made_just_before_the_server_stops_is_saved_before_it_stops(
    jp_root_dir: Path, jp_serverapp: Any, agent: Agents
) -> None:
    """jupyter-server-ydoc saves ``document_save_delay`` after a change and not at all once the server
    stops: the tools' own change of the last moment is saved by the extension's stop, in the tab's room too."""
    (ydoc,) = jp_serverapp.extension_manager.extension_apps["jupyter_server_ydoc"]
    ydoc.document_save_delay = 60.0  # no save of its own before the stop
    file = write_notebook(jp_root_dir, "late.ipynb", ["a = 1"])
    untouched = write_notebook(jp_root_dir, "read-only.ipynb", ["z = 0"])
    before = untouched.stat().st_mtime_ns
    async with agent() as client:
        (cell,) = structured(await client.call_tool("jupyter_read", {"path": "late.ipynb"}))["cells"]
        structured(await client.call_tool("jupyter_read", {"path": "read-only.ipynb"}))
        ops = [{"op": "insert", "after": cell["id"], "source": "b = 2"}]
        structured(await client.call_tool("jupyter_edit", {"path": "late.ipynb", "ops": ops}))
    assert [c.source for c in nbformat.read(file, as_version=4).cells] == ["a = 1"]  # not saved yet
    await jp_serverapp.extension_manager.stop_all_extensions()  # what the server's stop does first
    assert [c.source for c in nbformat.read(file, as_version=4).cells] == ["a = 1", "b = 2"]
    assert untouched.stat().st_mtime_ns == before  # only read: not written again
