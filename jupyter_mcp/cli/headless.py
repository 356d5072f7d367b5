"""A kernel without a front end, for ``serve``: start it, run cells, keep its output off stdout.

Cell output (streams, results, tracebacks) and the kernel process's own stdout/stderr go to
``log`` (stderr or a log file), never to a stdio client's JSON-RPC stream.

Without a kernel name the kernel is the Python running ``jupyter-mcp`` (it has jupyter_mcp),
whatever ``python3`` kernelspec or ``python`` on PATH the user has; a name picks a kernelspec.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import re
import sys
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ParamSpec, TextIO, TypeVar, cast

from jupyter_mcp.cli.errors import CLIError

P = ParamSpec("P")
R = TypeVar("R")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_SHUTDOWN_TIMEOUT = 10.0


class HeadlessKernel:
    """One kernel started with jupyter_client; ``run`` returns the error a cell raised, if any."""

    def __init__(self, kernel_name: str | None, cwd: Path, env: Mapping[str, str], log: TextIO) -> None:
        from jupyter_client.manager import AsyncKernelManager

        from jupyter_mcp import discovery

        # Named like a Jupyter server's kernels, so discovery and `list` show a real kernel id.
        connection_file = discovery.runtime_dir() / f"kernel-{uuid.uuid4()}.json"
        self.manager = AsyncKernelManager(
            connection_file=str(connection_file), **_kernel_choice(kernel_name), **_encryption()
        )
        self.named = kernel_name is not None
        self.cwd = cwd
        self.env = dict(env)
        self.log = log
        self.client: Any = None
        self._drain: asyncio.Task[None] | None = None

    @property
    def kernel_id(self) -> str:
        return Path(self.manager.connection_file).stem.removeprefix("kernel-")

    def describe(self) -> str:
        """Which kernel this is, for the banner: the kernelspec's name and the program it runs."""
        from jupyter_client.kernelspec import NoSuchKernel

        if not self.named:
            return f"this Python ({sys.executable}, {sys.version.split()[0]})"
        name = self.manager.kernel_name
        try:
            spec = self.manager.kernel_spec
        except NoSuchKernel:
            raise CLIError(f"no kernel named {name!r} is installed (see: jupyter kernelspec list)") from None
        program = spec.argv[0] if spec is not None and spec.argv else "no command"
        return f"{name!r} ({program})"

    async def start(self) -> None:
        from jupyter_client.kernelspec import NoSuchKernel

        try:
            await self.manager.start_kernel(env=self.env, cwd=str(self.cwd), stdout=self.log, stderr=self.log)
        except NoSuchKernel:
            name = self.manager.kernel_name
            raise CLIError(f"no kernel named {name!r} is installed (see: jupyter kernelspec list)") from None
        self.client = self.manager.client()
        self.client.start_channels()
        try:
            await self.client.wait_for_ready(timeout=60)
        except RuntimeError as exc:
            raise CLIError(f"the kernel did not start: {exc}") from None

    async def run(self, code: str, *, silent: bool = False) -> dict[str, Any] | None:
        """Execute ``code``; its output goes to the log. Returns the error content when it raised."""
        failure: dict[str, Any] = {}

        def output(message: dict[str, Any]) -> None:
            if message["msg_type"] == "error":
                failure.update(message["content"])
            self._write_output(message)

        reply = await self.until_dead(
            self.client.execute_interactive(code, silent=silent, allow_stdin=False, output_hook=output)
        )
        if reply["content"]["status"] == "ok":
            return None
        return failure or dict(reply["content"])

    async def call(self, function: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """``function(*args, **kwargs)`` run in the kernel (a module-level function of ``jupyter_mcp.kernel``,
        its arguments and value Python literals); ``CLIError`` with the kernel's message if it raises."""
        inspect.signature(function).bind(*args, **kwargs)  # the same check here as the kernel's call will make
        given = [repr(value) for value in args] + [f"{key}={value!r}" for key, value in kwargs.items()]
        module, name = function.__module__, function.__name__
        return cast("R", await self.evaluate(f"__import__({module!r}, fromlist=[{name!r}]).{name}({', '.join(given)})"))

    async def evaluate(self, expression: str) -> Any:
        """The value of a Python literal ``expression`` in the kernel (a list of names, a number...)."""
        import ast

        reply = await self.until_dead(
            self.client.execute_interactive("", silent=True, user_expressions={"value": expression})
        )
        value = reply["content"]["user_expressions"]["value"]
        if value.get("status") != "ok":
            raise CLIError(f"the kernel could not evaluate {expression}: {value.get('evalue', value)}")
        return ast.literal_eval(value["data"]["text/plain"])

    async def until_dead(self, work: Any) -> Any:
        """Await ``work``, unless the kernel process dies first."""
        task = asyncio.ensure_future(work)
        death = asyncio.ensure_future(self.died())
        try:
            done, _ = await asyncio.wait({task, death}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            death.cancel()
        if task not in done:
            task.cancel()
            raise CLIError("the kernel died")
        return task.result()

    async def died(self, interval: float = 0.5) -> None:
        """Returns once the kernel process is gone."""
        while await self.manager.is_alive():  # noqa: ASYNC110 - a kernel process has no exit event to await
            await asyncio.sleep(interval)

    def follow_output(self) -> None:
        """Keep writing output the kernel produces later (threads, tools) to the log."""
        self._drain = asyncio.ensure_future(self._follow())

    async def _follow(self) -> None:
        while True:
            self._write_output(await self.client.get_iopub_msg())

    def _write_output(self, message: dict[str, Any]) -> None:
        kind, content = message["msg_type"], message["content"]
        if kind == "stream":
            text = content["text"]
        elif kind == "error":
            text = "\n".join(content.get("traceback", [])) + "\n"
        elif kind in ("execute_result", "display_data"):
            text = content.get("data", {}).get("text/plain", "") + "\n"
        else:
            return
        self.log.write(_ANSI.sub("", text))
        self.log.flush()

    async def shutdown(self) -> None:
        """Ask the kernel to exit (it removes its discovery file), killing it if it does not."""
        if self._drain is not None:
            self._drain.cancel()
        if self.client is not None:
            self.client.stop_channels()
        if self.manager.has_kernel:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.manager.shutdown_kernel(now=False), _SHUTDOWN_TIMEOUT)
        if await self.manager.is_alive():
            await self.manager.shutdown_kernel(now=True)


def _kernel_choice(kernel_name: str | None) -> dict[str, Any]:
    """``AsyncKernelManager`` options: the named kernelspec, or ipykernel on ``sys.executable``."""
    from jupyter_client.kernelspec import NATIVE_KERNEL_NAME, KernelSpecManager

    if kernel_name is not None:
        return {"kernel_name": kernel_name}
    # With no kernel directories to search, only ipykernel's own spec remains: this interpreter.
    return {"kernel_name": NATIVE_KERNEL_NAME, "kernel_spec_manager": KernelSpecManager(kernel_dirs=[])}


def _encryption() -> dict[str, Any]:
    """CurveZMQ keys for kernels that declare support (ipykernel 7), where jupyter_client can provision them.

    The kernel's channels are then encrypted, and ipykernel 7 no longer warns on stderr (which desktop
    clients show as an error log) that it "is running over TCP without encryption". Works on every
    platform, unlike the ipc transport; other kernels keep plain TCP on loopback, as in JupyterLab.
    """
    import zmq
    from jupyter_client.manager import AsyncKernelManager

    if "transport_encryption" not in AsyncKernelManager.class_trait_names() or not zmq.has("curve"):
        return {}  # jupyter_client < 8.9, or a libzmq without CURVE: kernels start as before
    return {"transport_encryption": "auto"}


def plain(text: str) -> str:
    """``text`` without terminal colour codes (tracebacks come coloured)."""
    return _ANSI.sub("", text)
