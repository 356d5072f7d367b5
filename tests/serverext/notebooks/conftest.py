"""A real Jupyter server with the extension and real-time collaboration (jupyter-server-ydoc), its
notebook tools at ``<base_url>/mcp``, and helpers to write notebooks under its root."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import mcp_types as mt
import nbformat
import pytest
from traitlets.config import Config

from tests.serverext.conftest import jupyter_client


@pytest.fixture(autouse=True)
def ystore_out_of_the_checkout(jp_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """jupyter-server-ydoc's ``get_document`` opens its update store (``.jupyter_ystore.db``) in the working
    directory, whatever ``SQLiteYStore.db_path`` says: keep it in the test's own directory."""
    monkeypatch.chdir(jp_data_dir)


@pytest.fixture
def notebook_tools() -> dict[str, str]:
    """``MCPExtensionApp`` traits of the notebook tools for a test (override to change them)."""
    return {"notebook_tools": "run", "notebook_tools_confirm": "never"}


@pytest.fixture
def jp_server_config(jp_root_dir: Path, jp_data_dir: Path, notebook_tools: dict[str, str]) -> Config:
    return Config(
        {
            "ServerApp": {
                "jpserver_extensions": {"jupyter_mcp": True, "jupyter_server_ydoc": True, "jupyter_server_fileid": True}
            },
            "MCPExtensionApp": notebook_tools,
            "SQLiteYStore": {"db_path": str(jp_data_dir / "ystore.db")},
            "BaseFileIdManager": {"db_path": str(jp_data_dir / "fileid.db"), "db_journal_mode": "OFF"},
            "YDocExtension": {"document_save_delay": 0.2},
        }
    )


def write_notebook(root: Path, path: str, cells: Sequence[str | tuple[str, str]]) -> Path:
    """A notebook at ``root/path`` whose cells are code (a string) or ``(cell_type, source)``."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for cell in cells:
        kind, source = ("code", cell) if isinstance(cell, str) else cell
        make = {"code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell}[kind]
        notebook.cells.append(make(source))
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    return target


class Agents:
    """Makes real ``mcp.Client``s of ``<base_url>/mcp``, each calling itself by a name of its own."""

    def __init__(self, url: str, token: str, mode: str) -> None:
        self.url = url
        self.token = token
        self.mode = mode

    def __call__(self, name: str = "test-agent", **options: Any) -> Any:
        return jupyter_client(
            self.url, self.token, mode=self.mode, client_info=mt.Implementation(name=name, version="1"), **options
        )


@pytest.fixture
def agent(jp_fetch: Any, server_url: str, jupyter_token: str, mode: str) -> Agents:
    """Clients of the running server's ``/mcp`` in the test's protocol era (``jp_fetch``: the server listens)."""
    return Agents(f"{server_url}mcp", jupyter_token, mode)


async def saved(path: Path, check: Any, within: float = 10) -> nbformat.NotebookNode:
    """The notebook on disk once ``check(notebook)`` holds (the document autosaves after a short delay)."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        try:
            notebook = nbformat.read(path, as_version=4)
        except (ValueError, nbformat.reader.NotJSONError):
            notebook = None  # read while the document's save was writing it: look again
        if notebook is not None and (check(notebook) or asyncio.get_running_loop().time() > deadline):
            return notebook
        await asyncio.sleep(0.1)


def structured(result: Any) -> dict[str, Any]:
    """A tool result's structured content (failing with its text when it is an error)."""
    assert not result.is_error, result.content[0].text
    value = result.structured_content
    assert isinstance(value, dict)
    assert json.loads(result.content[0].text) == value
    return value
