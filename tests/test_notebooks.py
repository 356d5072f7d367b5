"""The notebooks run top to bottom (so they never rot), and what they serve works for a client."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
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
    assert "this notebook's tools are named shop_TOOL" in outputs_text(by_source["%mcp name shop"])
    history = outputs_text(by_source["%mcp history"])
    assert "find_items(" in history
    assert "restock(" in history
    assert "Invalid arguments for tool 'word_count'" in outputs_text(
        by_source['bad = await server.call("word_count", {"txt": "typo"})']
    )


SOLUTIONS = {
    "01-quickstart.ipynb": '''%%mcp_tool
def greet(name: str) -> str:
    """Greets someone by name."""
    return f"Hello, {name}!"
''',
    "03-resources-and-prompts.ipynb": '''%%mcp_resource data://cities/{country}/names
def city_names(country: str) -> str:
    """The names of one country's cities."""
    return ", ".join(cities[cities.country == country].city)
''',
    "05-results-and-errors.ipynb": '''@jupyter_mcp.tool
def safe_divide(a: float, b: float) -> float:
    """a divided by b."""
    if b == 0:
        raise jupyter_mcp.ToolError("cannot divide by zero")
    return a / b
''',
    "06-context-progress-and-logs.ipynb": '''@jupyter_mcp.tool
def count_to(n: int, ctx: Context) -> int:
    """Counts, reporting each number."""
    for i in range(1, n + 1):
        ctx.report_progress(i, n)
    return n
''',
    "09-mcp-apps.ipynb": '''@jupyter_mcp.tool
def population(city: str) -> int:
    """A city's population."""
    return next(c["population"] for c in cities if c["city"] == city)


@jupyter_mcp.tool(app=False)
def debug_dump() -> str:
    """Everything, for debugging."""
    return repr(cities)
''',
}
"""Each workshop chapter ends with an exercise cell (a stub) and a check cell; these solve them."""


def run_chapter(name: str, runtime: Path, solution: str | None = None) -> list[Any]:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    if solution is not None:
        notebook.cells[-2].source = solution
    client = NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    with client.setup_kernel(env={**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime)}):
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
    errors = [o for cell in notebook.cells for o in cell.get("outputs", []) if o["output_type"] == "error"]
    assert errors == []
    return list(notebook.cells)


@pytest.mark.parametrize("name", sorted(SOLUTIONS))
def test_a_chapter_runs_and_its_check_tells_the_student(name: str, isolated_runtime: Path) -> None:
    unsolved = outputs_text(run_chapter(name, isolated_runtime)[-1])
    assert unsolved.startswith("✗ not yet:"), unsolved
    # Issue 23: two checks of a tool not written yet said the same "✗ not yet" twice.
    problems = [line.split(": ", 2)[-1] for line in unsolved.splitlines()]
    assert len(problems) == len(set(problems)), unsolved
    solved = outputs_text(run_chapter(name, isolated_runtime, SOLUTIONS[name])[-1]).splitlines()
    assert solved
    assert all(line.startswith("✓ ") for line in solved), solved


EXPORT_SOLUTION = '''%%mcp_tool --read-only
def rate(code: str) -> float:
    """A currency's rate against the euro."""
    if code not in rates:
        raise jupyter_mcp.ToolError(f"unknown currency {code!r}")
    return rates[code]
'''


def test_from_notebook_to_server_exports_and_its_tests_pass(isolated_runtime: Path, tmp_path: Path) -> None:
    # A copy: %mcp keep writes its sidecar file beside the notebook, and %mcp export reads the saved file.
    path = tmp_path / "07-from-notebook-to-server.ipynb"
    shutil.copy(NOTEBOOKS / path.name, path)
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[-2].source = EXPORT_SOLUTION
    client = NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(isolated_runtime), "JPY_SESSION_NAME": str(path)}
    with client.setup_kernel(env=env):
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
    errors = [o for cell in notebook.cells for o in cell.get("outputs", []) if o["output_type"] == "error"]
    assert errors == []
    by_source = {cell.source.splitlines()[0] if cell.source else "": cell for cell in notebook.cells}
    assert outputs_text(by_source["%mcp keep 1 2 3"]).startswith("3 call(s) kept as tests (saved in ")
    exported = outputs_text(by_source["import tempfile"])
    assert "2 tool(s): convert, currencies; 3 kept call(s) as tests" in exported
    assert "differs from the notebook" not in exported
    assert "def currencies() -> list[str]:" in outputs_text(by_source['print(open(f"{export_dir}/server.py").read())'])
    in_memory = outputs_text(by_source["import subprocess"])
    live = outputs_text(by_source['pytest("--jupyter-mcp-url", server.url, "--token", server.token)'])
    assert in_memory.startswith("4 passed")
    assert live.startswith("4 passed")
    checked = outputs_text(notebook.cells[-1]).splitlines()
    assert checked == ["✓ rate(code='USD') works", "✓ rate(code='XYZ') works"]


def test_resources_and_prompts_chapter_serves_an_outside_client(isolated_runtime: Path) -> None:
    notebook = nbformat.read(NOTEBOOKS / "03-resources-and-prompts.ipynb", as_version=4)
    client = NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    with client.setup_kernel(env={**os.environ, "JUPYTER_RUNTIME_DIR": str(isolated_runtime)}):
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        (info,) = discovery_records(isolated_runtime)

        async def use_it() -> None:
            async with http_client(info["url"], info["token"], mode="auto") as outside:
                resources = {r.uri for r in (await outside.list_resources()).resources}
                assert resources == {"data://cities", "data://cities.csv", "data://chart"}
                (template,) = (await outside.list_resource_templates()).resource_templates
                assert template.uri_template == "data://cities/{country}{?limit}"
                italy = (await outside.read_resource("data://cities/it")).contents[0]
                assert [c["city"] for c in json.loads(italy.text)] == ["Rome", "Milan", "Turin"]  # type: ignore[union-attr]
                chart = (await outside.read_resource("data://chart")).contents[0]
                assert chart.mime_type == "image/png"
                explained = await outside.get_prompt("explain_chart")
                assert [m.content.type for m in explained.messages] == ["text", "image", "text"]

        anyio.run(use_it)
    history = outputs_text(next(c for c in notebook.cells if c.source.startswith("%mcp history")))
    assert "prompt review_table(" in history


def discovery_records(runtime: Path) -> list[dict[str, Any]]:
    return [json.loads(path.read_text()) for path in runtime.glob("jupyter-mcp-*.json")]


APPROVALS_SOLUTION = '''notes = ["buy milk", "call Ada", "fix the chart"]


@jupyter_mcp.tool(confirm=True)
def clear_notes() -> str:
    """Empty the notebook's notes."""
    count = len(notes)
    notes.clear()
    return f"cleared {count} notes"
'''


def test_approvals_chapter_answers_its_own_agent(isolated_runtime: Path) -> None:
    cells = run_chapter("08-approvals.ipynb", isolated_runtime, APPROVALS_SOLUTION)
    assert outputs_text(cells[-1]).splitlines() == [
        "✓ clear_notes asks the notebook user first",
        "✓ clear_notes() works",
    ]
    by_source = {cell.source.splitlines()[0] if cell.source else "": cell for cell in cells}
    assert outputs_text(by_source["server.pending[0].allow()"]) == "'north reset'"
    denied = outputs_text(by_source['call = asyncio.ensure_future(agent_calls("reset_sales", {"region": "south"}))'])
    assert "declined the call of 'reset_sales': the quarter is not closed yet" in denied
    history = outputs_text(by_source["%mcp history"])
    assert "allowed by the notebook user from a cell" in history
    assert "denied because nobody answered in time" in history
    paused = outputs_text(by_source['print(await agent_calls("reset_sales", {"region": "north"}))'])
    assert paused == "error: All tools are paused by the notebook user; try again later\n"
    limited = outputs_text(by_source['@jupyter_mcp.tool(annotations={"readOnlyHint": True})'])
    assert "limited client 'sales-agent' to read-only tools" in limited
    assert outputs_text(by_source["from jupyter_mcp import Context"]) == "'archived south'"


TASK_SOLUTION = '''%%mcp_tool --task
async def backup(tables: int, ctx: Context) -> str:
    """Back up the notebook's tables, one at a time."""
    for done in range(1, tables + 1):
        await asyncio.sleep(0.2)
        await ctx.report_progress(done, tables)
    return f"backed up {tables} tables"
'''


def test_long_running_and_interactive_tools_notebook_runs(isolated_runtime: Path) -> None:
    notebook = nbformat.read(NOTEBOOKS / "04-long-running-and-interactive-tools.ipynb", as_version=4)
    notebook.cells[-2].source = TASK_SOLUTION  # the exercise, solved (the unsolved check is like every chapter's)
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
    checked = outputs_text(notebook.cells[-1]).splitlines()
    assert checked == ["✓ backup can run as a task", "✓ backup(tables=3) works"]
    assert "('input_required', ['scenarios'], 'task')" in output_of("asked =")
    assert "('cancelled', 'simulated 3 scenario(s)')" in output_of("cancel_me")
    history = outputs_text([cell for cell in notebook.cells if cell.source == "%mcp history"][-1])
    assert re.search(r"ok +train\(epochs=2\) .* task \S+", history)
    assert re.search(r"cancelled train\(epochs=60\) .* task \S+", history)
    assert "north Q1: 1.2M" in output_of('async with client("auto")')
    first, last = ast.literal_eval(
        output_of("ran_on = []")
    )  # a quick sync tool: a worker first, the server's loop after its streak
    assert first.startswith("jupyter-mcp-worker")
    assert last.startswith("jupyter-mcp-http-")
    taken = ast.literal_eval(output_of("sorted(server.fast_paths_taken.on)"))
    assert taken == ["ipykernel", "jupyter_client", "mcp", "stdlib"]  # every adapter's check passed


def test_apps_chapter_shows_the_cards_to_a_host_only(isolated_runtime: Path) -> None:
    cells = run_chapter("09-mcp-apps.ipynb", isolated_runtime, SOLUTIONS["09-mcp-apps.ipynb"])
    assert outputs_text(cells[-1]).splitlines() == [
        "✓ population has its card in the chat",
        "✓ debug_dump has no card in the chat",
        "✓ population(city='Oslo') works",
    ]
    by_source = {cell.source.splitlines()[0] if cell.source else "": cell for cell in cells}
    host, plain = outputs_text(by_source["import httpx2"]).splitlines()
    assert "'find_cities': {'resourceUri': 'ui://jupyter-mcp/tool/find_cities'}" in host
    assert "'jupyter_mcp_app_status': {'visibility': ['app']}" in host
    assert plain == "plain: {'find_cities': None}"
    page = outputs_text(by_source['async with client("chat-host", [RENDERS_APPS]) as host:'])
    mime, size = re.match(r"(\S+) ([\d,]+) bytes", page).groups()  # type: ignore[union-attr]
    assert mime == "text/html;profile=mcp-app"
    assert int(size.replace(",", "")) < 300_000
    status, result = outputs_text(by_source["import threading"]).splitlines()
    assert "'status': 'running', 'progress': 0.375, 'text': '3/8 · epoch 3, loss 0.41'" in status
    assert result == "{'epochs': 8, 'loss': 0.12}"
    # The app's status question is answered beside the call path: the history holds the call alone.
    (call,) = outputs_text(by_source["%mcp history"]).splitlines()
    assert re.search(r"ok +train\(epochs=8\) .*\[chat-host\]$", call), call
    with_apps, without = outputs_text(by_source['print(await listed("chat-host", [RENDERS_APPS]))']).splitlines()
    assert "'internal_reset': None" in with_apps
    assert "'train': {'resourceUri': 'ui://jupyter-mcp/tool/train'}" in with_apps
    assert without == "{'find_cities': None, 'train': None, 'internal_reset': None}"
    bundle = outputs_text(by_source["import json, os, sys, tempfile, zipfile"])
    assert "['manifest.json', 'server/bridge.py']" in bundle
    assert re.search(r"runs python\S* \$\{__dirname\}/server/bridge\.py with \[", bundle), bundle


def test_agents_chapter_writes_runs_and_calls_a_tool_and_waits_for_approval(isolated_runtime: Path) -> None:
    cells = run_chapter("10-agents-in-your-notebooks.ipynb", isolated_runtime)
    texts = [outputs_text(cell) for cell in cells if cell.cell_type == "code"]
    assert "['jupyter_create', 'jupyter_edit', 'jupyter_notebooks', 'jupyter_read', 'jupyter_run']" in texts[1]
    assert "{'result': 'IT WORKS!'}" in texts[2]
    assert "changed since you read it" in texts[3]
    assert "chapter-agent waits: Run of 1 cell in workshop.ipynb" in texts[4]
    assert "'APPROVED!'" in texts[4]
    assert "MCPExtensionApp.notebook_tools = 'read'" in texts[5]
