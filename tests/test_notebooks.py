"""The notebooks run top to bottom (so they never rot), and what they serve works for a client."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import anyio
import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import http_client

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def outputs_text(cell: Any) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream":
            parts.append(output["text"])
        elif "data" in output:
            parts.append(output["data"].get("text/plain", ""))
    return "".join(parts)


@pytest.fixture
def isolated_runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    return tmp_path


def test_quickstart_runs_and_serves_an_outside_client(isolated_runtime: Path) -> None:
    notebook = nbformat.read(NOTEBOOKS / "01-quickstart.ipynb", as_version=4)
    client = NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    with client.setup_kernel(env={**os.environ, "JUPYTER_RUNTIME_DIR": str(isolated_runtime)}):
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        by_source = {cell.source.splitlines()[0] if cell.source else "": cell for cell in notebook.cells}
        vscode = json.loads(outputs_text(by_source["%mcp config vscode"]))
        (entry,) = vscode["servers"].values()

        async def use_it() -> None:
            token = entry["headers"]["Authorization"].removeprefix("Bearer ")
            async with http_client(entry["url"], token, mode="auto") as outside:
                names = {t.name for t in (await outside.list_tools()).tools}
                assert names == {"get_var", "word_count", "find_items", "restock"}
                found = await outside.call_tool("find_items", {"query": "tea"})
                assert found.structured_content == {
                    "result": [{"sku": "B-7", "name": "teapot", "stock": 5, "price": 24.5}]
                }
                assert (await outside.call_tool("get_var", {"name": "inventory"})).is_error is False

        anyio.run(use_it)
    errors = [o for cell in notebook.cells for o in cell.get("outputs", []) if o["output_type"] == "error"]
    assert errors == []
    history = outputs_text(by_source["%mcp history"])
    assert "find_items(" in history
    assert "restock(" in history
    assert "Invalid arguments for tool 'word_count'" in outputs_text(
        by_source['bad = await server.call("word_count", {"txt": "typo"})']
    )


def test_long_running_and_interactive_tools_notebook_runs(isolated_runtime: Path) -> None:
    notebook = nbformat.read(NOTEBOOKS / "04-long-running-and-interactive-tools.ipynb", as_version=4)
    client = NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute(env={**os.environ, "JUPYTER_RUNTIME_DIR": str(isolated_runtime)})
    errors = [o for cell in notebook.cells for o in cell.get("outputs", []) if o["output_type"] == "error"]
    assert errors == []
    by_start = {cell.source.splitlines()[0]: cell for cell in notebook.cells if cell.cell_type == "code"}

    def output_of(start: str) -> str:
        return outputs_text(next(cell for first, cell in by_start.items() if first.startswith(start)))

    asked = output_of("import mcp_types as mt")
    for era in ("legacy", "auto"):  # the same tools answered in both eras
        assert f"{era} Q1 in numbers" in asked
        assert f"{era} Ada reviews 1 folder(s)" in asked
    assert "deleted draft.csv" in asked
    assert "'status': 'working'" in output_of("import httpx")
    assert "('completed', {'epochs': 2, 'loss': 0.36})" in output_of("while (task")
    assert "('input_required', ['scenarios'], 'task')" in output_of("asked =")
    assert "('cancelled', 'simulated 3 scenario(s)')" in output_of("cancel_me")
    history = outputs_text([cell for cell in notebook.cells if cell.source == "%mcp history"][-1])
    assert re.search(r'ok +train\("epochs": 2\) .* task \S+', history)
    assert re.search(r'cancelled train\("epochs": 60\) .* task \S+', history)
    assert "north Q1: 1.2M" in output_of('async with client("auto")')
