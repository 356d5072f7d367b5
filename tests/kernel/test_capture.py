"""A tool's output goes to its call record, never into a cell."""

from __future__ import annotations

import anyio

from tests.conftest import http_client
from tests.harness import Kernel
from tests.kernel.conftest import endpoint

NOISY = '''
%%mcp_tool
def noisy(n: int) -> int:
    """Prints, warns, logs and starts a thread."""
    import contextvars, logging, sys, threading, warnings
    print(f"stdout line {n}")
    print(f"stderr line {n}", file=sys.stderr)
    warnings.warn(f"careful {n}")
    logging.getLogger("user.tool").error(f"logged {n}")
    context = contextvars.copy_context()
    worker = threading.Thread(target=context.run, args=(print, f"from a thread {n}"))
    worker.start()
    worker.join()
    return n
'''


async def test_tool_output_is_captured_while_another_cell_runs(kernel: Kernel) -> None:
    kernel.run("import logging\nlogging.basicConfig(level=logging.INFO)")  # the user's own logging setup
    kernel.run(NOISY)
    url, token = endpoint(kernel)
    msg_id = kernel.client.execute("import time\nfor i in range(30):\n    time.sleep(0.1)\nprint('cell done')")
    await anyio.sleep(0.3)
    async with http_client(url, token, mode="legacy") as client:
        for n in range(3):
            assert (await client.call_tool("noisy", {"n": n})).structured_content == {"result": n}
    running_cell = kernel.collect(msg_id, timeout=30)
    assert running_cell.stdout == "cell done\n"
    assert running_cell.stderr == ""
    record = kernel.value("(server.history[-1].stdout, server.history[-1].stderr)")
    stdout, stderr = record
    assert stdout == "stdout line 2\nfrom a thread 2\n"
    assert "stderr line 2\n" in stderr
    assert "UserWarning: careful 2" in stderr
    assert "logged 2" in stderr
    stray = [m for m in kernel.stray if m["msg_type"] == "stream"]
    assert stray == [], "tool output leaked onto iopub"


def test_notebook_calls_are_captured_too(kernel: Kernel) -> None:
    kernel.run(NOISY)
    out = kernel.run("r = await server.call('noisy', {'n': 7})")
    assert out.stdout == ""
    assert out.stderr == ""
    assert kernel.value("server.history[-1].stdout") == "stdout line 7\nfrom a thread 7\n"


def test_cell_output_is_untouched(kernel: Kernel) -> None:
    kernel.run(NOISY)
    out = kernel.run("import sys\nprint('plain')\nprint('err', file=sys.stderr)")
    assert (out.stdout, out.stderr) == ("plain\n", "err\n")


def test_library_logging_stays_out_of_cells(kernel: Kernel) -> None:
    kernel.run("import logging\nlogging.basicConfig(level=logging.DEBUG, force=True)")
    kernel.run(NOISY)
    url, _token = endpoint(kernel)
    out = kernel.run(
        "import http.client, urllib.parse\n"
        f"target = urllib.parse.urlsplit({url!r})\n"
        "connection = http.client.HTTPConnection(target.hostname, target.port)\n"
        "connection.request('POST', target.path, body='{}', headers={'Host': 'evil.example.com'})\n"
        "print(connection.getresponse().status)\n"  # the server logs a warning about the Host
        "import logging\nprint(logging.getLogger().handlers != [])"
    )
    assert out.stdout == "421\nTrue\n"
    assert out.stderr == ""
    assert "refused a request with Host" in kernel.run("%mcp log").stdout


QUICK = '''
%%mcp_tool
def quick(n: int) -> str:
    """Prints and says which thread ran it."""
    import threading
    print(f"quick {n}")
    return threading.current_thread().name
'''


async def test_a_quick_tool_on_the_serving_loop_is_captured_as_in_a_worker(kernel: Kernel) -> None:
    kernel.run(QUICK)
    url, token = endpoint(kernel)
    msg_id = kernel.client.execute("import time\nfor i in range(20):\n    time.sleep(0.1)\nprint('cell done')")
    threads = []
    async with http_client(url, token, mode="2026-07-28") as client:
        for n in range(24):
            threads.append((await client.call_tool("quick", {"n": n})).structured_content["result"])
    assert threads[0].startswith("jupyter-mcp-worker")
    assert not threads[-1].startswith("jupyter-mcp-worker"), threads  # proven quick: on the loop's thread
    running_cell = kernel.collect(msg_id, timeout=30)
    assert (running_cell.stdout, running_cell.stderr) == ("cell done\n", "")
    outputs = kernel.value("[record.stdout for record in server.history[-24:]]")
    assert outputs == [f"quick {n}\n" for n in range(24)]
    assert [m for m in kernel.stray if m["msg_type"] == "stream"] == []
