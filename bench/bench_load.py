"""What ``%load_ext jupyter_mcp`` and the first ``%%mcp_tool`` cost in a fresh kernel.

Each round starts a new kernel (jupyter_client, the ``python3`` kernelspec of this venv) and times,
inside it: ``%load_ext jupyter_mcp`` (imports, the server started, its address published), the first
tool cell, and then, for comparison, ``import jsonschema`` (which ``%load_ext`` no longer pays: see
``jupyter_mcp/tools/components/verbatim.py``). Wall-clock medians over the rounds.

Usage: .venv/bin/python bench/bench_load.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from jupyter_client.manager import start_new_kernel

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from _common import machine  # noqa: E402

CELL = """
import json as _json, sys as _sys, time as _time
_started = _time.perf_counter()
get_ipython().run_line_magic("load_ext", "jupyter_mcp")
_load = _time.perf_counter() - _started
_had_jsonschema = "jsonschema" in _sys.modules
_started = _time.perf_counter()
get_ipython().run_cell_magic("mcp_tool", "", "def add(a: int, b: int) -> int:\\n    return a + b\\n")
_tool = _time.perf_counter() - _started
_started = _time.perf_counter()
import jsonschema
_jsonschema = _time.perf_counter() - _started
print(_json.dumps({"load": _load, "tool": _tool, "jsonschema": _jsonschema, "had": _had_jsonschema}))
"""


def one_round() -> dict[str, float]:
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        lines: list[str] = []

        def keep(message: dict[str, object]) -> None:
            content = message.get("content")
            if message["msg_type"] == "stream" and isinstance(content, dict):
                lines.append(str(content["text"]))

        reply = client.execute_interactive(CELL, timeout=120, output_hook=keep)
        if reply["content"]["status"] != "ok":
            raise SystemExit(f"the cell failed: {reply['content'].get('evalue')}")
        figures: dict[str, float] = json.loads("".join(lines).strip().splitlines()[-1])
        return figures
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    results = [one_round() for _ in range(rounds)]
    print(f"# load: {machine()}, load average {os.getloadavg()[0]:.1f}, {rounds} fresh kernels")
    print("| step | median ms | min ms |")
    print("|---|---:|---:|")
    for key, label in (
        ("load", "%load_ext jupyter_mcp"),
        ("tool", "first %%mcp_tool cell"),
        ("jsonschema", "import jsonschema (not paid by the above)"),
    ):
        values = [r[key] * 1000 for r in results]
        print(f"| {label} | {statistics.median(values):.0f} | {min(values):.0f} |")
    print(f"jsonschema already imported after %load_ext: {any(r['had'] for r in results)}")


if __name__ == "__main__":
    main()
