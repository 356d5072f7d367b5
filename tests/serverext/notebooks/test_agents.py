"""Agents as collaborators: each shows in the notebook's shared document (its awareness) under its client name,
the sidebar's REST lists who works where, and undo takes back an agent's last edit and nothing of the user's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.serverext.notebooks.conftest import Agents, structured, write_notebook


async def document(serverapp: Any, path: str) -> Any:
    (ydoc,) = serverapp.extension_manager.extension_apps["jupyter_server_ydoc"]
    return await ydoc.get_document(path=path, content_type="notebook", file_format="json", copy=False, create=True)


async def test_an_agent_is_a_named_collaborator_of_the_notebook_it_works_in(
    jp_root_dir: Path, jp_serverapp: Any, jp_fetch: Any, agent: Agents
) -> None:
    write_notebook(jp_root_dir, "team.ipynb", ["1"])
    async with agent("claude-desktop") as client:
        await client.call_tool("jupyter_read", {"path": "team.ipynb"})
        states = (await document(jp_serverapp, "team.ipynb")).awareness.states.values()
        users = [state["user"] for state in states if state and "user" in state]
        assert [(u["name"], u["display_name"], u["initials"]) for u in users] == [
            ("claude-desktop", "claude-desktop (MCP agent)", "CD")
        ]
    reply = json.loads((await jp_fetch("api", "mcp", "notebook-tools")).body)
    assert [(a["name"], a["notebook_path"], a["edits"]) for a in reply["agents"]] == [
        ("claude-desktop", "team.ipynb", 0)
    ]


async def test_undo_takes_back_the_agents_last_edit_and_keeps_the_users(
    jp_root_dir: Path, jp_serverapp: Any, jp_fetch: Any, agent: Agents
) -> None:
    write_notebook(jp_root_dir, "undo.ipynb", ["a = 1", "# the user's"])
    async with agent("helper") as client:
        first, mine = structured(await client.call_tool("jupyter_read", {"path": "undo.ipynb"}))["cells"]
        ops = [{"op": "replace", "id": first["id"], "version": first["version"], "source": "a = 2"}]
        structured(await client.call_tool("jupyter_edit", {"path": "undo.ipynb", "ops": ops}))
        ops = [{"op": "insert", "after": first["id"], "source": "b = a * 2"}]
        structured(await client.call_tool("jupyter_edit", {"path": "undo.ipynb", "ops": ops}))
        notebook = await document(jp_serverapp, "undo.ipynb")
        with notebook.ydoc.transaction(origin="browser-user"):  # the user types after the agent's edits
            text = next(cell for cell in notebook.ycells if cell["id"] == mine["id"])["source"]
            text.insert(len(text), " and mine")
        body = json.dumps({"agent": "helper", "notebook": "undo.ipynb"})
        reply = json.loads((await jp_fetch("api", "mcp", "notebook-tools", "undo", method="POST", body=body)).body)
        assert [a["edits"] for a in reply["agents"]] == [1]
        after = [
            c["source"] for c in structured(await client.call_tool("jupyter_read", {"path": "undo.ipynb"}))["cells"]
        ]
        assert after == ["a = 2", "# the user's and mine"]
        await jp_fetch("api", "mcp", "notebook-tools", "undo", method="POST", body=body)
        after = [
            c["source"] for c in structured(await client.call_tool("jupyter_read", {"path": "undo.ipynb"}))["cells"]
        ]
        assert after == ["a = 1", "# the user's and mine"]
        nothing = await jp_fetch("api", "mcp", "notebook-tools", "undo", method="POST", body=body, raise_error=False)
        assert nothing.code == 409
