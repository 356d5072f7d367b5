"""The notebook tools for a client signed in with Jupyter: the consent page offers their modes up to the
server's, and what the user chose there holds on every one of them — the mode, read-only access, and the
notebooks of the grant (``jupyter_notebooks`` lists only those; the others cannot be read, edited, run or
created). Real server with real-time collaboration, the SDK's OAuth client, both eras."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt
import nbformat

from tests.conftest import NOTEBOOK_TOOLS
from tests.oauth import Consent, oauth_client, sdk_provider
from tests.serverext.notebooks.conftest import structured, write_notebook


def offered(page: str) -> list[str]:
    """The notebook tools' modes the consent page's select offers."""
    select = re.search(r'<select name="notebook_tools".*?</select>', page, re.S)
    assert select is not None, "the consent page offers no notebook tools mode"
    return re.findall(r'<option value="([^"]+)"', select.group(0))


def refusal(result: Any) -> str:
    assert result.is_error
    return str(result.content[0].text)


async def test_a_read_only_grant_for_one_notebook_reads_only_it(
    jp_root_dir: Path, server_url: str, jupyter_token: str, jp_fetch: Any, mode: str
) -> None:
    del jp_fetch  # (the server listens)
    write_notebook(jp_root_dir, "sales.ipynb", ["revenue = 1"])
    write_notebook(jp_root_dir, "ops.ipynb", ["secret = 2"])
    form = {"access": "read", "notebooks": "some", "notebook_paths": "sales.ipynb", "notebook_tools": "run"}
    consent = Consent(jupyter_token, form)
    async with oauth_client(f"{server_url}mcp", sdk_provider(f"{server_url}mcp", consent), mode=mode) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} >= NOTEBOOK_TOOLS
        listing = structured(await client.call_tool("jupyter_notebooks", {}))
        assert [entry["path"] for entry in listing["notebooks"]] == ["sales.ipynb"]
        assert listing["mode"] == "read"  # run on the server and in the grant, but read-only access
        read = structured(await client.call_tool("jupyter_read", {"path": "sales.ipynb"}))
        assert [cell["source"] for cell in read["cells"]] == ["revenue = 1"]
        hidden = refusal(await client.call_tool("jupyter_read", {"path": "/ops.ipynb"}))
        assert "'ops.ipynb' is not among the notebooks 'SDK test client' signed in with Jupyter for" in hidden
        assert "secret" not in hidden
        cell = read["cells"][0]
        edit = {
            "path": "sales.ipynb",
            "ops": [{"op": "replace", "id": cell["id"], "version": cell["version"], "source": "x"}],
        }
        for tool, arguments in (
            ("jupyter_edit", edit),
            ("jupyter_run", {"path": "sales.ipynb", "ids": [cell["id"]]}),
            ("jupyter_create", {"path": "sales2.ipynb"}),
        ):
            assert "signed in with Jupyter for read-only tools" in refusal(await client.call_tool(tool, arguments))
    assert offered(consent.pages[0]) == ["off", "read", "edit", "run"]
    assert nbformat.read(jp_root_dir / "sales.ipynb", as_version=4).cells[0].source == "revenue = 1"
    assert not (jp_root_dir / "sales2.ipynb").exists()


async def test_a_grant_for_a_folder_edits_there_up_to_its_mode_and_the_servers(
    jp_root_dir: Path, server_url: str, jupyter_token: str, jp_fetch: Any
) -> None:
    write_notebook(jp_root_dir, "reports/q1.ipynb", ["total = 1"])
    write_notebook(jp_root_dir, "other.ipynb", ["x = 1"])
    switch = {"method": "POST", "body": json.dumps({"mode": "edit"})}
    await jp_fetch("api", "mcp", "notebook-tools", **switch)
    form = {"access": "full", "notebooks": "some", "notebook_paths": "reports/", "notebook_tools": "edit"}
    consent = Consent(jupyter_token, form)
    changed = anyio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, mt.ToolListChangedNotification):
            changed.set()

    provider = sdk_provider(f"{server_url}mcp", consent)
    async with oauth_client(f"{server_url}mcp", provider, mode="legacy", message_handler=on_message) as client:
        listing = structured(await client.call_tool("jupyter_notebooks", {}))
        assert ([entry["path"] for entry in listing["notebooks"]], listing["mode"]) == (["reports/q1.ipynb"], "edit")
        [cell] = structured(await client.call_tool("jupyter_read", {"path": "reports/q1.ipynb"}))["cells"]
        op = {"op": "replace", "id": cell["id"], "version": cell["version"], "source": "total = 2"}
        structured(await client.call_tool("jupyter_edit", {"path": "reports/q1.ipynb", "ops": [op]}))
        structured(await client.call_tool("jupyter_create", {"path": "reports/q2.ipynb"}))
        outside = refusal(await client.call_tool("jupyter_create", {"path": "q2.ipynb"}))
        assert "'q2.ipynb' is not among the notebooks" in outside
        assert "no '..'" in refusal(await client.call_tool("jupyter_read", {"path": "reports/../other.ipynb"}))
        assert "is not among" in refusal(await client.call_tool("jupyter_read", {"path": "other.ipynb"}))
        # the server allows runs again: the grant still does not
        await jp_fetch("api", "mcp", "notebook-tools", method="POST", body=json.dumps({"mode": "run"}))
        run = refusal(await client.call_tool("jupyter_run", {"path": "reports/q1.ipynb", "ids": [cell["id"]]}))
        assert "signed in with Jupyter for the notebook tools in 'edit' mode" in run
        # switched off, the notebook tools leave this client's list, and it is told so (held to reports/ by its
        # grant, it still sees the notebook tools, which are no notebook's)
        await jp_fetch("api", "mcp", "notebook-tools", method="POST", body=json.dumps({"mode": "off"}))
        with anyio.fail_after(10):
            await changed.wait()
        assert not {tool.name for tool in (await client.list_tools()).tools} & NOTEBOOK_TOOLS
    assert offered(consent.pages[0]) == ["off", "read", "edit"]  # never more than the server's mode then
    assert (jp_root_dir / "reports" / "q2.ipynb").exists()
    assert not (jp_root_dir / "q2.ipynb").exists()
    [app] = json.loads((await jp_fetch("api", "mcp", "apps")).body)
    assert (app["notebooks"], app["notebook_tools"], app["read_only"]) == (["reports/"], "edit", False)
