"""An agent in a notebook, side by side with the peers: read a 200-cell notebook with outputs; insert a
one-line cell, run it and get its output, 20 rounds.

Three Jupyter servers in turn, each in its own venv and process, each on loopback with a token, each on a
copy of the same notebook with a session kernel already running (what a user with the notebook open has):

- ours: this checkout's `jupyter-mcp` (`.venv`), the notebook tools at `/mcp` (`notebook_tools=run`,
  `notebook_tools_confirm=never`): `jupyter_read`; `jupyter_edit` (insert after the last cell) then
  `jupyter_run`;
- datalayer's `jupyter-mcp-server` 2.2.4 (`.venv/bench-jupyter-mcp-server`, its Jupyter server extension
  at `/mcp`): `use_notebook` once, then `read_notebook` (detailed, every cell) and `insert_execute_code_cell`;
- `jupyter-mcp-live` 0.6.2 (`.venv/bench-jupyter-mcp-live`, its Jupyter server extension at `/mcp`): its
  read, insert and run tools (see `LIVE` below).

The peers are bench-only dependencies, installed by this script into their own venvs on first use
(never imported here: they run as servers, the client is this venv's `mcp.Client`). Every measured call is
checked (the cell's output came back), two warm-up rounds go first, and the servers run one after the
other so they never share the CPU. Usage: `.venv/bin/python bench/bench_agents.py [--reads N] [--rounds N]
[--skip datalayer,live]`.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as mt
import nbformat

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from _common import client, machine  # noqa: E402

VENVS = HERE.parent / ".venv"
NOTEBOOK = "bench.ipynb"
CELLS = 200


@dataclass
class Peer:
    name: str
    python: Path
    args: list[str]
    prepare: Callable[[Any], Awaitable[None]]
    read: Callable[[Any], Awaitable[int]]
    """Reads the whole notebook; returns how many cells it saw."""
    round: Callable[[Any, int], Awaitable[str]]
    """Inserts `print(<n> * 3)` at the end, runs it; returns the output text."""
    config: str = ""
    """A `jupyter_server_config.py` for its server, if it needs one."""


def peer_python(venv: str, install: list[str]) -> Path:
    python = VENVS / venv / "bin" / "python"
    if not python.exists():
        print(f"creating {python.parent.parent} with {' '.join(install)} (bench only)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(python.parent.parent)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *install], check=True)
    return python


def text(result: mt.CallToolResult) -> str:
    if result.is_error:
        raise RuntimeError(str(result.content)[:500])
    return "".join(block.text for block in result.content if isinstance(block, mt.TextContent))


# ---- ours ---------------------------------------------------------------------------------------------------


async def ours_prepare(session: Any) -> None:
    return None


async def ours_read(session: Any) -> int:
    result = await session.call_tool("jupyter_read", {"path": NOTEBOOK})
    text(result)
    assert isinstance(result.structured_content, dict)
    assert "next" not in result.structured_content, "the read stopped at the result budget"
    return len(result.structured_content["cells"])


async def ours_round(session: Any, n: int) -> str:
    last = (await session.call_tool("jupyter_read", {"path": NOTEBOOK, "cells": "-1:"})).structured_content
    assert isinstance(last, dict)
    ops = [{"op": "insert", "after": last["cells"][0]["id"], "source": f"print({n} * 3)"}]
    edit = await session.call_tool("jupyter_edit", {"path": NOTEBOOK, "ops": ops})
    text(edit)
    assert isinstance(edit.structured_content, dict)
    cell = edit.structured_content["touched"][0]["id"]
    ran = await session.call_tool("jupyter_run", {"path": NOTEBOOK, "ids": [cell]})
    text(ran)
    assert isinstance(ran.structured_content, dict)
    return str(ran.structured_content["cells"][0]["outputs"][0]["text"])


# ---- datalayer's jupyter-mcp-server -------------------------------------------------------------------------


async def datalayer_prepare(session: Any) -> None:
    text(await session.call_tool("use_notebook", {"notebook_name": "bench", "notebook_path": NOTEBOOK}))


async def datalayer_read(session: Any) -> int:
    arguments = {"notebook_name": "bench", "response_format": "detailed", "start_index": 0, "limit": 0}
    answer = text(await session.call_tool("read_notebook", arguments))
    return answer.count("=====Cell ")


async def datalayer_round(session: Any, n: int) -> str:
    return text(
        await session.call_tool("insert_execute_code_cell", {"cell_index": -1, "cell_source": f"print({n} * 3)"})
    )


# ---- jupyter-mcp-live -----------------------------------------------------------------------------------------

LIVE_CONFIG = """
c.MCPExtensionApp.mcp_tools = [
    "jupyter_mcp_live.execution_tools:setup_notebook",
    "jupyter_mcp_live.execution_tools:add_code_cell",
    "jupyter_mcp_live.execution_tools:view_notebook",
]
"""
"""Its tools are listed in its config (its README's example, cut to what the bench calls)."""


async def live_prepare(session: Any) -> None:
    text(await session.call_tool("setup_notebook", {"notebook_path": NOTEBOOK}))


async def live_read(session: Any) -> int:
    result = await session.call_tool("view_notebook", {"notebook_path": NOTEBOOK})
    text(result)
    assert isinstance(result.structured_content, dict)
    return len(result.structured_content["result"])


async def live_round(session: Any, n: int) -> str:
    return text(await session.call_tool("add_code_cell", {"notebook_path": NOTEBOOK, "source": f"print({n} * 3)"}))


# ---- the harness -----------------------------------------------------------------------------------------------


def png(seed: int) -> str:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (320, 200), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for step in range(0, 320, 8):
        draw.line((step, 200, step + 8, 200 - (step * seed) % 200), fill=(20, 90, 200), width=2)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode()


def make_notebook(root: Path) -> None:
    """200 code cells, each with its stream output and its result; every tenth shows a small plot."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for i in range(CELLS):
        cell = nbformat.v4.new_code_cell(f"x_{i} = {i} * 2\nprint('row', {i}, 'value', x_{i})\nx_{i}")
        cell.execution_count = i + 1
        cell.outputs = [
            nbformat.v4.new_output("stream", name="stdout", text=f"row {i} value {i * 2}\n"),
            nbformat.v4.new_output("execute_result", data={"text/plain": str(i * 2)}, execution_count=i + 1),
        ]
        if i % 10 == 0:
            cell.outputs.append(
                nbformat.v4.new_output("display_data", data={"image/png": png(i + 1), "text/plain": "<Figure>"})
            )
        notebook.cells.append(cell)
    nbformat.write(notebook, root / NOTEBOOK)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def jupyter(peer: Peer, token: str) -> Iterator[str]:
    work = Path(tempfile.mkdtemp(prefix=f"bench-{peer.name}-"))
    root = work / "root"
    root.mkdir()
    make_notebook(root)
    port = free_port()
    (work / "config").mkdir()
    (work / "config" / "jupyter_server_config.py").write_text(peer.config)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(work / "config"), "JUPYTER_RUNTIME_DIR": str(work / "runtime")}
    command = [
        str(peer.python), "-m", "jupyter", "server", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        f"--SQLiteYStore.db_path={work}/ystore.db", f"--BaseFileIdManager.db_path={work}/fileid.db",
        *(["--allow-root"] if os.geteuid() == 0 else []), *peer.args,
    ]  # fmt: skip
    log = (work / "server.log").open("wb")
    child = subprocess.Popen(command, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/"
    try:
        with httpx2.Client(base_url=base, headers={"Authorization": f"token {token}"}, timeout=60) as rest:
            for _ in range(600):
                try:
                    if rest.get("api/status").status_code == 200:
                        break
                except httpx2.HTTPError:
                    pass
                time.sleep(0.1)
            else:
                raise RuntimeError(
                    f"{peer.name}'s Jupyter server did not start: {(work / 'server.log').read_text()[-2000:]}"
                )
            body = {"path": NOTEBOOK, "name": NOTEBOOK, "type": "notebook", "kernel": {"name": "python3"}}
            assert rest.post("api/sessions", json=body).status_code == 201
        yield base
    finally:
        child.terminate()
        child.wait(30)


async def measure(peer: Peer, base: str, token: str, reads: int, rounds: int) -> dict[str, Any]:
    async with client(base + "mcp", token, "legacy") as session:
        await peer.prepare(session)
        seen = await peer.read(session)
        for n in range(2):
            assert str(n * 3) in await peer.round(session, n), "the warm-up round's output did not come back"
        read_times, round_times = [], []
        for _ in range(reads):
            started = time.perf_counter()
            assert await peer.read(session) >= CELLS
            read_times.append(time.perf_counter() - started)
        for n in range(100, 100 + rounds):
            started = time.perf_counter()
            output = await peer.round(session, n)
            round_times.append(time.perf_counter() - started)
            assert str(n * 3) in output, f"{peer.name}: round {n} answered {output[:200]!r}"
    return {"cells": seen, "read": read_times, "round": round_times}


def peers(skip: set[str]) -> list[Peer]:
    ours = Peer(
        "jupyter-mcp (ours)",
        Path(sys.executable),
        ["--MCPExtensionApp.notebook_tools=run", "--MCPExtensionApp.notebook_tools_confirm=never"],
        ours_prepare,
        ours_read,
        ours_round,
    )
    found = [ours]
    if "datalayer" not in skip:
        install = ["jupyter-mcp-server==2.2.4", "jupyterlab>=4.2,<5", "jupyter-collaboration>=4,<6", "ipykernel"]
        python = peer_python("bench-jupyter-mcp-server", install)
        found.append(Peer("jupyter-mcp-server 2.2.4", python, [], datalayer_prepare, datalayer_read, datalayer_round))
    if "live" not in skip:
        python = peer_python("bench-jupyter-mcp-live", ["jupyter-mcp-live==0.6.2", "ipykernel"])
        found.append(Peer("jupyter-mcp-live 0.6.2", python, [], live_prepare, live_read, live_round, LIVE_CONFIG))
    return found


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--skip", default="")
    options = parser.parse_args()
    print(machine())
    results: dict[str, dict[str, Any]] = {}
    for peer in peers(set(filter(None, options.skip.split(",")))):
        token = base64.b16encode(os.urandom(12)).decode().lower()
        with jupyter(peer, token) as base:
            results[peer.name] = await measure(peer, base, token, options.reads, options.rounds)
        got = results[peer.name]
        print(
            f"{peer.name:28} read {CELLS} cells: median {median_ms(got['read']):8.1f} ms"
            f"   insert + run + output: median {median_ms(got['round']):8.1f} ms (p95 {sorted(got['round'])[int(len(got['round']) * 0.95) - 1] * 1000:.1f})",
            flush=True,
        )
    ours, others = results.pop("jupyter-mcp (ours)"), results
    if others:
        for what in ("read", "round"):
            fastest = min(others, key=lambda name: median_ms(others[name][what]))
            ratio = median_ms(ours[what]) / median_ms(others[fastest][what])
            print(f"{what}: ours / the faster peer ({fastest}) = {ratio:.2f}x (goal <= 0.5x)")
    print(
        json.dumps(
            {
                name: {k: round(median_ms(v), 2) for k, v in got.items() if k != "cells"}
                for name, got in {**others, "ours": ours}.items()
            }
        )
    )


if __name__ == "__main__":
    anyio.run(main)
