"""The notebook tools beside the notebooks' own tools at ``/mcp``: bare names next to prefixed ones, the prefix
``jupyter`` kept for their links (a notebook named so gets another), no notebook tools for a scoped client,
and none at all (a list change told) when they are switched off."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt

from tests.serverext.conftest import WHOAMI, Notebook, jupyter_client
from tests.serverext.notebooks.conftest import structured, write_notebook


async def test_the_notebook_tools_stand_beside_the_notebooks_own(
    jp_root_dir: Path, jp_fetch: Any, jp_serverapp: Any, server_url: str, jupyter_token: str, mode: str
) -> None:
    write_notebook(jp_root_dir, "jupyter.ipynb", [WHOAMI])
    serving = await Notebook(jp_fetch, jp_serverapp, "jupyter.ipynb").serve(WHOAMI)
    changed = anyio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, mt.ToolListChangedNotification):
            changed.set()

    try:
        async with jupyter_client(f"{server_url}mcp", jupyter_token, mode=mode, message_handler=on_message) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert names == {
                "jupyter_2_whoami",
                "jupyter_notebooks",
                "jupyter_read",
                "jupyter_edit",
                "jupyter_run",
                "jupyter_create",
            }
            assert (await client.call_tool("jupyter_2_whoami", {})).structured_content == {"result": "jupyter.ipynb"}
            listing = structured(await client.call_tool("jupyter_notebooks", {}))
            (entry,) = listing["notebooks"]
            assert (entry["path"], entry["serves_tools"], entry["prefix"]) == ("jupyter.ipynb", True, "jupyter_2")
            assert entry["kernel"]["id"] == serving.kernel_id
            union = json.loads((await jp_fetch("api", "mcp", "union")).body)
            assert [(n["notebook_path"], n["prefix"], n["collision"]) for n in union["notebooks"]] == [
                ("jupyter.ipynb", "jupyter_2", "'jupyter' is reserved for the notebook tools")
            ]
            await jp_fetch("api", "mcp", "notebook-tools", method="POST", body=json.dumps({"mode": "off"}))
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert names == {"jupyter_2_whoami"}
            if mode == "legacy":
                with anyio.fail_after(10):
                    await changed.wait()
        scoped = f"{server_url}mcp?notebooks=jupyter.ipynb"
        await jp_fetch("api", "mcp", "notebook-tools", method="POST", body=json.dumps({"mode": "run"}))
        async with jupyter_client(scoped, jupyter_token, mode=mode) as client:
            assert {tool.name for tool in (await client.list_tools()).tools} == {"jupyter_2_whoami"}
    finally:
        serving.close()
