"""Translating cells: jupyter_mcp's magics become server code, and what only IPython runs is reported by cell and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp.export import ExportError
from jupyter_mcp.export.project import Names
from jupyter_mcp.export.serverfile import module_source
from jupyter_mcp.export.translate.cells import translate_notebook
from jupyter_mcp.export.translate.linemagics import MCP_COMMANDS
from jupyter_mcp.kernel.commands import COMMANDS
from jupyter_mcp.notebookfile import Cell, Notebook


def notebook(*sources: str) -> Notebook:
    return Notebook(Path("nb.ipynb"), [Cell(number, source) for number, source in enumerate(sources, 1)], None)


def exported(*sources: str) -> str:
    return module_source(Names.of("nb"), "nb.ipynb", translate_notebook(notebook(*sources)))


def problems(*sources: str) -> list[str]:
    with pytest.raises(ExportError) as raised:
        translate_notebook(notebook(*sources))
    return [str(problem) for problem in raised.value.problems]


def served(source: str) -> Any:
    """The exported module's ``server``, after running the exported source."""
    namespace: dict[str, Any] = {"__name__": "exported"}
    exec(compile(source, "server.py", "exec"), namespace)
    return namespace["server"]


def test_a_tool_cell_keeps_every_option() -> None:
    source = exported(
        "%load_ext jupyter_mcp\nimport jupyter_mcp",
        '%%mcp_tool shout --title "Shout it" --tags a,b --read-only --closed-world --timeout 5 --strict --disabled\n'
        'def _helper(text):\n    return text.upper()\n\ndef shout(text: str) -> str:\n    """Upper."""\n'
        "    return _helper(text)",
    )
    assert (
        '@server.tool(title="Shout it", tags={"a", "b"}, annotations={"readOnlyHint": True, "openWorldHint": False}, '
        "timeout=5.0, strict=True, enabled=False)\ndef shout(text: str) -> str:" in source
    )
    tool = served(source).tools["shout"]
    assert (tool.title, tool.tags, tool.timeout, tool.strict, tool.enabled) == (
        "Shout it",
        {"a", "b"},
        5.0,
        True,
        False,
    )
    assert tool.to_mcp().annotations.read_only_hint is True


def test_task_and_header_flags_reach_the_exported_tool() -> None:
    source = exported(
        "%%mcp_tool --task=required --headers region=Region\n"
        'async def report(region: str, quarter: int) -> str:\n    """A long report."""\n    return region'
    )
    assert '@server.tool(task="required", headers={"region": "Region"})\nasync def report(' in source
    tool = served(source).tools["report"]
    assert tool.task == "required"
    assert tool.to_mcp().input_schema["properties"]["region"]["x-mcp-header"] == "Region"
    (problem,) = problems("%%mcp_tool --headers region\ndef f(region: str) -> str:\n    return region")
    assert problem.startswith("cell 1, line 1: %%mcp_tool --headers region")
    assert "expected PARAMETER=Header pairs separated by commas, got 'region'" in problem


def test_the_decorator_goes_above_the_functions_own() -> None:
    source = exported(
        "import functools",
        "%%mcp_tool\n@functools.lru_cache\ndef square(x: int) -> int:\n    return x * x",
    )
    assert "# %% cell 2\n@server.tool\n@functools.lru_cache\ndef square" in source
    assert served(source).tools["square"].name == "square"


def test_cell_as_tool_becomes_a_function() -> None:
    source = exported('%%mcp_tool twice(x: float) -> float --idempotent\n"""Twice x."""\nx * 2')
    assert (
        '@server.tool(annotations={"idempotentHint": True})\ndef twice(x: float) -> float:\n    """Twice x."""\n'
        "    return x * 2\n"
    ) in source
    assert served(source).tools["twice"].fn(2.5) == 5.0


def test_main_thread_is_dropped_with_a_note() -> None:
    translation = translate_notebook(notebook("%%mcp_tool --main-thread\ndef f() -> int:\n    return 1"))
    assert "run_on" not in translation.cells[0].code
    assert translation.cells[0].code.startswith("# --main-thread dropped: a server has no cells to wait for")
    assert [(n.cell, n.line) for n in translation.notes] == [(1, 1)]


def test_confirm_is_dropped_with_a_note() -> None:
    translation = translate_notebook(notebook("%%mcp_tool --confirm --destructive\ndef f() -> int:\n    return 1"))
    code = translation.cells[0].code
    assert "confirm" not in code.split("\n", 1)[1]
    assert code.startswith(
        "# --confirm dropped: a server has no notebook user to allow its calls, so they run unasked "
        "(as under jupyter-mcp serve --no-confirm)\n"
    )
    assert '@server.tool(annotations={"destructiveHint": True})' in code


def test_line_magics_of_jupyter_mcp_become_calls_or_comments() -> None:
    source = exported(
        "%load_ext jupyter_mcp\nimport jupyter_mcp as jm\nserver = jm.get_server()",
        'def add(a: int, b: int) -> int:\n    """Add."""\n    return a + b',
        "%mcp_tool add --name plus --read-only\n%mcp_tool add\n%mcp disable add\n%mcp history\n%mcp",
        "if True:\n    %mcp list\n%matplotlib inline",
    )
    assert "server = jm.get_server()" not in source
    assert "# server = jupyter_mcp.get_server(): the exported module's ToolServer is server" in source
    assert 'server.add_tool(add, name="plus", annotations={"readOnlyHint": True})\nserver.add_tool(add)\n' in source
    assert (
        'server.disable(names={"add"})\n# %mcp history: prints the call history; the server does not need it\n'
        in source
    )
    assert "if True:\n    # %mcp list: prints the tools; the server does not need it\n    pass\n" in source
    assert "# %matplotlib inline: a display setting; a server draws figures off-screen" in source
    server = served(source)
    assert set(server.tools) == {"plus", "add"}
    assert [t.name for t in server.registry.visible()] == ["plus"]


def test_get_server_and_the_tool_shorthand_mean_the_exported_server() -> None:
    source = exported(
        "import jupyter_mcp\n\n@jupyter_mcp.tool(name='hello')\ndef greet() -> str:\n    return 'hi'\n"
        "jupyter_mcp.get_server().enable(names={'hello'})"
    )
    assert "@server.tool(name='hello')" in source
    assert "server.enable(names={'hello'})" in source
    assert list(served(source).tools) == ["hello"]


def test_future_imports_move_to_the_top() -> None:
    source = exported("from __future__ import annotations\nx: 'int' = 1", "from __future__ import annotations")
    assert source.index("from __future__ import annotations") < source.index("import jupyter_mcp.tools")
    assert source.count("from __future__") == 1
    served(source)


def test_every_kernel_command_has_a_translation() -> None:
    assert set(COMMANDS) <= set(MCP_COMMANDS) - {""}


def test_what_only_ipython_runs_is_reported_with_cell_and_line() -> None:
    found = problems(
        "import os\n!pip install thing\nfiles = !ls",
        "%time x = 1\nx?",
        "%%capture\nprint(1)",
        "from IPython.display import Markdown\nimport ipywidgets as w\ndisplay(Markdown('x'))",
        "ip = get_ipython()\nOut[3]",
        "result = await fetch()\n\nasync def ok():\n    await fetch()",
        "import jupyter_mcp\nserver = jupyter_mcp.get_server()\nserver.history[-1]\nserver.url",
        "server = 3\ndef main():\n    pass",
        "%load_ext autoreload\n%mcp frobnicate\n%mcp_tool f --bogus",
        "from jupyter_mcp import get_server\nfrom jupyter_mcp.kernel.server import NotebookServer",
        "%%mcp_tool\ndef a(): pass\ndef b(): pass",
    )
    where = [problem.split(":")[0] for problem in found]
    assert where == [
        "cell 1, line 2",
        "cell 1, line 3",
        "cell 2, line 1",
        "cell 2, line 2",
        "cell 3, line 1",
        "cell 4, line 1",
        "cell 4, line 2",
        "cell 4, line 3",
        "cell 5, line 1",
        "cell 5, line 2",
        "cell 6, line 1",
        "cell 7, line 3",
        "cell 7, line 4",
        "cell 8, line 1",
        "cell 8, line 2",
        "cell 9, line 1",
        "cell 9, line 2",
        "cell 9, line 3",
        "cell 10, line 1",
        "cell 10, line 2",
        "cell 11, line 1",
    ]
    text = "\n".join(found)
    for fragment in (
        "!pip install thing is a shell command",
        "%time is an IPython magic",
        "?/?? shows IPython help",
        "%%capture is an IPython cell magic",
        "IPython.display is part of the notebook stack",
        "ipywidgets is part of the notebook stack",
        "display() shows output in a notebook",
        "get_ipython() exists only in IPython",
        "Out is IPython's dict of cell results",
        "top-level await runs only in a notebook",
        "server.history belongs to the notebook's server",
        "server.url belongs to the notebook's server",
        "rename this 'server'",
        "rename this 'main'",
        "loads an IPython extension",
        "%mcp frobnicate has no meaning outside the notebook",
        "%mcp_tool: unrecognized arguments: --bogus",
        "from jupyter_mcp import get_server: write jupyter_mcp.get_server",
        "jupyter_mcp.kernel.server is jupyter_mcp's notebook side",
        "this cell defines 2 public functions (a, b); name one",
    ):
        assert fragment in text
    assert "cell 6, line 4" not in text  # await inside an async function is fine


def test_cells_keep_their_order_and_dependencies() -> None:
    source = exported(
        "rates = {'EUR': 1.0}",
        "def rate(code):\n    return rates[code]",
        "rates['USD'] = 1.1",
        "%%mcp_tool convert(amount: float, code: str) -> float\namount * rate(code)",
    )
    assert [source.index(f"# %% cell {n}\n") for n in (1, 2, 3, 4)] == sorted(
        source.index(f"# %% cell {n}\n") for n in (1, 2, 3, 4)
    )
    assert served(source).tools["convert"].fn(10, "USD") == pytest.approx(11.0)


def test_names_from_notebooks() -> None:
    assert Names.of("01-quickstart").project == "quickstart-server"
    assert Names.of("02-Demo Tools").module == "demo_tools_server"
    assert Names.of("analysis_server").script == "analysis-server"
    assert Names.of("123").base == "notebook"


def test_no_app_reaches_the_exported_tool_and_the_export_serves_the_same_cards() -> None:
    import asyncio

    from mcp import Client

    from tests.tools.apps.test_apps import APPS

    source = exported(
        '%%mcp_tool --no-app\ndef quiet() -> str:\n    """No card."""\n    return "x"',
        '%%mcp_tool\ndef loud() -> str:\n    """A card."""\n    return "y"',
    )
    assert "@server.tool(app=False)\ndef quiet()" in source
    server = served(source)

    async def listed() -> dict[str, Any]:
        async with Client(server.lowlevel, mode="auto", extensions=[APPS]) as client:
            tools = {tool.name: (tool.meta or {}).get("ui") for tool in (await client.list_tools()).tools}
            document = await client.read_resource("ui://jupyter-mcp/tool/loud")
        return {"tools": tools, "mime": document.contents[0].mime_type}

    found = asyncio.run(listed())
    assert found["tools"]["quiet"] is None
    assert found["tools"]["loud"] == {"resourceUri": "ui://jupyter-mcp/tool/loud"}
    assert found["mime"] == "text/html;profile=mcp-app"
