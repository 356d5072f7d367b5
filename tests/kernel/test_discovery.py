"""Discovery files: written with the server, updated with the tools, removed with the kernel."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from jupyter_mcp import discovery
from tests.harness import Kernel


def wait_for(condition, timeout: float = 10) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


def test_discovery_file_lifecycle(runtime_dir: Path) -> None:
    kernel = Kernel(env={"JUPYTER_RUNTIME_DIR": str(runtime_dir), "JPY_SESSION_NAME": "work/analysis.ipynb"})
    try:
        kernel.run("%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()")
        assert list(runtime_dir.glob("jupyter-mcp-*.json")) == []  # nothing listens before the first tool
        kernel.run("%%mcp_tool\ndef one() -> int:\n    '''First.'''\n    return 1")
        kernel_id = kernel.value("server.kernel_id")
        path = runtime_dir / f"jupyter-mcp-{kernel_id}.json"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        data = json.loads(path.read_text())
        assert data["url"] == kernel.value("server.url")
        assert data["token"] == kernel.value("server.token")
        assert data["pid"] == kernel.pid
        assert data["kernel_id"] == kernel_id
        assert data["notebook_path"] == "work/analysis.ipynb"
        assert [t["name"] for t in data["tools"]] == ["one"]
        assert data["tools"][0]["description"] == "First."
        kernel.run("%%mcp_tool\ndef two() -> int:\n    return 2")
        kernel.run("%mcp disable one")
        info = discovery.find(kernel_id, runtime_dir)
        assert info is not None
        assert info.tool_names == ["one", "two"]
        assert [t.enabled for t in info.tools] == [False, True]
        kernel.run("%mcp stop")
        assert not path.exists()
        kernel.run("%mcp start")
        assert path.exists()
    finally:
        kernel.shutdown()
    wait_for(lambda: not path.exists())


def test_readers_skip_and_clean_stale_files(tmp_path: Path) -> None:
    live = discovery.ServerInfo("http://127.0.0.1:1/mcp", "t", os.getpid(), "live", None, started=2.0)
    dead = discovery.ServerInfo("http://127.0.0.1:2/mcp", "t", 2**22 + 12345, "dead", None, started=3.0)
    discovery.write(live, tmp_path)
    discovery.write(dead, tmp_path)
    (tmp_path / "jupyter-mcp-garbage.json").write_text("{not json")
    assert [s.kernel_id for s in discovery.read_all(tmp_path)] == ["live"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jupyter-mcp-live.json"]
    assert discovery.find("dead", tmp_path) is None


def test_the_kernel_creates_a_missing_runtime_dir(tmp_path: Path) -> None:
    """A kernel whose runtime dir no Jupyter program has made yet (its front end used another)."""
    runtime = tmp_path / "new" / "runtime"
    kernel = Kernel(env={"JUPYTER_RUNTIME_DIR": str(runtime)})
    try:
        kernel.run("%load_ext jupyter_mcp")
        kernel.run("%%mcp_tool\ndef one() -> int:\n    return 1")
        assert [s.tool_names for s in discovery.read_all(runtime)] == [["one"]]
    finally:
        kernel.shutdown()
    assert stat.S_IMODE(runtime.stat().st_mode) == 0o700


def test_runtime_dir_is_created_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "a" / "runtime"))
    assert discovery.runtime_dir() == tmp_path / "a" / "runtime"
    assert stat.S_IMODE((tmp_path / "a" / "runtime").stat().st_mode) == 0o700
    written = discovery.write(discovery.ServerInfo("u", "t", os.getpid(), "k", None), tmp_path / "b")
    assert written == tmp_path / "b" / "jupyter-mcp-k.json"
    assert stat.S_IMODE((tmp_path / "b").stat().st_mode) == 0o700
