"""The notebook tools at ``<base_url>/mcp``: listing, reading and editing through the live shared document,
with real MCP clients in both eras."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tests.serverext.notebooks.conftest import Agents, saved, structured, write_notebook


async def test_the_tools_are_listed_bare_and_a_notebook_reads_with_ids_and_versions(
    jp_root_dir: Path, agent: Agents
) -> None:
    write_notebook(jp_root_dir, "work/analysis.ipynb", [("markdown", "# Sales"), "x = 1\nx + 1"])
    async with agent() as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"jupyter_notebooks", "jupyter_read", "jupyter_edit", "jupyter_run", "jupyter_create"} <= names
        listing = structured(await client.call_tool("jupyter_notebooks", {}))
        assert [entry["path"] for entry in listing["notebooks"]] == ["work/analysis.ipynb"]
        assert (listing["mode"], listing["confirm"]) == ("run", "never")
        read = structured(await client.call_tool("jupyter_read", {"path": "work/analysis.ipynb"}))
    assert read["live"] is True
    assert [(c["index"], c["cell_type"], c["source"]) for c in read["cells"]] == [
        (0, "markdown", "# Sales"),
        (1, "code", "x = 1\nx + 1"),
    ]
    assert all(len(cell["version"]) == 12 and cell["id"] for cell in read["cells"])


async def test_an_edit_batch_applies_as_one_change_and_the_saved_file_is_valid(
    jp_root_dir: Path, agent: Agents
) -> None:
    file = write_notebook(jp_root_dir, "edit.ipynb", ["a = 1", "b = 2", "c = 3"])
    async with agent() as client:
        cells = structured(await client.call_tool("jupyter_read", {"path": "edit.ipynb"}))["cells"]
        a, b, c = cells
        ops = [
            {"op": "insert", "after": a["id"], "cell_type": "markdown", "source": "## after a"},
            {"op": "replace", "id": b["id"], "version": b["version"], "source": "b = 20"},
            {"op": "delete", "id": c["id"], "version": c["version"]},
            {"op": "move", "id": a["id"], "after": b["id"]},
        ]
        edit = structured(await client.call_tool("jupyter_edit", {"path": "edit.ipynb", "ops": ops}))
        assert [(t["op"], t["id"]) for t in edit["touched"]][1:] == [
            ("replace", b["id"]),
            ("delete", c["id"]),
            ("move", a["id"]),
        ]
        inserted = edit["touched"][0]["id"]
        after = structured(await client.call_tool("jupyter_read", {"path": "edit.ipynb"}))["cells"]
    assert [cell["id"] for cell in after] == [inserted, b["id"], a["id"]]
    assert [cell["source"] for cell in after] == ["## after a", "b = 20", "a = 1"]
    versions = {t["id"]: t["version"] for t in edit["touched"]}
    assert versions[b["id"]] == after[1]["version"] != b["version"]
    assert versions[c["id"]] is None
    notebook = await saved(file, lambda nb: [cell.source for cell in nb.cells] == ["## after a", "b = 20", "a = 1"])
    assert [cell.source for cell in notebook.cells] == ["## after a", "b = 20", "a = 1"]
    nbformat.validate(notebook)
    assert [cell.id for cell in notebook.cells] == [inserted, b["id"], a["id"]]


async def test_a_stale_version_is_refused_with_the_cell_as_it_is_and_a_bad_batch_applies_nothing(
    jp_root_dir: Path, agent: Agents
) -> None:
    write_notebook(jp_root_dir, "stale.ipynb", ["a = 1", "b = 2"])
    async with agent("first") as first, agent("second") as second:
        a, b = structured(await first.call_tool("jupyter_read", {"path": "stale.ipynb"}))["cells"]
        won = [{"op": "replace", "id": a["id"], "version": a["version"], "source": "a = 'second'"}]
        structured(await second.call_tool("jupyter_edit", {"path": "stale.ipynb", "ops": won}))
        lost = [
            {"op": "insert", "after": None, "source": "# would be first"},
            {"op": "replace", "id": a["id"], "version": a["version"], "source": "a = 'first'"},
        ]
        refused = await first.call_tool("jupyter_edit", {"path": "stale.ipynb", "ops": lost})
        assert refused.is_error
        text = refused.content[0].text
        assert "changed since you read it" in text
        assert "nothing was applied" in text
        assert "a = 'second'" in text
        bad = [
            {"op": "delete", "id": b["id"], "version": b["version"]},
            {"op": "replace", "id": "no-such-cell", "version": "x", "source": "?"},
        ]
        refused = await first.call_tool("jupyter_edit", {"path": "stale.ipynb", "ops": bad})
        assert refused.is_error
        assert "no cell with id 'no-such-cell'" in refused.content[0].text
        malformed = await first.call_tool("jupyter_edit", {"path": "stale.ipynb", "ops": [{"op": "explode"}]})
        assert malformed.is_error
        assert "ops" in malformed.content[0].text
        now = structured(await first.call_tool("jupyter_read", {"path": "stale.ipynb"}))["cells"]
    assert [cell["source"] for cell in now] == ["a = 'second'", "b = 2"]


@pytest.mark.parametrize("notebook_tools", [{"notebook_tools": "read"}])
async def test_in_read_mode_edits_and_runs_are_refused_with_how_to_enable_them(
    jp_root_dir: Path, agent: Agents
) -> None:
    write_notebook(jp_root_dir, "ro.ipynb", ["a = 1"])
    async with agent() as client:
        (a,) = structured(await client.call_tool("jupyter_read", {"path": "ro.ipynb"}))["cells"]
        ops = [{"op": "delete", "id": a["id"], "version": a["version"]}]
        for name, arguments in [
            ("jupyter_edit", {"path": "ro.ipynb", "ops": ops}),
            ("jupyter_run", {"path": "ro.ipynb", "ids": [a["id"]]}),
            ("jupyter_create", {"path": "new.ipynb"}),
        ]:
            refused = await client.call_tool(name, arguments)
            assert refused.is_error
            assert "MCPExtensionApp.notebook_tools" in refused.content[0].text
            assert "--MCPExtensionApp.notebook_tools=" in refused.content[0].text
    assert not (jp_root_dir / "new.ipynb").exists()
    assert nbformat.read(jp_root_dir / "ro.ipynb", as_version=4).cells[0].source == "a = 1"
