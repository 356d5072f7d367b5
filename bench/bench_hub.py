"""Tool calls through a real JupyterHub vs straight to each user's single-user server (the hub proxy's cost).

A hub on loopback (configurable-http-proxy from tests/node, local-process spawner) starts N users'
servers; each user's notebook serves one trivial tool. Each user's real ``mcp.Client`` calls it
through ``<hub>/user/<name>/mcp/notebooks/<path>`` and, separately, straight to the single-user
server (its own port, the same route, the same hub token), for 1 user and for N users calling at
once. Printed: calls per second (all users together) and median / p95 latency. Figures, not pass/fail.

    .venv/bin/python bench/bench_hub.py [--users 10] [--calls 200] [--mode auto|legacy]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from _common import client, machine, percentile  # noqa: E402

from tests.hub.conftest import start_notebook  # noqa: E402
from tests.hub.hub import Hub  # noqa: E402

NOTEBOOK = "bench/hub bench.ipynb"
TOOL = '%%mcp_tool\ndef add(a: int, b: int) -> int:\n    """Adds two integers."""\n    return a + b\n'


def direct_base(hub: Hub, user: str) -> str:
    """The single-user server's own address (``http://127.0.0.1:<port>/user/<name>/``), from its runtime file."""
    (info,) = (hub.home(user) / ".local/share/jupyter/runtime").glob("jpserver-*.json")
    return str(json.loads(info.read_text())["url"])


async def user_calls(url: str, token: str, mode: str, count: int, timings: list[float], spans: list[float]) -> None:
    async with client(url, token, mode) as session:
        for _ in range(10):
            await session.call_tool("add", {"a": 1, "b": 2})
        spans.append(time.perf_counter())
        for _ in range(count):
            started = time.perf_counter()
            result = await session.call_tool("add", {"a": 1, "b": 2})
            timings.append(time.perf_counter() - started)
            if result.is_error:
                raise RuntimeError(result.content)
        spans.append(time.perf_counter())


async def phase(targets: list[tuple[str, str]], mode: str, count: int) -> tuple[float, list[float]]:
    """All targets call at once (after connecting and warming up); returns (calls per second overall, latencies).

    The rate counts the measured calls only, from the first user's first to the last user's last.
    """
    timings: list[float] = []
    spans: list[float] = []
    async with anyio.create_task_group() as tasks:
        for url, token in targets:
            tasks.start_soon(user_calls, url, token, mode, count, timings, spans)
    return len(timings) / (max(spans) - min(spans)), timings


def row(label: str, rate: float, timings: list[float]) -> str:
    median, p95 = statistics.median(timings) * 1000, percentile(timings, 0.95) * 1000
    return f"{label:<24} {rate:9.0f} {median:9.2f} {p95:9.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--calls", type=int, default=200, help="calls per user per phase")
    parser.add_argument("--mode", default="auto", choices=["auto", "legacy"])
    args = parser.parse_args()
    users = tuple(f"user{i:02d}" for i in range(1, args.users + 1))
    with tempfile.TemporaryDirectory() as root:
        hub = Hub(Path(root), users).start()
        try:
            for user in users:
                hub.api("POST", f"/hub/api/users/{user}/server")
            for user in users:
                hub.spawn(user, timeout=300)
            notebooks = [start_notebook(hub, user, NOTEBOOK) for user in users]
            for notebook in notebooks:
                notebook.kernel.run(TOOL)
            tokens = {user: hub.token(user) for user in users}
            route = f"mcp/notebooks/{NOTEBOOK}"
            through = [(hub.user_url(user, route), tokens[user]) for user in users]
            direct = [(direct_base(hub, user) + route, tokens[user]) for user in users]
            print(f"machine: {machine()}")
            print(f"mode {args.mode}, {args.calls} calls per user per phase, tool add(a, b) in each user's kernel")
            print(f"{'path':<24} {'calls/s':>9} {'median ms':>9} {'p95 ms':>9}")
            for label, targets in (
                ("1 user, direct", direct[:1]),
                ("1 user, through hub", through[:1]),
                (f"{len(users)} users, direct", direct),
                (f"{len(users)} users, through hub", through),
            ):
                rate, timings = anyio.run(phase, targets, args.mode, args.calls)
                print(row(label, rate, timings))
        finally:
            hub.stop()


if __name__ == "__main__":
    main()
