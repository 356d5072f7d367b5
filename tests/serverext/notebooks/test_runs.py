"""``jupyter_run``: cells run on the notebook's kernel with their outputs in the shared document (and saved),
progress while they run, cancellation that interrupts the kernel, plots within the result budget, and a
``%%mcp_tool`` cell an agent writes becoming a tool it can call."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt
import nbformat
import pytest

from tests.serverext.notebooks.conftest import Agents, structured, write_notebook
from tests.serverext.notebooks.test_read_edit import saved

PLOT = """\
%matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
fig, ax = plt.subplots(figsize=(12, 9), dpi=150)
rng = np.random.default_rng(0)
ax.scatter(rng.normal(size=4000), rng.normal(size=4000), c=rng.random(4000), s=3)
plt.show()
"""


async def test_an_agent_inserts_replaces_and_runs_cells_and_the_outputs_are_saved(
    jp_root_dir: Path, agent: Agents
) -> None:
    file = write_notebook(jp_root_dir, "run.ipynb", ["x = 20"])
    async with agent() as client:
        (first,) = structured(await client.call_tool("jupyter_read", {"path": "run.ipynb"}))["cells"]
        ops = [
            {"op": "replace", "id": first["id"], "version": first["version"], "source": "x = 21"},
            {"op": "insert", "after": first["id"], "source": "print('hello', flush=True)\nx * 2"},
            {"op": "insert", "after": None, "cell_type": "markdown", "source": "# A run"},
        ]
        touched = structured(await client.call_tool("jupyter_edit", {"path": "run.ipynb", "ops": ops}))["touched"]
        second = touched[1]["id"]
        ran = structured(await client.call_tool("jupyter_run", {"path": "run.ipynb", "ids": [first["id"], second]}))
        assert [(cell["id"], cell["status"], cell["execution_count"]) for cell in ran["cells"]] == [
            (first["id"], "ok", 1),
            (second, "ok", 2),
        ]
        outputs = ran["cells"][1]["outputs"]
        assert [(o["output_type"], o.get("text")) for o in outputs] == [("stream", "hello\n"), ("execute_result", "42")]
        read = structured(await client.call_tool("jupyter_read", {"path": "run.ipynb", "cells": [second]}))
        assert read["cells"][0]["version"] == ran["cells"][1]["version"]
        assert read["cells"][0]["execution_count"] == 2
    notebook = await saved(file, lambda nb: len(nb.cells) == 3 and nb.cells[2].get("execution_count") == 2)
    nbformat.validate(notebook)
    assert [cell.source for cell in notebook.cells] == ["# A run", "x = 21", "print('hello', flush=True)\nx * 2"]
    assert notebook.cells[2].outputs[0].text == "hello\n"
    assert notebook.cells[2].outputs[1].data["text/plain"] == "42"


async def test_a_failing_cell_stops_the_run_with_its_error(jp_root_dir: Path, agent: Agents) -> None:
    write_notebook(jp_root_dir, "fail.ipynb", ["1 / 0", "print('never')"])
    async with agent() as client:
        cells = structured(await client.call_tool("jupyter_read", {"path": "fail.ipynb"}))["cells"]
        ran = structured(await client.call_tool("jupyter_run", {"path": "fail.ipynb", "ids": [c["id"] for c in cells]}))
    (only,) = ran["cells"]
    assert only["status"] == "error"
    assert "ZeroDivisionError" in only["outputs"][0]["text"]
    assert "\x1b[" not in only["outputs"][0]["text"]


async def test_a_plot_reads_back_within_the_budget_with_the_full_image_behind_its_link(
    jp_root_dir: Path, agent: Agents
) -> None:
    from PIL import Image

    write_notebook(jp_root_dir, "plot.ipynb", [PLOT])
    async with agent() as client:
        (cell,) = structured(await client.call_tool("jupyter_read", {"path": "plot.ipynb"}))["cells"]
        await client.call_tool("jupyter_run", {"path": "plot.ipynb", "ids": [cell["id"]]})
        result = await client.call_tool("jupyter_read", {"path": "plot.ipynb"})
        (output,) = structured(result)["cells"][0]["outputs"]
        full = await client.read_resource(output["link"])
    assert len(result.model_dump_json(by_alias=True)) < 500_000
    image = result.content[output["image"]]
    assert isinstance(image, mt.ImageContent)
    assert image.mime_type == "image/png"
    shown = base64.b64decode(image.data)
    assert len(shown) <= 60_000
    original = full.contents[0]
    assert isinstance(original, mt.BlobResourceContents)
    assert original.mime_type == "image/png"
    whole = base64.b64decode(original.blob)
    assert len(whole) > len(shown)
    width, height = Image.open(io.BytesIO(whole)).size
    assert width > 1000
    assert height > 800
    assert Image.open(io.BytesIO(shown)).size[0] < width
    assert output["link"].startswith("result://jupyter/")


async def test_a_long_cell_streams_progress_and_cancelling_interrupts_the_kernel(
    jp_root_dir: Path, agent: Agents
) -> None:
    write_notebook(
        jp_root_dir,
        "long.ipynb",
        ["import time\nfor i in range(600):\n    print(i, flush=True)\n    time.sleep(0.05)", "'after'"],
    )
    messages: list[str] = []
    heard = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")
        if len(messages) >= 3:
            heard.set()

    async with agent() as client:
        long, after = structured(await client.call_tool("jupyter_read", {"path": "long.ipynb"}))["cells"]
        async with anyio.create_task_group() as group:

            async def run() -> None:
                await client.call_tool(
                    "jupyter_run", {"path": "long.ipynb", "ids": [long["id"]]}, progress_callback=on_progress
                )

            group.start_soon(run)
            with anyio.fail_after(60):
                await heard.wait()
            group.cancel_scope.cancel()
        assert any(message.startswith(f"cell {long['id']}: ") for message in messages)
        with anyio.fail_after(30):  # the kernel was interrupted: it answers the next run at once
            ran = structured(await client.call_tool("jupyter_run", {"path": "long.ipynb", "ids": [after["id"]]}))
        assert ran["cells"][0]["outputs"][0]["text"] == "'after'"
        with anyio.fail_after(15):
            while True:
                cell = structured(await client.call_tool("jupyter_read", {"path": "long.ipynb", "cells": [long["id"]]}))
                outputs = cell["cells"][0]["outputs"]
                if outputs and outputs[-1]["output_type"] == "error":
                    break
                await anyio.sleep(0.2)
    assert "KeyboardInterrupt" in outputs[-1]["text"]
    printed = outputs[0]["text"].split()
    assert 3 <= len(printed) < 600


async def test_an_agent_writes_a_tool_cell_runs_it_and_calls_the_new_tool(jp_root_dir: Path, agent: Agents) -> None:
    write_notebook(jp_root_dir, "workshop.ipynb", [])
    tool = '%%mcp_tool\ndef shout(text: str) -> str:\n    """Say it louder."""\n    return text.upper() + "!"'
    changed = anyio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, mt.ToolListChangedNotification):
            changed.set()

    async with agent(message_handler=on_message) as client:
        ops = [{"op": "insert", "after": None, "source": "%load_ext jupyter_mcp"}]
        first = structured(await client.call_tool("jupyter_edit", {"path": "workshop.ipynb", "ops": ops}))["touched"][
            0
        ]["id"]
        ops = [{"op": "insert", "after": first, "source": tool}]
        second = structured(await client.call_tool("jupyter_edit", {"path": "workshop.ipynb", "ops": ops}))["touched"][
            0
        ]["id"]
        ran = structured(await client.call_tool("jupyter_run", {"path": "workshop.ipynb", "ids": [first, second]}))
        assert [cell["status"] for cell in ran["cells"]] == ["ok", "ok"]
        with anyio.fail_after(30):
            while "workshop_shout" not in {t.name for t in (await client.list_tools()).tools}:
                await anyio.sleep(0.2)
        answer = await client.call_tool("workshop_shout", {"text": "it works"})
        if client.session is not None and agent.mode == "legacy":
            with anyio.fail_after(10):
                await changed.wait()
    assert answer.structured_content == {"result": "IT WORKS!"}


@pytest.mark.parametrize("notebook_tools", [{"notebook_tools": "edit"}])
async def test_in_edit_mode_an_agent_creates_a_notebook_but_cannot_run(jp_root_dir: Path, agent: Agents) -> None:
    async with agent() as client:
        created = structured(await client.call_tool("jupyter_create", {"path": "fresh.ipynb"}))
        again = await client.call_tool("jupyter_create", {"path": "fresh.ipynb"})
        refused = await client.call_tool("jupyter_run", {"path": "fresh.ipynb", "ids": ["x"]})
    assert created["kernel_name"] == "python3"
    assert again.is_error
    assert "exists already" in again.content[0].text
    assert refused.is_error
    assert "'run'" in refused.content[0].text
    nbformat.validate(nbformat.read(jp_root_dir / "fresh.ipynb", as_version=4))


async def test_a_long_run_becomes_a_task_that_routes_back_and_cancels_into_an_interrupt(
    jp_root_dir: Path, jp_fetch: Any, server_url: str, jupyter_token: str
) -> None:
    from tests.serverext.conftest import jupyter_client
    from tests.tasks_client import CreatedTask, TasksClient, cancel_task, start, wait_for

    write_notebook(jp_root_dir, "task.ipynb", ["import time\ntime.sleep(1.5)\n'slept'", "import time\ntime.sleep(60)"])
    async with jupyter_client(f"{server_url}mcp", jupyter_token, mode="auto", extensions=[TasksClient()]) as client:
        short, long = structured(await client.call_tool("jupyter_read", {"path": "task.ipynb"}))["cells"]
        created = await start(client, "jupyter_run", {"path": "task.ipynb", "ids": [short["id"]]})
        assert isinstance(created, CreatedTask)
        assert created.task_id.startswith("jupyter.")
        done = await wait_for(client.session, created.task_id, ("completed",))
        assert done.result is not None
        assert done.result["structuredContent"]["cells"][0]["outputs"][0]["text"] == "'slept'"
        created = await start(client, "jupyter_run", {"path": "task.ipynb", "ids": [long["id"]]})
        assert isinstance(created, CreatedTask)
        await cancel_task(client.session, created.task_id)
        with anyio.fail_after(30):
            while True:
                cell = structured(await client.call_tool("jupyter_read", {"path": "task.ipynb", "cells": [long["id"]]}))
                outputs = cell["cells"][0]["outputs"]
                if outputs and "KeyboardInterrupt" in outputs[-1].get("text", ""):
                    break
                await anyio.sleep(0.2)
