"""``./dev.sh run``'s last word: wait until both demo servers answer, then print where they are.

Usage: ``demo_ready.py DEMO_NOTEBOOK SERVE_PID LAB_PID`` (run by the dev venv's Python).
The MCP server is found through its discovery file, JupyterLab through ``jupyter server list``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from jupyter_mcp import discovery

TIMEOUT = 300.0


def main(demo: str, serve_pid: int, lab_pid: int) -> int:
    deadline = time.monotonic() + TIMEOUT
    mcp: discovery.ServerInfo | None = None
    lab: dict[str, Any] | None = None
    while mcp is None or lab is None:
        if not (discovery.pid_alive(serve_pid) and discovery.pid_alive(lab_pid)):
            return fail("a demo server exited; see the messages above")
        if time.monotonic() > deadline:
            return fail(f"the demo did not start within {TIMEOUT:.0f} s")
        mcp = mcp or next((s for s in discovery.read_all() if s.notebook_path == demo), None)
        lab = lab or next((s for s in running_servers() if s.get("pid") == lab_pid), None)
        time.sleep(0.5)
    quickstart = Path(demo).with_name("01-quickstart.ipynb")
    print(
        f"\n\033[1m[dev] ready\033[0m (Ctrl-C stops both)\n"
        f"  MCP server, 02-demo-tools.ipynb:  {mcp.url}\n"
        f"      header  Authorization: Bearer {mcp.token}   (its kernel's output: .venv/demo-kernel.log)\n"
        f"  JupyterLab, 01-quickstart.ipynb:  {lab_url(lab, quickstart)}\n"
        f"  (copies of notebooks/ in {Path(demo).parent}: the repository's own stay as committed)\n",
        file=sys.stderr,
        flush=True,
    )
    return 0


def running_servers() -> list[dict[str, Any]]:
    listed = subprocess.run(
        [sys.executable, "-m", "jupyter_server", "list", "--jsonlist"], capture_output=True, text=True, check=False
    )
    servers: list[dict[str, Any]] = json.loads(listed.stdout or "[]")
    return servers


def lab_url(server: dict[str, Any], notebook: Path) -> str:
    """The notebook opened in JupyterLab, with the server's token."""
    try:
        page = f"lab/tree/{notebook.relative_to(server['root_dir']).as_posix()}"
    except ValueError:  # the notebook is outside the server's root (a user config moved it)
        page = "lab"
    return f"{server['url']}{page}?token={server['token']}"


def fail(reason: str) -> int:
    print(f"[dev] {reason}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
    except KeyboardInterrupt:  # Ctrl-C before the servers were up: dev.sh stops them
        sys.exit(130)
