"""``jupyter-mcp serve``: a notebook run headless by the real command, used by real clients."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import mcp_types as mt
import pytest

from jupyter_mcp import discovery
from tests.cli.bridging import text_of
from tests.cli.conftest import (
    ADD_TOOL,
    JUPYTER_MCP,
    cli,
    inspector,
    json_lines,
    read_until,
    stdio_client,
    write_notebook,
)
from tests.conftest import http_client
from tests.harness import free_port

ROOT = Path(__file__).resolve().parents[2]
WHICH_TOOL = '''%%mcp_tool
def which_cells() -> str:
    """Says which cells ran: all of them, or only those tagged mcp."""
    return ran
'''


@pytest.fixture
def notebook(tmp_path: Path) -> Path:
    return write_notebook(
        tmp_path / "nb" / "served.ipynb",
        [
            ("%load_ext jupyter_mcp", []),
            ("ran = 'tagged'", ["mcp"]),
            ("ran = 'all'\nprint('hello from cell 3')", []),
            (WHICH_TOOL, ["mcp"]),
            (ADD_TOOL, ["mcp", "other"]),
        ],
    )


def no_kernel_left(runtime: Path, pid: int) -> bool:
    """The kernel process is gone and its discovery file with it."""
    return not discovery.pid_alive(pid) and not list(runtime.glob("jupyter-mcp-*.json"))


async def eventually(check: object) -> None:
    with anyio.fail_after(20):
        while not check():  # type: ignore[operator]
            await anyio.sleep(0.1)


# ---- stdio ---------------------------------------------------------------------------------------------------


async def test_serve_over_stdio(notebook: Path, runtime_dir: Path, tmp_path: Path, mode: str) -> None:
    log = tmp_path / "kernel.log"
    async with stdio_client(["serve", str(notebook), "--log", str(log)], runtime_dir, mode) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["which_cells", "add"]
        assert (await client.call_tool("which_cells", {})).structured_content == {"result": "all"}
        assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
        (info,) = discovery.read_all(runtime_dir)
        assert info.notebook_path == str(notebook)
    assert "hello from cell 3" in log.read_text()
    await eventually(lambda: no_kernel_left(runtime_dir, info.pid))


async def test_serve_tagged_cells_only(notebook: Path, runtime_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "kernel.log"
    async with stdio_client(["serve", str(notebook), "--tagged", "--log", str(log)], runtime_dir, "auto") as client:
        assert (await client.call_tool("which_cells", {})).structured_content == {"result": "tagged"}
    assert "hello from cell 3" not in log.read_text()


def test_kernel_output_never_reaches_the_stdio_stream(runtime_dir: Path, tmp_path: Path) -> None:
    noisy = write_notebook(
        tmp_path / "noisy.ipynb",
        [
            ("%load_ext jupyter_mcp\nprint('print() in a cell')", []),
            (
                "import os, sys\nos.write(1, b'fd 1 of the kernel\\n')\nsys.__stderr__.write('fd 2 of the kernel\\n')",
                [],
            ),
            (ADD_TOOL, []),
        ],
    )
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1, "b": 2}}}
    lines = [initialize, {"jsonrpc": "2.0", "method": "notifications/initialized"}, call]  # fmt: skip
    result = cli("serve", str(noisy), runtime=runtime_dir, input="".join(json.dumps(line) + "\n" for line in lines))
    assert result.returncode == 0, result.stderr
    replies = json_lines(result.stdout)  # every line on stdout is JSON-RPC
    assert [reply["id"] for reply in replies] == [1, 2]
    assert replies[1]["result"]["structuredContent"] == {"result": 3}
    for text in ("print() in a cell", "fd 1 of the kernel", "fd 2 of the kernel"):
        assert text in result.stderr


TRANSPORT_TOOL = '''%%mcp_tool
def kernel_channels() -> dict:
    """How this kernel's ZMQ channels run, from its connection file."""
    import json
    from ipykernel.connect import get_connection_file
    with open(get_connection_file()) as file:
        info = json.load(file)
    return {"transport": info["transport"], "encrypted": "curve_publickey" in info}
'''


def test_serve_stderr_has_no_kernel_transport_warning(runtime_dir: Path, tmp_path: Path) -> None:
    """ipykernel 7 warns on stderr that it "is running over TCP without encryption" unless its manager gives
    it CurveZMQ keys; desktop clients show a server's stderr as an error log, so serve gives it keys."""
    from ipykernel.kernelspec import get_kernel_dict

    served = write_notebook(tmp_path / "channels.ipynb", [("%load_ext jupyter_mcp", []), (TRANSPORT_TOOL, [])])
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "kernel_channels", "arguments": {}}}
    lines = [initialize, {"jsonrpc": "2.0", "method": "notifications/initialized"}, call]
    result = cli("serve", str(served), runtime=runtime_dir, input="".join(json.dumps(line) + "\n" for line in lines))
    assert result.returncode == 0, result.stderr
    assert "without encryption" not in result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    declares_curve = "curve" in get_kernel_dict()["metadata"].get("supported_encryption", [])
    (_, answer) = json_lines(result.stdout)
    assert answer["result"]["structuredContent"] == {"transport": "tcp", "encrypted": declares_curve}


ASKING_CELLS = [
    ("%load_ext jupyter_mcp\nimport jupyter_mcp\njupyter_mcp.get_server().settings.confirm = 'destructive'", []),
    ('%%mcp_tool --confirm\ndef reset_sales(region: str) -> str:\n    """Deletes a region\'s sales."""\n    return f"reset {region}"', []),
    ('%%mcp_tool --destructive\ndef drop_table(name: str) -> str:\n    """Drops a table."""\n    return f"dropped {name}"', []),
    (ADD_TOOL, []),
]  # fmt: skip


async def test_serve_refuses_at_once_what_nobody_can_approve(runtime_dir: Path, tmp_path: Path, mode: str) -> None:
    served = write_notebook(tmp_path / "asking.ipynb", ASKING_CELLS)
    stderr = tmp_path / "serve-stderr.txt"
    with stderr.open("w") as errlog:
        async with stdio_client(["serve", str(served)], runtime_dir, mode, errlog=errlog) as client:
            with anyio.fail_after(10):  # at once, not after the 300 s approval timeout
                refused = await client.call_tool("reset_sales", {"region": "north"})
                dropped = await client.call_tool("drop_table", {"name": "sales"})
            assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
    assert refused.is_error
    assert text_of(refused) == (
        "Tool 'reset_sales' needs the notebook user's approval, but this server runs the notebook without anyone at "
        "it (jupyter-mcp serve), so nobody can approve the call: it was refused. Whoever starts the server can add "
        "--no-confirm to run such tools unasked"
    )
    assert dropped.is_error
    notice = (
        "[jupyter-mcp] nobody can approve calls here, so calls of reset_sales, drop_table (they ask for approval) "
        "are refused at once; serve --no-confirm runs them unasked\n"
    )
    assert stderr.read_text().count(notice) == 1


async def test_serve_no_confirm_runs_them_unasked(runtime_dir: Path, tmp_path: Path, mode: str) -> None:
    served = write_notebook(tmp_path / "asking.ipynb", ASKING_CELLS)
    with serving_http_announced(served, runtime_dir, "--no-confirm") as (_process, url, token, announced):
        async with http_client(url, token, mode=mode) as client:
            with anyio.fail_after(10):
                ran = await client.call_tool("reset_sales", {"region": "north"})
    assert ran.structured_content == {"result": "reset north"}
    assert (
        "[jupyter-mcp] --no-confirm: reset_sales, drop_table ask for approval in a notebook; here they run unasked\n"
    ) in announced


def test_serve_says_nothing_about_approval_when_no_tool_asks(notebook: Path, runtime_dir: Path) -> None:
    with serving_http_announced(notebook, runtime_dir) as (_process, _url, _token, announced):
        assert "approv" not in announced


def test_the_mcp_inspector_drives_serve_over_stdio(notebook: Path, runtime_dir: Path, tmp_path: Path) -> None:
    server = ["-e", f"JUPYTER_RUNTIME_DIR={runtime_dir}", JUPYTER_MCP, "serve", str(notebook)]
    called = inspector(
        *server, "--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=40", cwd=tmp_path
    )
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["structuredContent"] == {"result": 42}


# ---- HTTP ----------------------------------------------------------------------------------------------------


@contextmanager
def serving_http(
    notebook: Path, runtime: Path, *extra: str, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    """``serve --transport http`` (``env`` added); yields the process and the URL and token it printed on stderr."""
    with serving_http_announced(notebook, runtime, *extra, env=env) as (process, url, token, _announced):
        yield process, url, token


@contextmanager
def serving_http_announced(
    notebook: Path, runtime: Path, *extra: str, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[str], str, str, str]]:
    """``serving_http``, also yielding all serve said on stderr up to its "Stop with Ctrl-C." line."""
    process = subprocess.Popen(
        [JUPYTER_MCP, "serve", str(notebook), "--transport", "http", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime), **(env or {})},
    )
    try:
        announced = read_until(process, "Stop with Ctrl-C.")
        url = announced.split("URL:", 1)[1].split()[0]
        token = announced.split("Authorization: Bearer ", 1)[1].split()[0]
        yield process, url, token, announced
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def test_serve_over_http_until_sigterm(notebook: Path, runtime_dir: Path, tmp_path: Path, mode: str) -> None:
    port = free_port()
    with serving_http(notebook, runtime_dir, "--port", str(port), "--token", "t0ken") as (process, url, token):
        assert (url, token) == (f"http://127.0.0.1:{port}/mcp", "t0ken")
        async with http_client(url, token, mode=mode) as client:
            assert (await client.call_tool("which_cells", {})).structured_content == {"result": "all"}
        (info,) = discovery.read_all(runtime_dir)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        assert process.stdout is not None
        assert process.stdout.read() == ""  # kernel output went to stderr
    await eventually(lambda: no_kernel_left(runtime_dir, info.pid))


async def test_serve_stops_cleanly_on_sigint(notebook: Path, runtime_dir: Path) -> None:
    with serving_http(notebook, runtime_dir) as (process, _url, _token):
        (info,) = discovery.read_all(runtime_dir)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
        assert process.stderr is not None
        assert "[jupyter-mcp] stopping: shutting the kernel down" in process.stderr.read()
    await eventually(lambda: no_kernel_left(runtime_dir, info.pid))


def test_the_mcp_inspector_drives_serve_over_http(notebook: Path, runtime_dir: Path, tmp_path: Path) -> None:
    with serving_http(notebook, runtime_dir) as (_process, url, token):
        header = f"Authorization: Bearer {token}"
        listed = inspector(url, "--transport", "http", "--header", header, "--method", "tools/list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert [t["name"] for t in json.loads(listed.stdout)["tools"]] == ["which_cells", "add"]


async def test_the_demo_notebook_serves_its_tools(runtime_dir: Path, mode: str) -> None:
    progress: list[float] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    demo = ROOT / "notebooks" / "02-demo-tools.ipynb"
    with serving_http(demo, runtime_dir) as (_process, url, token):
        async with http_client(url, token, mode=mode) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == {"city_facts", "to_fahrenheit", "count_primes"}
            facts = await client.call_tool("city_facts", {"name": "lyon"})
            assert facts.structured_content == {
                "city": "Lyon",
                "country": "France",
                "population": 522250,
                "founded": -43,
            }
            unknown = await client.call_tool("city_facts", {"name": "Atlantis"})
            assert unknown.is_error
            block = unknown.content[0]
            assert isinstance(block, mt.TextContent)
            assert block.text == "unknown city 'Atlantis'; known cities: Kyoto, Lyon, Montreal, Porto"
            assert (await client.call_tool("to_fahrenheit", {"celsius": 100})).structured_content == {"result": 212.0}
            primes = await client.call_tool("count_primes", {"limit": 1000}, progress_callback=on_progress)
            assert primes.structured_content == {"result": 168}
    assert progress == [100, 200, 300, 400, 500, 600, 700, 800, 900]


# ---- failures ------------------------------------------------------------------------------------------------


def test_a_failing_cell_stops_startup_with_its_number(runtime_dir: Path, tmp_path: Path) -> None:
    broken = write_notebook(
        tmp_path / "broken.ipynb", [("%load_ext jupyter_mcp", []), (ADD_TOOL, []), ("x = 1\n1 / 0", [])]
    )
    result = cli("serve", str(broken), "--transport", "http", runtime=runtime_dir)
    assert result.returncode == 1
    assert result.stderr.endswith(
        "jupyter-mcp: cell 3 of broken.ipynb raised ZeroDivisionError: division by zero\n    x = 1\n"
    )
    assert "----> 2 1 / 0" in result.stderr  # the traceback, in the kernel output on stderr
    assert result.stdout == ""
    assert list(runtime_dir.glob("jupyter-mcp-*.json")) == []


@pytest.mark.parametrize(
    ("cells", "args", "message"),
    [
        ([("x = 1", [])], [], "served.ipynb: it ran, but no %%mcp_tool, %%mcp_resource or %%mcp_prompt cell registered anything; nothing to serve"),
        ([(ADD_TOOL, [])], ["--tagged"], "--tagged: no code cell in {path} is tagged 'mcp'"),
        ([(ADD_TOOL, [])], ["--kernel", "no-such-kernel"], "no kernel named 'no-such-kernel' is installed (see: jupyter kernelspec list)"),
        ([(ADD_TOOL, [])], ["--port", "8000"], "--port only apply to --transport http"),
        ([(ADD_TOOL, [])], ["--host", "::1", "--token", "t"], "--host, --token only apply to --transport http"),
        ([(ADD_TOOL, [])], ["--cwd", "/no/such/dir"], "--cwd: not a directory: /no/such/dir"),
        ([(ADD_TOOL, [])], ["--log", "/no/such/dir/x.log"], "--log: cannot open /no/such/dir/x.log: No such file or directory"),
    ],
)  # fmt: skip
def test_serve_refuses_bad_input(
    runtime_dir: Path, tmp_path: Path, cells: list[tuple[str, list[str]]], args: list[str], message: str
) -> None:
    path = write_notebook(tmp_path / "served.ipynb", cells)
    result = cli("serve", str(path), *args, runtime=runtime_dir)
    assert result.returncode == 1
    assert result.stderr.endswith(f"jupyter-mcp: {message.format(path=path)}\n")
    assert result.stdout == ""


def test_serve_refuses_what_is_not_a_notebook(runtime_dir: Path, tmp_path: Path) -> None:
    missing = cli("serve", str(tmp_path / "missing.ipynb"), runtime=runtime_dir)
    assert (missing.returncode, missing.stderr) == (1, f"jupyter-mcp: no such notebook: {tmp_path / 'missing.ipynb'}\n")
    text = tmp_path / "notes.txt"
    text.write_text("hi")
    wrong = cli("serve", str(text), runtime=runtime_dir)
    assert (wrong.returncode, wrong.stderr) == (1, f"jupyter-mcp: {text} is not a notebook (.ipynb)\n")
    garbage = tmp_path / "garbage.ipynb"
    garbage.write_text("{not json")
    broken = cli("serve", str(garbage), runtime=runtime_dir)
    assert broken.returncode == 1
    assert broken.stderr.startswith(f"jupyter-mcp: cannot read {garbage} as a notebook: ")


def test_serve_refuses_a_port_in_use(notebook: Path, runtime_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", str(notebook), "--transport", "http", "--port", str(port), runtime=runtime_dir)
    assert (result.returncode, result.stderr) == (
        1,
        f"jupyter-mcp: cannot bind 127.0.0.1:{port}: Address already in use\n",
    )
