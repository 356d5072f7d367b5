"""A real JupyterHub with two students and a teacher; each student's notebook serves tools."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.harness import Kernel
from tests.hub.hub import PROXY, Hub

STUDENTS = ("alice", "bob")
NOTEBOOK = "workshop/tools.ipynb"
TOOL = '''%%mcp_tool --read-only
def whoami() -> str:
    """Whose notebook answers."""
    import os
    return os.environ["JUPYTERHUB_USER"]
'''


@dataclass
class StudentNotebook:
    """A notebook session in a student's single-user server (started through the hub) and its kernel."""

    user: str
    kernel_id: str
    kernel: Kernel


def start_notebook(hub: Hub, user: str, path: str = NOTEBOOK) -> StudentNotebook:
    # The notebook exists, as when a student opens it: Jupyter starts its kernel in its directory
    # and tells the kernel its path (JPY_SESSION_NAME), which the kernel's client configs use.
    notebook = hub.home(user) / path
    notebook.parent.mkdir(parents=True, exist_ok=True)
    notebook.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    body = {"path": path, "name": path.rsplit("/", 1)[-1], "type": "notebook", "kernel": {"name": "python3"}}
    reply = hub.api("POST", f"/user/{user}/api/sessions", body)
    assert reply.status_code == 201, reply.text
    kernel_id = reply.json()["kernel"]["id"]
    connection = hub.home(user) / ".local/share/jupyter/runtime" / f"kernel-{kernel_id}.json"
    kernel = Kernel.attach(str(connection))
    kernel.run("%load_ext jupyter_mcp")
    kernel.run(TOOL)
    return StudentNotebook(user, kernel_id, kernel)


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    if not PROXY.exists():
        pytest.skip(f"configurable-http-proxy is not in {PROXY.parent}: ./dev.sh test installs it from npm")
    running = Hub(tmp_path_factory.mktemp("hub"), STUDENTS).start()
    try:
        for user in STUDENTS:
            running.spawn(user)
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def notebooks(hub: Hub) -> Iterator[dict[str, StudentNotebook]]:
    started = {user: start_notebook(hub, user) for user in STUDENTS}
    yield started
    for notebook in started.values():
        notebook.kernel.client.stop_channels()
