"""``%mcp keep`` and ``%mcp export`` in a real kernel: numbers, the sidecar file, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import ADD_TOOL, start_notebook_kernel
from tests.harness import Kernel
from tests.kernel.conftest import kernel, runtime_dir
from tests.kernel.test_magics import usage_error

__all__ = ["kernel", "runtime_dir"]


def test_keep_saves_beside_the_notebook_and_survives_the_kernel(runtime_dir: Path, tmp_path: Path) -> None:
    notebook = tmp_path / "sums.ipynb"
    first = start_notebook_kernel(runtime_dir, str(notebook), [ADD_TOOL])
    try:
        first.run("await server.call('add', {'a': 1, 'b': 2})\nawait server.call('add', {'a': 'x', 'b': 2})")
        kept = first.run("%mcp keep 1 2").stdout.splitlines()
        assert kept[0] == f"2 call(s) kept as tests (saved in {tmp_path / 'sums.mcp-calls.json'})"
        assert kept[1].startswith("1. add(a=1, b=2)  (call #1, ")
        assert kept[2].startswith("2. add(a='x', b=2)  (call #2, ")
        first.run("%mcp keep 1")  # kept already: no second copy
        assert "#1 " in first.run("%mcp history").stdout
        assert "(kept)" in first.run("%mcp history").stdout
    finally:
        first.shutdown()
    calls = json.loads((tmp_path / "sums.mcp-calls.json").read_text())["calls"]
    assert [(c["tool"], c["arguments"], list(c["expect"])) for c in calls] == [
        ("add", {"a": 1, "b": 2}, ["structured"]),
        ("add", {"a": "x", "b": 2}, ["error"]),
    ]
    assert calls[0]["expect"]["structured"] == {"result": 3}
    assert calls[1]["expect"]["error"].startswith(
        "Invalid arguments for tool 'add':\n- a: Input should be a valid integer"
    )

    second = start_notebook_kernel(runtime_dir, str(notebook), [ADD_TOOL])
    try:
        second.run("await server.call('add', {'a': 1, 'b': 2})\nawait server.call('add', {'a': 5, 'b': 5})")
        listed = second.run("%mcp keep 1 2").stdout  # call 1 repeats an earlier kept call: kept once
        assert listed.splitlines()[0].startswith("3 call(s) kept as tests")
        assert "3. add(a=5, b=5)  (call #2, " in listed
        second.run("%mcp keep --clear")
    finally:
        second.shutdown()
    assert json.loads((tmp_path / "sums.mcp-calls.json").read_text())["calls"] == []


def test_keep_and_export_errors_are_one_line(kernel: Kernel, tmp_path: Path) -> None:
    kernel.run(ADD_TOOL)
    kernel.run("await server.call('add', {'a': 1, 'b': 2})")
    for line, message in [
        ("%mcp keep 7", "%mcp keep: no call #7 in the history (%mcp history shows the numbers)"),
        ("%mcp keep x", "usage: %mcp keep [N ...|--clear]"),
        ("%mcp export", "%mcp export: the following arguments are required: directory"),
        (
            f"%mcp export {tmp_path / 'out'}",
            "%mcp export: this kernel does not know its notebook (no JPY_SESSION_NAME): run it from a notebook",
        ),
    ]:
        assert usage_error(kernel.execute(line)) == f"UsageError: {message}"
    assert kernel.run("%mcp keep 1").stdout.startswith(
        "1 call(s) kept as tests (in memory only: no notebook file known)"
    )
