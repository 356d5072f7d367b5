"""What is exported behaves like what was tried: the same tools/list, and every kept call the same result.

The notebooks run in real kernels as JupyterLab runs them; calls come from the notebook and from an
outside client; ``%mcp keep`` / ``%mcp export`` do the rest. The export's own generated tests then run
twice: against server.py (in memory) and against the live kernel (``--jupyter-mcp-url``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import http_client
from tests.export.conftest import copy_notebook, endpoint, generated_tests, live_listing, passed

pytestmark = pytest.mark.timeout(600)


async def exported_listing(directory: Path, mode: str) -> list[dict[str, Any]]:
    """server.py's tools/list through a real stdio client (``python server.py``)."""
    params = StdioServerParameters(command=sys.executable, args=["server.py"], cwd=str(directory))
    async with Client(params, mode=mode) as client:
        tools = (await client.list_tools()).tools
    return [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]


async def test_the_demo_notebook_exports_as_itself(work: Path, notebook_kernel: Any) -> None:
    notebook = copy_notebook("02-demo-tools.ipynb", work, "demo.ipynb")
    kernel = notebook_kernel(notebook)  # its last cell calls city_facts("kyoto"): call #1
    url, token = endpoint(kernel)
    async with http_client(url, token, mode="legacy") as outside:
        assert (await outside.call_tool("to_fahrenheit", {"celsius": 37.5})).structured_content == {"result": 99.5}
        assert (await outside.call_tool("city_facts", {"name": "Atlantis"})).is_error
        assert (await outside.call_tool("count_primes", {"limit": 1000})).structured_content == {"result": 168}
    history = kernel.run("%mcp history").stdout
    assert history.splitlines()[0].startswith("#1 ")
    kept = kernel.run("%mcp keep 1 2 3 4").stdout
    assert f"4 call(s) kept as tests (saved in {work / 'demo.mcp-calls.json'})" in kept
    assert [c["tool"] for c in json.loads((work / "demo.mcp-calls.json").read_text())["calls"]] == [
        "city_facts",
        "to_fahrenheit",
        "city_facts",
        "count_primes",
    ]

    said = kernel.run("%mcp export demo-server --tagged").stdout
    assert "3 tool(s): city_facts, to_fahrenheit, count_primes; 4 kept call(s) as tests" in said
    assert "differs from the notebook" not in said
    exported = work / "demo-server"
    tests = (exported / "tests" / "test_recorded_calls.py").read_text()
    assert 'check(result, structured={"result": 99.5})' in tests
    assert "check(result, error=\"unknown city 'Atlantis'; known cities: Kyoto, Lyon, Montreal, Porto\")" in tests

    for mode in ("legacy", "auto"):
        live = await live_listing(kernel, mode)
        assert await exported_listing(exported, mode) == live
    assert json.loads((exported / "tests" / "tools.json").read_text()) == live
    assert passed(generated_tests(exported)) == 5
    assert passed(generated_tests(exported, "--jupyter-mcp-url", url, "--token", token)) == 5


async def test_the_quickstart_exports_as_itself(work: Path, notebook_kernel: Any) -> None:
    notebook = copy_notebook("01-quickstart.ipynb", work, "quickstart.ipynb")
    kernel = notebook_kernel(notebook)  # calls #1-#4 come from its own cells
    kernel.run('await server.call("find_items", {"query": "tea"})')  # after restock: stock 5 (call #5)
    kernel.run('await server.call("get_var", {"name": "inventory"})')  # call #6
    kernel.run("%mcp keep 1 2 3 4 5 6")
    said = kernel.run("%mcp export ../quickstart-server --tagged").stdout
    assert "4 tool(s): get_var, word_count, find_items, restock; 6 kept call(s) as tests" in said
    assert "differs from the notebook" not in said
    exported = work.parent / "quickstart-server"
    assert await exported_listing(exported, "auto") == await live_listing(kernel, "auto")
    tests = (exported / "tests" / "test_recorded_calls.py").read_text()
    assert "async def test_restock_call_4(client: Client) -> None:" in tests
    assert '"name": "teapot", "stock": 5, "price": 24.5' in tests  # restock's result, replayed after it
    assert passed(generated_tests(exported)) == 7
    url, token = endpoint(kernel)
    kernel.run("inventory[1]['stock'] = 0")  # the kernel's restock ran: back to where server.py starts
    assert passed(generated_tests(exported, "--jupyter-mcp-url", url, "--token", token)) == 7
