"""With the default ``notebook_tools_confirm``, an agent's edit and run wait for the notebook user, shown with
the edit's diff or the code to run; Deny changes nothing, Allow applies; with ``"never"`` they go at once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.serverext.notebooks.conftest import Agents, saved, structured, write_notebook

WAITING = {"notebook_tools": "run", "notebook_tools_confirm": "edits_and_runs"}


async def waiting(jp_fetch: Any, count: int = 1) -> list[dict[str, Any]]:
    """The notebook tools' calls waiting for approval, as JupyterLab reads them (once ``count`` wait)."""
    for _ in range(200):
        servers = json.loads((await jp_fetch("api", "mcp", "servers")).body)
        (own,) = [server for server in servers if server["transport"] == "server"]
        if len(own["pending"]) >= count:
            assert own["kernel_id"] == "notebook-tools"
            return list(own["pending"])
        await asyncio.sleep(0.05)
    raise AssertionError("no call waited for approval")


async def answer(jp_fetch: Any, call_id: str, decision: str) -> None:
    body = json.dumps({"decision": decision})
    await jp_fetch("api", "mcp", "kernels", "notebook-tools", "approvals", call_id, method="POST", body=body)


@pytest.mark.parametrize("notebook_tools", [WAITING])
async def test_a_run_waits_with_its_code_and_deny_changes_nothing(
    jp_root_dir: Path, jp_fetch: Any, agent: Agents
) -> None:
    write_notebook(jp_root_dir, "guarded.ipynb", ["open('ran.txt', 'w').write('ran')"])
    async with agent("desk-agent") as client:
        (cell,) = structured(await client.call_tool("jupyter_read", {"path": "guarded.ipynb"}))["cells"]
        call = asyncio.ensure_future(client.call_tool("jupyter_run", {"path": "guarded.ipynb", "ids": [cell["id"]]}))
        (pending,) = await waiting(jp_fetch)
        assert (pending["tool"], pending["client"]) == ("jupyter_run", "desk-agent")
        assert pending["detail"]["kind"] == "code"
        assert pending["detail"]["title"] == "Run of 1 cell in guarded.ipynb"
        assert "open('ran.txt', 'w').write('ran')" in pending["detail"]["text"]
        assert not call.done()
        await answer(jp_fetch, pending["id"], "deny")
        denied = await call
        assert denied.is_error
        assert "declined" in denied.content[0].text
        (after,) = structured(await client.call_tool("jupyter_read", {"path": "guarded.ipynb"}))["cells"]
    assert after == cell
    assert not (jp_root_dir / "ran.txt").exists()
    sessions = json.loads((await jp_fetch("api", "sessions")).body)
    assert sessions == []  # no kernel was even started


@pytest.mark.parametrize("notebook_tools", [WAITING])
async def test_an_edit_waits_with_its_diff_and_allow_applies_it(
    jp_root_dir: Path, jp_fetch: Any, agent: Agents
) -> None:
    file = write_notebook(jp_root_dir, "diff.ipynb", ["total = 1 + 1"])
    async with agent("desk-agent") as client:
        (cell,) = structured(await client.call_tool("jupyter_read", {"path": "diff.ipynb"}))["cells"]
        ops = [{"op": "replace", "id": cell["id"], "version": cell["version"], "source": "total = 1 + 2"}]
        call = asyncio.ensure_future(client.call_tool("jupyter_edit", {"path": "diff.ipynb", "ops": ops}))
        (pending,) = await waiting(jp_fetch)
        detail = pending["detail"]
        assert (detail["kind"], detail["title"]) == ("diff", "Edit of diff.ipynb (1 operation)")
        assert detail["text"].splitlines() == [
            f"@@ replace the code cell {cell['id']}",
            "-total = 1 + 1",
            "+total = 1 + 2",
        ]
        assert pending["call"] == "jupyter_edit(path='diff.ipynb', ops='[1 operation]')"
        await answer(jp_fetch, pending["id"], "allow")
        edited = structured(await call)
    assert edited["touched"][0]["id"] == cell["id"]
    notebook = await saved(file, lambda notebook: notebook.cells[0].source == "total = 1 + 2")
    assert notebook.cells[0].source == "total = 1 + 2"


@pytest.mark.parametrize("notebook_tools", [{"notebook_tools": "run", "notebook_tools_confirm": "runs"}])
async def test_with_confirm_runs_an_edit_goes_at_once_and_the_switch_applies_to_the_next_call(
    jp_root_dir: Path, jp_fetch: Any, agent: Agents
) -> None:
    write_notebook(jp_root_dir, "switch.ipynb", ["1"])
    async with agent() as client:
        (cell,) = structured(await client.call_tool("jupyter_read", {"path": "switch.ipynb"}))["cells"]
        ops = [{"op": "insert", "after": cell["id"], "source": "2"}]
        structured(await client.call_tool("jupyter_edit", {"path": "switch.ipynb", "ops": ops}))
        body = json.dumps({"confirm": "never"})
        reply = json.loads((await jp_fetch("api", "mcp", "notebook-tools", method="POST", body=body)).body)
        assert (reply["mode"], reply["confirm"], reply["collaboration"]) == ("run", "never", True)
        ran = structured(await client.call_tool("jupyter_run", {"path": "switch.ipynb", "ids": [cell["id"]]}))
        assert ran["cells"][0]["status"] == "ok"
        body = json.dumps({"mode": "read"})
        await jp_fetch("api", "mcp", "notebook-tools", method="POST", body=body)
        refused = await client.call_tool("jupyter_run", {"path": "switch.ipynb", "ids": [cell["id"]]})
        assert refused.is_error
        assert "'read' mode" in refused.content[0].text
        bad = await jp_fetch(
            "api", "mcp", "notebook-tools", method="POST", body=json.dumps({"mode": "all"}), raise_error=False
        )
        assert bad.code == 400
