"""The magics in a real kernel: both %%mcp_tool forms, options, %mcp_tool fn, %mcp, misuse."""

from __future__ import annotations

import json
import re
import sys
import uuid
from pathlib import Path
from typing import Any

import anyio

from tests.conftest import http_client
from tests.harness import Execution, Kernel
from tests.widgets.htmltext import visible_text


def tool_json(kernel: Kernel, name: str) -> dict[str, Any]:
    out = kernel.run(
        f"import json; print(json.dumps(server.tools[{name!r}].to_mcp().model_dump(by_alias=True, exclude_none=True)))"
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_function_cell_becomes_a_tool(kernel: Kernel) -> None:
    out = kernel.run(
        '''
        %%mcp_tool --read-only
        def get_var(name: str) -> str:
            """Return repr() of a notebook variable."""
            return repr(globals()[name])
        '''
    )
    assert "get_var(name)" in out.text
    assert "live at http://127.0.0.1:" in out.text
    assert tool_json(kernel, "get_var") == {
        "name": "get_var",
        "description": "Return repr() of a notebook variable.",
        "inputSchema": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        },
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "string"}},
            "required": ["result"],
            "x-jupyter-mcp-wrap-result": True,
        },
        "annotations": {"readOnlyHint": True},
    }
    kernel.run("answer = 42")
    out = kernel.run("r = await server.call('get_var', {'name': 'answer'}); print(r.structured_content)")
    assert out.stdout.strip() == "{'result': '42'}"


def test_cell_as_tool_returns_the_last_expression(kernel: Kernel) -> None:
    kernel.run(
        '''
        %%mcp_tool word_count(text: str, unique: bool = False) -> int
        """Count words in text."""
        words = text.split()
        len(set(words)) if unique else len(words)
        '''
    )
    schema = tool_json(kernel, "word_count")
    assert schema["description"] == "Count words in text."
    assert schema["inputSchema"]["properties"] == {
        "text": {"type": "string"},
        "unique": {"type": "boolean", "default": False},
    }
    out = kernel.run(
        "a = await server.call('word_count', {'text': 'a b a'})\n"
        "b = await server.call('word_count', {'text': 'a b a', 'unique': True})\n"
        "print(a.structured_content, b.structured_content)\n"
        "print(word_count('x y'))"
    )
    assert out.stdout.split("\n")[:2] == ["{'result': 3} {'result': 2}", "2"]


def test_cell_as_tool_traceback_points_at_the_cell(kernel: Kernel) -> None:
    kernel.run(
        """
        %%mcp_tool explode(n: int) -> int
        x = 1
        x / (n - n)
        """
    )
    out = kernel.run(
        "r = await server.call('explode', {'n': 3})\nprint(r.content[0].text)\nprint(server.history[-1].traceback)"
    )
    assert out.stdout.startswith("ZeroDivisionError: division by zero")
    assert "x / (n - n)" in out.stdout


def test_async_cell_as_tool(kernel: Kernel) -> None:
    kernel.run(
        """
        %%mcp_tool async pause(seconds: float) -> str
        import asyncio
        await asyncio.sleep(seconds)
        f"slept {seconds}"
        """
    )
    out = kernel.run("r = await server.call('pause', {'seconds': 0.01}); print(r.structured_content)")
    assert out.stdout.strip() == "{'result': 'slept 0.01'}"


def test_every_option(kernel: Kernel) -> None:
    kernel.run(
        '''
        %%mcp_tool wipe --title "Wipe table" --description "Deletes rows." --tags db,admin --destructive --idempotent --closed-world --timeout 2.5 --strict --main-thread --disabled
        def wipe(table: str) -> int:
            """Ignored docstring."""
            return 0
        '''
    )
    out = kernel.run(
        "t = server.tools['wipe']\n"
        "print(t.title, t.description, sorted(t.tags), t.timeout, t.strict, t.run_on, t.enabled)\n"
        "print(t.annotations.model_dump(by_alias=True, exclude_none=True))"
    )
    first, second = out.stdout.strip().split("\n")
    assert first == "Wipe table Deletes rows. ['admin', 'db'] 2.5 True main False"
    assert json.loads(second.replace("'", '"').replace("True", "true").replace("False", "false")) == {
        "destructiveHint": True,
        "idempotentHint": True,
        "openWorldHint": False,
    }


def test_no_app_and_the_apps_setting(kernel: Kernel) -> None:
    kernel.run(
        """
        %%mcp_tool --no-app
        def quiet() -> str:
            \"\"\"No card in clients that render apps.\"\"\"
            return "x"
        """
    )
    out = kernel.run("print(server.tools['quiet'].app, server.settings.apps)")
    assert out.stdout.split() == ["False", "True"]


def test_named_function_among_several(kernel: Kernel) -> None:
    out = kernel.execute(
        """
        %%mcp_tool
        def one(): ...
        def two(): ...
        """
    )
    assert "defines 2 public functions (one, two); name one: %%mcp_tool NAME" in out.stderr
    kernel.run(
        """
        %%mcp_tool two
        def one() -> int: return 1
        def two() -> int: return 2
        """
    )
    assert kernel.value("sorted(server.tools)") == ["two"]


def test_existing_function_with_line_magic(kernel: Kernel) -> None:
    kernel.run(
        '''
        class Calc:
            def __init__(self, k): self.k = k
            def times(self, x: int) -> int:
                """Multiply by k."""
                return x * self.k
        calc = Calc(3)
        def plain(a: int) -> int:
            return a
        '''
    )
    kernel.run("%mcp_tool calc.times --name triple --read-only")
    kernel.run("%mcp_tool plain")
    assert kernel.value("sorted(server.tools)") == ["plain", "triple"]
    out = kernel.run("r = await server.call('triple', {'x': 5}); print(r.structured_content)")
    assert out.stdout.strip() == "{'result': 15}"


def usage_error(out: Execution) -> str:
    assert out.error is None, "a misuse must not raise a traceback"
    lines = [line for line in out.stderr.strip().splitlines() if line]
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("UsageError: ")
    return lines[0]


def test_misuse_is_a_one_line_usage_error(kernel: Kernel) -> None:
    assert "invalid float value: 'abc'" in usage_error(kernel.execute("%%mcp_tool --timeout abc\ndef f(): pass"))
    assert "unrecognized arguments: --bogus" in usage_error(kernel.execute("%%mcp_tool --bogus\ndef f(): pass"))
    assert "'*args' is not allowed" in usage_error(kernel.execute("%%mcp_tool\ndef f(*args): pass"))
    assert "cannot parse the signature" in usage_error(kernel.execute("%%mcp_tool f(x: int = ) -> int\nx"))
    assert "parentheses are not closed" in usage_error(kernel.execute("%%mcp_tool f(x: int\nx"))
    assert "unknown command 'frob'" in usage_error(kernel.execute("%mcp frob"))
    assert "nothing named 'ghost'" in usage_error(kernel.execute("%mcp remove ghost"))
    assert "usage: %mcp remove NAME" in usage_error(kernel.execute("%mcp remove"))
    assert "unknown client 'emacs'" in usage_error(kernel.execute("%mcp config emacs"))
    assert "cannot find 'nothing'" in usage_error(kernel.execute("%mcp_tool nothing"))
    assert kernel.value("len(server.tools)") == 0


def test_a_cell_that_raises_registers_nothing(kernel: Kernel) -> None:
    out = kernel.execute(
        """
        %%mcp_tool
        def broken() -> int:
            return 1
        raise ValueError("cell failed")
        """
    )
    assert out.error is not None
    assert out.error["ename"] == "ValueError"
    assert kernel.value("len(server.tools)") == 0


def test_mcp_subcommands(kernel: Kernel) -> None:
    kernel.run("%%mcp_tool\ndef ping() -> str:\n    'Ping.'\n    return 'pong'")
    assert kernel.run("%mcp list").stdout == "tools:\n  ping: Ping.\n"
    kernel.run("%mcp disable ping")
    assert kernel.run("%mcp list").stdout == "tools:\n  ping  (disabled): Ping.\n"
    kernel.run("%mcp enable ping")
    kernel.run("r = await server.call('ping')")
    assert "ok        ping()" in kernel.run("%mcp history").stdout
    assert kernel.run("%mcp clients").stdout == "No clients connected\n"
    anyio.run(_call_once, kernel.value("server.url"), kernel.value("server.token"))
    assert re.fullmatch(r"mcp \S+  protocol \S+  \(requests\)\n", kernel.run("%mcp clients").stdout)
    claude = json.loads(kernel.run("%mcp config claude").stdout)
    (entry,) = claude["mcpServers"].values()
    assert entry["command"] == str(Path(sys.executable).parent / "jupyter-mcp")  # the kernel's, by absolute path
    assert entry["args"][0] == "connect"
    assert kernel.run("%mcp config inspector").stdout.startswith(
        "npx @modelcontextprotocol/inspector --cli http://127.0.0.1:"
    )
    status = kernel.run("%mcp").text
    assert "tools: ping" in status
    assert "clients: mcp" in status
    assert "calls: 2" in status  # one from the cell, one from the client
    url = kernel.value("server.url")
    assert kernel.run("%mcp stop").stdout.startswith("MCP server stopped")
    assert kernel.value("server.url") is None
    kernel.run("%mcp start")
    kernel.run("%mcp restart")
    assert kernel.value("server.url") == url  # restart rebinds the port it had
    kernel.run("%mcp remove ping")
    assert kernel.run("%mcp list").stdout.startswith("Nothing served yet")


async def _call_once(url: str, token: str) -> None:
    async with http_client(url, token, mode="auto") as client:
        await client.call_tool("ping", {})


def test_reload_and_unload_extension(kernel: Kernel) -> None:
    kernel.run("%reload_ext jupyter_mcp")
    kernel.run("%%mcp_tool\ndef a() -> int: return 1")
    kernel.run("%unload_ext jupyter_mcp")
    out = kernel.execute("%%mcp_tool\ndef b() -> int: return 2")
    assert "Cell magic `%%mcp_tool` not found" in usage_error(out)
    kernel.run("%load_ext jupyter_mcp")
    kernel.run("%%mcp_tool\ndef b() -> int: return 2")
    assert kernel.value("sorted(server.tools)") == ["a", "b"]


def run_in_cell(kernel: Kernel, code: str, cell_id: str) -> Execution:
    """Execute with a cellId in the request metadata, as JupyterLab sends it."""
    client = kernel.client
    message = client.session.msg(
        "execute_request",
        {"code": code, "silent": False, "store_history": True, "user_expressions": {}, "allow_stdin": False},
        metadata={"cellId": cell_id},
    )
    client.shell_channel.send(message)
    return kernel.collect(message["header"]["msg_id"]).raise_on_error()


def test_renaming_the_function_in_a_rerun_cell_replaces_the_tool(kernel: Kernel) -> None:
    cell = str(uuid.uuid4())
    run_in_cell(kernel, "%%mcp_tool\ndef first() -> int: return 1", cell)
    run_in_cell(kernel, "%%mcp_tool\ndef second() -> int: return 2", cell)
    run_in_cell(kernel, "%%mcp_tool\ndef other() -> int: return 3", str(uuid.uuid4()))
    assert kernel.value("sorted(server.tools)") == ["other", "second"]


def test_notebook_call_result_displays_readably(kernel: Kernel) -> None:
    kernel.run("%%mcp_tool\ndef add(a: int, b: int) -> int:\n    return a + b")
    ok = kernel.run("await server.call('add', {'a': 1, 'b': 2})")
    assert ok.text == 'ok\n{\n  "result": 3\n}'
    assert "var(--jp-success-color1)" in ok.results[0]["text/html"]
    bad = kernel.run("await server.call('add', {'a': 'x'})")
    assert bad.text.splitlines() == [
        "error",
        "Invalid arguments for tool 'add':",
        "- a: Input should be a valid integer, unable to parse string as an integer (got 'x')",
        "- b: Field required",
    ]
    history = kernel.run("%mcp history").stdout
    assert "Invalid arguments for tool 'add': - a: Input should be a valid integer" in history


def test_a_kernel_with_no_port_says_where_clients_reach_it(runtime_dir: Path, tmp_path: Path) -> None:
    # Issue 34: with transport "kernel" the card read "live at None", %mcp start "running at None".
    env = {
        "JUPYTER_RUNTIME_DIR": str(runtime_dir),
        "JUPYTER_MCP_TRANSPORT": "kernel",
        "JPY_SESSION_NAME": str(tmp_path / "analysis.ipynb"),
    }
    kernel = Kernel(env=env)
    where = (
        "over the kernel's channel, through the Jupyter server at <jupyter url>/mcp/notebooks/<path> "
        "(every notebook: <jupyter url>/mcp)"
    )
    try:
        kernel.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()").raise_on_error()
        card = kernel.run('%%mcp_tool\ndef add(a: int, b: int) -> int:\n    """Add."""\n    return a + b')
        (shown,) = [d for d in card.results + card.displays if "text/html" in d]
        assert shown["text/plain"].splitlines()[0] == f"MCP tool 'add(a, b)' live {where}"
        assert f"served {where}" in visible_text(shown["text/html"])
        assert kernel.run("%mcp start").stdout == f"MCP server running {where}\n"
        assert kernel.run("%mcp restart").stdout == f"MCP server restarted: running {where}\n"
        panel = kernel.run("%mcp")
        assert panel.text.splitlines()[0] == f"MCP server running {where}"
        (drawn,) = [d for d in panel.results + panel.displays if "text/html" in d]
        assert "MCP server running over the kernel's channel" in visible_text(drawn["text/html"])
        config = kernel.value("server.client_config('vscode')")
        assert config == {
            "servers": {
                "analysis": {
                    "type": "http",
                    "url": "<jupyter url>/mcp/notebooks/<path>",
                    "headers": {"Authorization": "token <your Jupyter server's token>"},
                }
            }
        }
        assert "None" not in card.text + panel.text
    finally:
        kernel.shutdown()
