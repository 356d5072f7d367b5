"""``jupyter_run``: cells run on the notebook's kernel, their outputs written into the shared document.

The kernel is the notebook's session kernel, as JupyterLab's Run uses it (a session is started when the
notebook has none, so a tab opened later attaches to the same kernel). Each kernel has one client of
this extension's and one lock: runs on a kernel go in turn, cell by cell, and stop at the first error.
While a cell runs, each output goes into the document as it arrives (``CellWriter``), so an open tab
shows it at once and the document's autosave keeps it; the caller hears each one (``on_output``).
Cancelling the run interrupts the kernel; the cell's last outputs (the ``KeyboardInterrupt``) are still
written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import posixpath
import queue
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tornado import web

from jupyter_mcp.serverext.notebooks.documents import Documents
from jupyter_mcp.serverext.notebooks.writer import CellWriter
from jupyter_mcp.shapes.notebooks import RunStatus
from jupyter_mcp.tools.errors import ToolError

logger = logging.getLogger(__name__)

_POLL = 1.0
"""Seconds between looks at whether the kernel still lives while a cell is quiet."""
_DRAIN = 10.0
"""Seconds an interrupted cell's last outputs are waited for."""
_READY = 60.0
_OUTPUTS = frozenset({"stream", "display_data", "execute_result", "error", "update_display_data", "clear_output"})

OnOutput = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass
class CellRun:
    """What one cell's run gave."""

    id: str
    status: RunStatus
    execution_count: int | None
    outputs: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Kernel:
    client: Any
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    draining: asyncio.Task[None] | None = None
    """An interrupted cell's last outputs being read: the next run waits for it (one reader per client)."""


class Kernels:
    """The notebooks' kernels as the tools use them: found (or started) by session, one client each."""

    def __init__(self, serverapp: Any, documents: Documents) -> None:
        self.serverapp = serverapp
        self.documents = documents
        self._kernels: dict[str, _Kernel] = {}
        self._starting: dict[str, asyncio.Lock] = {}
        """One start at a time per notebook (two agents running cells at once get one kernel) and per kernel
        (one client each)."""

    async def of_notebook(self, path: str, *, start: bool) -> str | None:
        """The id of the notebook's session kernel; with ``start``, a session is started when it has none."""
        if not start:
            return await self._session_kernel(path)
        async with self._starting.setdefault(f"notebook:{path}", asyncio.Lock()):
            found = await self._session_kernel(path)
            if found is not None:
                return found
            name = await self._kernel_name(path)
            model = await self.serverapp.session_manager.create_session(
                path=path, name=posixpath.basename(path), type="notebook", kernel_name=name
            )
            return str(model["kernel"]["id"])

    async def _session_kernel(self, path: str) -> str | None:
        manager = self.serverapp.session_manager
        try:
            session = await manager.get_session(path=path)
        except web.HTTPError:
            session = None
        if session and session.get("kernel") and session["kernel"]["id"] in self.serverapp.kernel_manager:
            return str(session["kernel"]["id"])
        return None

    async def _kernel_name(self, path: str) -> str | None:
        from pycrdt import Map

        document = await self.documents.live(path)
        metadata = document.ydoc.get("meta", type=Map).to_py().get("metadata") or {}
        spec = metadata.get("kernelspec") if isinstance(metadata, dict) else None
        name = spec.get("name") if isinstance(spec, dict) else None
        return str(name) if name else None

    async def run(self, path: str, kernel_id: str, cells: list[tuple[str, str]], on_output: OnOutput) -> list[CellRun]:
        """Run ``cells`` (id, code) in order on the kernel; stop after the first that fails."""
        kernel = await self._client(kernel_id)
        runs: list[CellRun] = []
        async with self.documents.idle.holding(path), kernel.lock:
            if kernel.draining is not None:
                await asyncio.shield(kernel.draining)
            for cell_id, code in cells:
                writer = CellWriter(self.documents, path, cell_id)
                run = await self._cell(kernel_id, kernel, writer, code, on_output)
                runs.append(run)
                if run.status != "ok":
                    break
        return runs

    async def _client(self, kernel_id: str) -> _Kernel:
        async with self._starting.setdefault(f"kernel:{kernel_id}", asyncio.Lock()):
            known = self._kernels.get(kernel_id)
            if known is not None:
                return known
            client = self.serverapp.kernel_manager.get_kernel(kernel_id).client()
            client.start_channels()
            try:
                await client.wait_for_ready(timeout=_READY)
            except RuntimeError as error:
                client.stop_channels()
                raise ToolError(f"the notebook's kernel did not become ready: {error}") from None
            kernel = self._kernels[kernel_id] = _Kernel(client)
            return kernel

    async def _cell(
        self, kernel_id: str, kernel: _Kernel, writer: CellWriter, code: str, on_output: OnOutput
    ) -> CellRun:
        client = kernel.client
        await writer.start()
        msg_id = client.execute(code, store_history=True, allow_stdin=False, stop_on_error=True)
        try:
            await self._outputs(kernel_id, client, msg_id, writer, on_output)
        except asyncio.CancelledError:
            kernel.draining = asyncio.ensure_future(self._interrupt(kernel_id, client, msg_id, writer))
            raise
        reply = await self._reply(client, msg_id)
        count = reply.get("execution_count") if isinstance(reply.get("execution_count"), int) else None
        await writer.finish(count)
        return CellRun(writer.cell_id, _status(reply, writer.outputs), count, writer.outputs)

    async def _outputs(self, kernel_id: str, client: Any, msg_id: str, writer: CellWriter, on_output: OnOutput) -> None:
        while True:
            try:
                message = await client.get_iopub_msg(timeout=_POLL)
            except queue.Empty:
                if not await self._alive(kernel_id):
                    await writer.died()
                    return
                continue
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = message["header"]["msg_type"]
            if kind == "status" and message["content"].get("execution_state") == "idle":
                return
            if kind in _OUTPUTS:
                output = await writer.add(kind, message)
                if output is not None:
                    await on_output(writer.cell_id, output)

    async def _reply(self, client: Any, msg_id: str) -> dict[str, Any]:
        while True:
            try:
                message = await client.get_shell_msg(timeout=_POLL * 5)
            except queue.Empty:
                return {"status": "error"}
            if message.get("parent_header", {}).get("msg_id") == msg_id:
                return dict(message["content"])

    async def _interrupt(self, kernel_id: str, client: Any, msg_id: str, writer: CellWriter) -> None:
        """The caller went away: interrupt the kernel, and write the cell's last outputs (the
        ``KeyboardInterrupt``) before the kernel's next run reads from the client."""

        async def ignore(cell_id: str, output: dict[str, Any]) -> None:
            return None

        with contextlib.suppress(Exception):
            await self.serverapp.kernel_manager.interrupt_kernel(kernel_id)
            await asyncio.wait_for(self._outputs(kernel_id, client, msg_id, writer, ignore), _DRAIN)
            await self._reply(client, msg_id)
        with contextlib.suppress(Exception):
            await writer.finish(None)

    async def _alive(self, kernel_id: str) -> bool:
        try:
            return bool(await self.serverapp.kernel_manager.get_kernel(kernel_id).is_alive())
        except KeyError:
            return False

    async def kernel_action(self, logger: Any, schema_id: str, data: dict[str, Any]) -> None:
        """jupyter_server's kernel-action event: a shut-down kernel's client is closed (jupyter_events passes
        ``logger``, ``schema_id`` and ``data`` by name)."""
        if data.get("action") == "shutdown" and data.get("kernel_id"):
            self.forget(str(data["kernel_id"]))

    def forget(self, kernel_id: str) -> None:
        kernel = self._kernels.pop(kernel_id, None)
        if kernel is not None:
            kernel.client.stop_channels()

    def close(self) -> None:
        for kernel_id in list(self._kernels):
            self.forget(kernel_id)


def _status(reply: dict[str, Any], outputs: list[dict[str, Any]]) -> RunStatus:
    if reply.get("status") == "ok":
        return "ok"
    if reply.get("ename") == "KeyboardInterrupt" or any(o.get("ename") == "KeyboardInterrupt" for o in outputs):
        return "interrupted"
    return "error"
