"""Real gateways behind ``--gateway-url``, started for a test module and stopped whatever happens.

``KernelGateway`` is ``jupyter kernelgateway`` from this venv (a dev dependency). ``EnterpriseGateway``
is ``jupyter enterprisegateway`` from a venv of its own, ``.venv/enterprise-gateway``, made on first
use: its releases pin ``jupyter_server<2``, ``jupyter_client`` 6 and ``anyio<4``, which cannot share
this venv. Its one kernelspec runs *this* venv's python (ipykernel 7, jupyter_mcp), launched by
Enterprise Gateway on this machine (``LocalProcessProxy``). Each gateway has a runtime directory of
its own, so its kernels' discovery files are out of the Jupyter server's sight, as on another machine.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil

from tests.harness import free_port

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]
EG_REQUIREMENT = "jupyter_enterprise_gateway==3.3.0"
"""The newest release; it installs on Python 3.11 (with jupyter_server 1.24, jupyter_client 6.1)."""
EG_VENV = ROOT / ".venv" / "enterprise-gateway"
LOCAL_PROCESS_PROXY = "enterprise_gateway.services.processproxies.processproxy.LocalProcessProxy"


def enterprise_gateway_venv() -> Path:
    """``.venv/enterprise-gateway``, made once (under a lock: pytest workers may ask at once)."""
    marker = EG_VENV / "installed.txt"
    EG_VENV.parent.mkdir(exist_ok=True)
    with (EG_VENV.parent / "enterprise-gateway.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.exists() and marker.read_text() == EG_REQUIREMENT:
            return EG_VENV
        shutil.rmtree(EG_VENV, ignore_errors=True)  # a venv left half-made, or for another release
        # No pip of its own (ensurepip is the slow half): this venv's pip installs into it.
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(EG_VENV)], check=True)
        python = EG_VENV / "bin" / "python"
        install = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile"]
        subprocess.run([*install, EG_REQUIREMENT], check=True)
        marker.write_text(EG_REQUIREMENT)
    return EG_VENV


class Gateway:
    """A gateway process on a free loopback port, with a token, a home and a runtime dir of its own."""

    name = "gateway"

    def __init__(self, home: Path) -> None:
        self.home = home
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = home / "gateway.log"
        self.children: list[psutil.Process] = []
        env = {key: value for key, value in os.environ.items() if not key.startswith("JUPYTER_")}
        env.update({"JUPYTER_RUNTIME_DIR": str(home / "runtime"), "HOME": str(home), "PYTHONUNBUFFERED": "1"})
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                self.command(), env=self.environment(env), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, cwd=home,
            )  # fmt: skip

    def command(self) -> list[str]:
        raise NotImplementedError

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        return env

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        request = urllib.request.Request(
            f"{self.url}/api/kernelspecs", headers={"Authorization": f"token {self.token}"}
        )
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the {self.name} exited:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(request, timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"the {self.name} did not answer in {timeout}s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        """Stop the gateway and every kernel it started: its process group, and its children (Enterprise
        Gateway starts each kernel in a process group of the kernel's own)."""
        with contextlib.suppress(psutil.NoSuchProcess):
            self.children = psutil.Process(self.process.pid).children(recursive=True)
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # the gateway shuts its kernels down
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        for child in self.children:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()


class KernelGateway(Gateway):
    """``jupyter kernelgateway``, serving this venv's own ``python3`` kernelspec."""

    name = "kernel gateway"

    def command(self) -> list[str]:
        return [
            str(BIN / "jupyter-kernelgateway"),
            "--KernelGatewayApp.ip=127.0.0.1",
            f"--KernelGatewayApp.port={self.port}",
            f"--KernelGatewayApp.auth_token={self.token}",
            "--KernelGatewayApp.port_retries=0",
        ]


class EnterpriseGateway(Gateway):
    """``jupyter enterprisegateway`` from its own venv; its ``python3`` kernelspec runs this venv's python."""

    name = "enterprise gateway"

    def command(self) -> list[str]:
        return [
            str(enterprise_gateway_venv() / "bin" / "jupyter-enterprisegateway"),
            "--EnterpriseGatewayApp.ip=127.0.0.1",
            f"--EnterpriseGatewayApp.port={self.port}",
            f"--EnterpriseGatewayApp.auth_token={self.token}",
            "--EnterpriseGatewayApp.port_retries=0",
        ]

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        kernels = self.home / "share" / "jupyter"
        spec = {
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Python 3 (jupyter_mcp)",
            "language": "python",
            "metadata": {"process_proxy": {"class_name": LOCAL_PROCESS_PROXY}},
        }
        (kernels / "kernels" / "python3").mkdir(parents=True, exist_ok=True)
        (kernels / "kernels" / "python3" / "kernel.json").write_text(json.dumps(spec))
        # The tests may run as root, whom Enterprise Gateway refuses kernels by default.
        return {**env, "JUPYTER_PATH": str(kernels), "EG_UNAUTHORIZED_USERS": "nobody"}
