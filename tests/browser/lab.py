"""A real JupyterLab server for browser tests: isolated dirs, a known token, a non-trivial base URL.

Reusable outside this package's tests (e.g. for a labextension test)::

    with JupyterLab.started(tmp_path, base_url="/lab-under-test/") as lab:
        lab.write_notebook("demo.ipynb", ["print(1)"])
        page.goto(lab.url("lab/tree/demo.ipynb"))
        lab.api("GET", "api/kernels").json()

Everything the server and its kernels write (runtime files, settings, workspaces, config) lives
under ``tmp_path``, so a test never sees the developer's own Jupyter setup, and kernels started
by the server publish their jupyter_mcp discovery files into ``lab.runtime_dir``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import nbformat

from jupyter_mcp.routes import url_join
from tests.harness import Kernel, free_port

# Toasts and fetched news would cover widgets in screenshots; full windowing would leave
# off-screen cells unrendered, so a locator could not find their outputs.
DEFAULT_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Light"},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}
READY_TIMEOUT = 90.0


class JupyterLab:
    """One ``jupyter lab`` process serving ``root`` (use ``started`` as a context manager)."""

    def __init__(
        self,
        workdir: Path,
        *,
        base_url: str = "/",
        settings: Mapping[str, Mapping[str, Any]] | None = None,
        extra_args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        disabled: Sequence[str] = (),
    ) -> None:
        self.workdir = workdir
        self.disabled = list(disabled)
        """Front-end extensions turned off (``jupyter labextension disable``), e.g. ``jupyter-mcp``."""
        self.root = workdir / "root"
        self.runtime_dir = workdir / "runtime"
        self.settings_dir = workdir / "settings"
        self.log_path = workdir / "jupyterlab.log"
        self.base_url = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self.extra_args = list(extra_args)
        self.extra_env = dict(env or {})
        self._settings = {**DEFAULT_SETTINGS, **(settings or {})}
        self._process: subprocess.Popen[bytes] | None = None

    @classmethod
    @contextlib.contextmanager
    def started(cls, workdir: Path, **options: Any) -> Iterator[JupyterLab]:
        """Start, wait until it answers, yield, then shut it (and its kernels) down."""
        lab = cls(workdir, **options)
        try:
            lab.start()  # a server that never answers is stopped too
            yield lab
        finally:
            lab.stop()

    # ---- addresses -------------------------------------------------------------------------------

    @property
    def server_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.base_url}"

    def url(self, path: str = "lab", *, token: bool = True) -> str:
        """An address under the base URL, with ``?token=`` so a fresh browser is logged in."""
        address = f"http://127.0.0.1:{self.port}" + url_join(self.base_url, path)
        return f"{address}{'&' if '?' in address else '?'}token={self.token}" if token else address

    def api(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """A REST call to the server, authenticated with the token."""
        headers = {"Authorization": f"token {self.token}", **kwargs.pop("headers", {})}
        address = f"http://127.0.0.1:{self.port}" + url_join(self.base_url, path)
        return httpx.request(method, address, headers=headers, timeout=30, **kwargs)

    # ---- content ---------------------------------------------------------------------------------

    def write_notebook(self, name: str, cells: Sequence[str], *, kernel: str = "python3") -> Path:
        """Write a notebook of code cells under the root; returns its path."""
        notebook = nbformat.v4.new_notebook()
        notebook.metadata["kernelspec"] = {"name": kernel, "display_name": "Python 3", "language": "python"}
        notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, path)
        return path

    def serving(self, path: str, cells: Sequence[str]) -> Kernel:
        """A new empty notebook at ``path`` with a session whose kernel loaded jupyter_mcp, set ``NOTEBOOK``
        to the path and ran ``cells``; attached (the caller stops its channels)."""
        self.write_notebook(path, [])
        body = {"path": path, "name": Path(path).name, "type": "notebook", "kernel": {"name": "python3"}}
        reply = self.api("POST", "api/sessions", json=body)
        assert reply.status_code == 201, reply.text
        kernel = Kernel.attach(str(self.runtime_dir / f"kernel-{reply.json()['kernel']['id']}.json"))
        kernel.run(f"%load_ext jupyter_mcp\nNOTEBOOK = {path!r}")
        for cell in cells:
            kernel.run(cell)
        return kernel

    def close_sessions(self, path: str) -> None:
        """Shut down the kernel sessions of notebook ``path``: the shared server outlives a test."""
        for session in self.api("GET", "api/sessions").json():
            if session["path"] == path:
                self.api("DELETE", f"api/sessions/{session['id']}")

    # ---- lifecycle -------------------------------------------------------------------------------

    def start(self) -> None:
        for directory in (self.root, self.runtime_dir, self.settings_dir, self.workdir / "config"):
            directory.mkdir(parents=True, exist_ok=True)
        self._write_settings()
        if self.disabled:
            page_config = self.workdir / "config" / "labconfig" / "page_config.json"
            page_config.parent.mkdir(parents=True, exist_ok=True)
            page_config.write_text(json.dumps({"disabledExtensions": dict.fromkeys(self.disabled, True)}))
        log = self.log_path.open("wb")
        self._process = subprocess.Popen(
            self._command(),
            cwd=self.root,
            env=self._env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_ready()

    def _command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={self.port}",
            "--ServerApp.ip=127.0.0.1",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",  # ServerApp.token's current spelling
            f"--ServerApp.base_url={self.base_url}",
            f"--ServerApp.root_dir={self.root}",
            *(["--allow-root"] if os.geteuid() == 0 else []),  # CI containers run as root
            *self.extra_args,
        ]

    def _env(self) -> dict[str, str]:
        return {
            **os.environ,
            "JUPYTER_RUNTIME_DIR": str(self.runtime_dir),
            "JUPYTER_CONFIG_DIR": str(self.workdir / "config"),
            "JUPYTER_DATA_DIR": str(self.workdir / "data"),  # sign-in's store, among others
            "JUPYTERLAB_SETTINGS_DIR": str(self.settings_dir),
            "JUPYTERLAB_WORKSPACES_DIR": str(self.workdir / "workspaces"),
            **self.extra_env,
        }

    def _write_settings(self) -> None:
        for plugin, values in self._settings.items():
            package, name = plugin.rsplit(":", 1)
            path = self.settings_dir / package / f"{name}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self._process.returncode}:\n{self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if self.api("GET", "api/status").status_code == 200:
                    return
            time.sleep(0.2)
        raise TimeoutError(f"jupyter lab did not answer in {READY_TIMEOUT}s:\n{self.log()}")

    def log(self) -> str:
        """What the server has printed so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        """Shut down kernels and the server; kill the process group if it lingers."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(httpx.HTTPError):
            for kernel in self.api("GET", "api/kernels").json():
                self.api("DELETE", f"api/kernels/{kernel['id']}")
        process.send_signal(signal.SIGTERM)  # jupyter_server stops cleanly on SIGTERM, without asking
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
