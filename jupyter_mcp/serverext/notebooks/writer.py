"""``CellWriter``: one running cell's state and outputs, written into the shared document as they come.

What JupyterLab's own Run does to a cell, done on the server: outputs cleared and the cell marked
running (``[*]``), each output appended as it arrives (consecutive stream text of one stream merged
into one output, ``clear_output`` with and without ``wait``, ``update_display_data`` by display id), then
the execution count. Each write finds the cell again by its id (a user or an agent may have moved it,
or closed and reopened the notebook meanwhile) in a transaction of its own, tagged ``OUTPUTS`` so an
agent's undo never takes outputs back. A cell deleted while it runs is simply no longer written to.
"""

from __future__ import annotations

import logging
from typing import Any

import nbformat

from jupyter_mcp.serverext.notebooks.documents import Documents

logger = logging.getLogger(__name__)

OUTPUTS = "jupyter-mcp:outputs"
"""The transaction origin of everything a run writes (never in an agent's undo)."""


class CellWriter:
    """Writes one cell's run into the notebook's document (and keeps its outputs as nbformat dicts)."""

    def __init__(self, documents: Documents, path: str, cell_id: str) -> None:
        self.documents = documents
        self.path = path
        self.cell_id = cell_id
        self.outputs: list[dict[str, Any]] = []
        self._clear_on_next = False
        self._displays: dict[str, list[int]] = {}

    async def start(self) -> None:
        def reset(ycell: Any) -> None:
            ycell["outputs"].clear()
            ycell["execution_count"] = None
            ycell["execution_state"] = "running"

        await self._write(reset)

    async def add(self, kind: str, message: dict[str, Any]) -> dict[str, Any] | None:
        """Take one IOPub message of the cell; the output it added (``None``: it cleared or updated)."""
        content = message["content"]
        if kind == "clear_output":
            if content.get("wait"):
                self._clear_on_next = True
            else:
                await self._clear()
            return None
        if self._clear_on_next:
            self._clear_on_next = False
            await self._clear()
        if kind == "update_display_data":
            await self._update(content)
            return None
        output: dict[str, Any] = dict(nbformat.v4.output_from_msg(message))  # type: ignore[no-untyped-call]
        display = (content.get("transient") or {}).get("display_id")
        await self._append(output, display if isinstance(display, str) else None)
        return output

    async def finish(self, execution_count: int | None) -> None:
        def done(ycell: Any) -> None:
            ycell["execution_count"] = execution_count
            ycell["execution_state"] = "idle"

        await self._write(done)

    async def died(self) -> None:
        why = "the kernel died while the cell ran"
        output: dict[str, Any] = {"output_type": "error", "ename": "KernelDied", "evalue": why, "traceback": [why]}
        await self._append(output, None)

    # ---- outputs --------------------------------------------------------------------------------

    async def _append(self, output: dict[str, Any], display: str | None) -> None:
        last = self.outputs[-1] if self.outputs else None
        merged = (
            output["output_type"] == "stream"
            and last is not None
            and last.get("output_type") == "stream"
            and last.get("name") == output.get("name")
        )
        if merged and last is not None:
            last["text"] = str(last["text"]) + str(output["text"])
        else:
            self.outputs.append(output)
            if display is not None:
                self._displays.setdefault(display, []).append(len(self.outputs) - 1)

        def write(ycell: Any) -> None:
            youtputs = ycell["outputs"]
            if merged and len(youtputs):
                text = youtputs[len(youtputs) - 1]["text"]
                text.insert(len(text), str(output["text"]))
            else:
                youtputs.append(_youtput(output))

        await self._write(write)

    async def _clear(self) -> None:
        self.outputs.clear()
        self._displays.clear()
        await self._write(lambda ycell: ycell["outputs"].clear())

    async def _update(self, content: dict[str, Any]) -> None:
        display = (content.get("transient") or {}).get("display_id")
        for index in self._displays.get(display, []) if isinstance(display, str) else []:
            self.outputs[index] = {
                **self.outputs[index],
                "data": content.get("data", {}),
                "metadata": content.get("metadata", {}),
            }
            updated = self.outputs[index]

            def write(ycell: Any, index: int = index, updated: dict[str, Any] = updated) -> None:
                if index < len(ycell["outputs"]):
                    ycell["outputs"][index] = _youtput(updated)

            await self._write(write)

    # ---- the document ---------------------------------------------------------------------------

    async def _write(self, change: Any) -> None:
        try:
            document = await self.documents.document(self.path)
        except Exception:  # the notebook is gone (deleted, renamed): the run goes on, unwritten
            logger.info("could not write the run of cell %s into %s", self.cell_id, self.path, exc_info=True)
            return
        with document.ydoc.transaction(origin=OUTPUTS):
            ycell = next((cell for cell in document.ycells if cell.get("id") == self.cell_id), None)
            if ycell is not None and ycell.get("cell_type") == "code":
                change(ycell)


def _youtput(output: dict[str, Any]) -> Any:
    """An output as the shared document holds it (a stream's text as shared text, as jupyter_ydoc makes it)."""
    from pycrdt import Map, Text

    value = dict(output)
    if value.get("output_type") == "stream":
        value["text"] = Text(str(value.get("text", "")))
    return Map(value)
