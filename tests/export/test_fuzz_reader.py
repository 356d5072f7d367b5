"""Fuzzing ``export``'s notebook reader: any file named ``.ipynb`` (bytes, any JSON, a notebook with odd
cells and metadata, odd magic lines and cell code) is read and translated, or refused with one
sentence (``NotebookError``, ``ExportError``): never another exception, never a traceback.
The worst inputs also go through the real ``jupyter-mcp export`` command.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from jupyter_mcp.export import ExportError
from jupyter_mcp.export.translate.cells import translate_notebook
from jupyter_mcp.notebookfile import NotebookError, read
from tests.cli.conftest import JUPYTER_MCP
from tests.reliability.fuzzing import budget, json_values

DEEP = b'{"cells": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
MAGIC_LINES = [
    "%%mcp_tool",
    "%%mcp_tool f(x: int) -> int",
    "%%mcp_tool --timeout abc",
    "%%mcp_tool f(x",
    "%%mcp_resource data://{name}",
    "%%mcp_resource",
    "%%mcp_prompt --tags ,",
    "%mcp_tool f --name",
    "%mcp export",
    "%%mcp_tool --headers =",
]
CODE = [
    "def f(x: int) -> int:\n    return x",
    "x = 1",
    "def f(*a): pass",
    "import os\nos.getcwd()",
    "def (",
    "\x00",
    "",
]

sources = st.one_of(
    st.tuples(st.sampled_from(MAGIC_LINES), st.sampled_from(CODE)).map("\n".join),
    st.sampled_from(CODE),
    st.text(max_size=40),
    st.lists(st.text(max_size=10), max_size=3),
    json_values,
)
cells = st.fixed_dictionaries(
    {"cell_type": st.sampled_from(["code", "code", "markdown", "raw", "other"]) | json_values},
    optional={
        "source": sources,
        "metadata": st.fixed_dictionaries({}, optional={"tags": st.lists(st.sampled_from(["mcp", "x"])) | json_values})
        | json_values,
        "outputs": st.just([]) | json_values,
        "execution_count": st.none() | json_values,
        "id": st.text(max_size=8),
    },
)
notebooks = st.fixed_dictionaries(
    {},
    optional={
        "cells": st.lists(cells, max_size=4) | json_values,
        "metadata": st.fixed_dictionaries({}, optional={"kernelspec": json_values | st.just({"name": "python3"})})
        | json_values,
        "nbformat": st.sampled_from([4, 4, 3, 5]) | json_values,
        "nbformat_minor": st.sampled_from([0, 5]) | json_values,
    },
)
files = st.one_of(
    notebooks.map(lambda document: json.dumps(document).encode()),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.binary(max_size=40),
    st.just(DEEP),
)


def read_and_translate(path: Path, tagged: bool) -> str:
    """What happened: "translated", or the one sentence it was refused with."""
    try:
        translate_notebook(read(path, tagged=tagged))
    except (NotebookError, ExportError) as refused:
        said = str(refused)
    else:
        return "translated"
    assert said.strip()
    assert "Traceback" not in said, said
    return said


@budget(150)
@given(content=files, tagged=st.booleans())
def test_any_file_is_read_or_refused_in_a_sentence(tmp_path: Path, content: bytes, tagged: bool) -> None:
    note(repr(content[:300]))
    path = tmp_path / "fuzz.ipynb"
    path.write_bytes(content)
    note(read_and_translate(path, tagged))


def notebook(*cells: dict[str, Any], metadata: Any = None) -> bytes:
    document = {"cells": list(cells), "metadata": {} if metadata is None else metadata}
    return json.dumps({**document, "nbformat": 4, "nbformat_minor": 5}).encode()


def code(source: Any, **more: Any) -> dict[str, Any]:
    return {"cell_type": "code", "source": source, "metadata": {}, "outputs": [], "execution_count": None} | more


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"\xff", "cannot read"),
        (DEEP, "cannot read"),
        (notebook(code("x = 1"), metadata={"kernelspec": "python3"}), "translated"),
        (notebook(code(5)), "cannot read"),
        (notebook(code("x = 1", metadata=[])), "translated"),
    ],
    ids=["bytes", "deep", "kernelspec-a-string", "source-a-number", "metadata-a-list"],
)
def test_what_the_fuzzer_found(tmp_path: Path, content: bytes, said: str) -> None:
    path = tmp_path / "found.ipynb"
    path.write_bytes(content)
    assert read_and_translate(path, tagged=False).startswith(said)


@pytest.mark.parametrize("content", [DEEP, notebook(code(5))], ids=["deep", "source-a-number"])
def test_the_export_command_says_it_in_one_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "found.ipynb"
    path.write_bytes(content)
    done = subprocess.run(
        [JUPYTER_MCP, "export", str(path), "-o", str(tmp_path / "out"), "--no-check"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    assert done.stderr.startswith(f"jupyter-mcp: cannot read {path} as a notebook: "), done.stderr[-2000:]
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
