"""The notebook tools themselves: ``jupyter_notebooks``, ``jupyter_read``, ``jupyter_edit``, ``jupyter_run``,
``jupyter_create``, registered on the extension's own ``ToolServer``.

Each call checks the mode first (``modes``), so a switch in the sidebar applies to the next call; an
edit or a run that needs the notebook user's approval waits in the server's approvals
(``ctx.ask_approval``) with its diff or its code, and changes nothing unless allowed. An answer is one
JSON text block (its structured content, for clients that read only text) and the output images after
it.
"""

from __future__ import annotations

import posixpath
import time
from typing import Annotated, Any, Protocol

import mcp_types as mt
import nbformat
from jupyter_core.utils import ensure_async
from pydantic import Field

from jupyter_mcp.serverext.notebooks import edits, granted
from jupyter_mcp.serverext.notebooks.agents import Agents
from jupyter_mcp.serverext.notebooks.cells import BadSelection, Cell, Cells, select
from jupyter_mcp.serverext.notebooks.documents import Documents, normalized
from jupyter_mcp.serverext.notebooks.edits import Op
from jupyter_mcp.serverext.notebooks.identity import agent_name
from jupyter_mcp.serverext.notebooks.listing import Serving, notebooks
from jupyter_mcp.serverext.notebooks.modes import Action, NotebookModes
from jupyter_mcp.serverext.notebooks.outputs import Outputs
from jupyter_mcp.serverext.notebooks.runs import Kernels
from jupyter_mcp.shapes.notebooks import NotebookCell, ReadReply, RunCell
from jupyter_mcp.shapes.status import ApprovalDetail
from jupyter_mcp.tools import Context, ToolError, ToolResult, ToolServer, codec

_PAGE_SHARE = 0.8
"""Of the result budget, what a page of ``jupyter_read`` fills before it stops (the rest: the envelope)."""
_PROGRESS_EVERY = 0.2

Path = Annotated[str, Field(description="The notebook's path under the server's root, as jupyter_notebooks lists it.")]


class Workbench(Protocol):
    """What the tools work with (``host.NotebookTools`` is one)."""

    serverapp: Any
    modes: NotebookModes
    serving: Serving
    documents: Documents
    kernels: Kernels
    agents: Agents

    def outputs(self, call_id: str) -> Outputs: ...


READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False}


def register(server: ToolServer, host: Workbench) -> None:
    """Add the five tools to ``server``, each working on ``host``'s notebooks."""
    for add in (_notebooks, _read, _edit, _run, _create):
        add(server, host)


def _notebooks(server: ToolServer, host: Workbench) -> None:
    @server.tool(annotations=READ_ONLY, title="List notebooks")
    async def jupyter_notebooks(ctx: Context) -> ToolResult:
        """List the notebooks under this Jupyter server's root: each one's path, whether it is open in a
        JupyterLab tab, its kernel (id, state, busy), whether it serves tools of its own (and their prefix),
        the agents working in it, and what the notebook tools may do here (mode, confirm)."""
        host.modes.check("read", "jupyter_notebooks")
        entries, truncated = await notebooks(host.serverapp, host.documents, host.agents, host.serving)
        entries = [entry for entry in entries if granted.reaches(entry["path"])]
        mode = host.modes.effective()
        return _answer({"notebooks": entries, "mode": mode, "confirm": host.modes.confirm, "truncated": truncated})


def _read(server: ToolServer, host: Workbench) -> None:
    @server.tool(annotations=READ_ONLY, title="Read a notebook")
    async def jupyter_read(
        path: Path,
        ctx: Context,
        cells: Annotated[
            list[str] | str | None,
            Field(
                description="Which cells: a list of cell ids, or an index range like '0:20' or '-5:'; all if absent."
            ),
        ] = None,
    ) -> ToolResult:
        """Read a notebook's cells in order: each one's id, index, type, source, execution count, version and
        outputs (text with its head and tail, images downscaled, rich outputs summarised; the whole output
        behind a result:// link when cut). Edits name cells by id and carry the version read here. A long
        notebook comes in pages: the answer's `next` is the `cells` range to read next."""
        path = _allowed(host, "read", "jupyter_read", path)
        read = await host.documents.read(path)
        await host.agents.seen(agent_name(ctx), path)
        try:
            chosen = select(read.cells, cells)
        except BadSelection as error:
            raise ToolError(str(error)) from None
        budget = server.settings.result_budget
        renderer = host.outputs(ctx.call_id)
        views: list[NotebookCell] = []
        size = 0
        for cell in chosen:
            before = len(renderer.blocks)
            view = _cell_view(cell, renderer)
            size += len(codec.dumps(view)) + sum(len(block.data) for block in renderer.blocks[before:])
            if views and budget is not None and size > budget * _PAGE_SHARE:
                del renderer.blocks[before:]
                break
            views.append(view)
        reply: ReadReply = {"path": path, "cells": views, "total_cells": len(read.cells), "live": read.live}
        rest = chosen[len(views) :]
        if rest:
            reply["next"] = (
                [cell.id for cell in rest] if isinstance(cells, list) else f"{rest[0].index}:{rest[-1].index + 1}"
            )
        return _answer(dict(reply), renderer.blocks)


def _edit(server: ToolServer, host: Workbench) -> None:
    @server.tool(annotations={"destructiveHint": True, "openWorldHint": False}, title="Edit a notebook")
    async def jupyter_edit(path: Path, ops: list[Op], ctx: Context) -> ToolResult:
        """Change a notebook's cells, as one change, all or nothing: `insert` (`after` a cell id, or null for
        the start; `cell_type`; `source`), `replace` (`id`, `version`; `source` and/or `cell_type`), `delete`
        (`id`, `version`), `move` (`id`, `after`). A cell that changed since you read it (its version differs)
        refuses the whole batch, with the cell as it is now. Returns each touched cell's id and new version.
        The notebook's open tabs show the change at once."""
        path = _allowed(host, "edit", "jupyter_edit", path)
        document = await host.documents.live(path)
        agent = await host.agents.seen(agent_name(ctx), path)
        cells = Cells.live(document)
        steps = edits.plan(cells, ops)
        if host.modes.needs_approval("edit"):
            detail: ApprovalDetail = {
                "kind": "diff",
                "title": f"Edit of {path} ({_count(len(ops), 'operation')})",
                "text": edits.describe(cells, steps),
            }
            await ctx.ask_approval({"path": path, "ops": f"[{_count(len(ops), 'operation')}]"}, detail)
            document = await host.documents.live(path)
        touched = edits.apply(document, ops, host.agents.editing(agent, document))
        return _answer({"path": path, "touched": touched, "total_cells": len(document.ycells)})


def _run(server: ToolServer, host: Workbench) -> None:
    @server.tool(annotations={"destructiveHint": True, "openWorldHint": True}, title="Run cells", task=True)
    async def jupyter_run(
        path: Path,
        ids: Annotated[list[str], Field(description="The ids of the cells to run, in the order to run them.")],
        ctx: Context,
    ) -> ToolResult:
        """Run cells on the notebook's kernel (started if the notebook has none), as JupyterLab's Run does:
        outputs appear in the open tab as they come and are saved with the notebook. Stops at the first cell
        that fails. Answers each cell's execution count, status (ok, error, interrupted) and outputs, as
        jupyter_read shows them; outputs arrive as progress meanwhile. Cancelling the call interrupts the
        kernel."""
        path = _allowed(host, "run", "jupyter_run", path)
        document = await host.documents.live(path)
        await host.agents.seen(agent_name(ctx), path)
        try:
            chosen = select(Cells.live(document), ids)
        except BadSelection as error:
            raise ToolError(str(error)) from None
        code = [(cell.id, cell.source) for cell in chosen if cell.cell_type == "code"]
        if not code:
            raise ToolError("none of these cells is a code cell: there is nothing to run")
        if host.modes.needs_approval("run"):
            text = "\n\n".join(f"# cell {cell_id}\n{source}" for cell_id, source in code)
            detail: ApprovalDetail = {
                "kind": "code",
                "title": f"Run of {_count(len(code), 'cell')} in {path}",
                "text": text,
            }
            await ctx.ask_approval({"path": path, "ids": [cell_id for cell_id, _ in code]}, detail)
        kernel_id = await host.kernels.of_notebook(path, start=True)
        assert kernel_id is not None
        progress = _Progress(ctx, len(code))
        runs = await host.kernels.run(path, kernel_id, code, progress.output)
        renderer = host.outputs(ctx.call_id)
        after = Cells.live(await host.documents.document(path))
        results: list[RunCell] = [
            {
                "id": run.id,
                "execution_count": run.execution_count,
                "status": run.status,
                "version": cell.version if (cell := after.find(run.id)) is not None else "",
                "outputs": renderer.entries(run.outputs),
            }
            for run in runs
        ]
        return _answer({"path": path, "kernel_id": kernel_id, "cells": results}, renderer.blocks)


def _create(server: ToolServer, host: Workbench) -> None:
    @server.tool(
        annotations={"destructiveHint": False, "idempotentHint": False, "openWorldHint": False}, title="New notebook"
    )
    async def jupyter_create(
        path: Path,
        ctx: Context,
        kernel_name: Annotated[
            str | None, Field(description="The kernel to record in it (e.g. python3); the server's default if absent.")
        ] = None,
    ) -> ToolResult:
        """Create a new, empty notebook at `path` (refused if something is there already)."""
        path = _allowed(host, "edit", "jupyter_create", path)
        if not path.endswith(".ipynb"):
            raise ToolError(f"{path!r}: a notebook's path ends in .ipynb")
        manager = host.serverapp.contents_manager
        if await ensure_async(manager.exists(path)):
            raise ToolError(f"{path!r} exists already: jupyter_create makes new notebooks only")
        folder = posixpath.dirname(path)
        if folder and not await ensure_async(manager.dir_exists(folder)):
            raise ToolError(f"no folder {folder!r} under the server's root")
        name = kernel_name or host.serverapp.kernel_manager.default_kernel_name
        specs = host.serverapp.kernel_spec_manager.get_all_specs()
        if name not in specs:
            raise ToolError(f"no kernel named {name!r}; the kernels here: {', '.join(sorted(specs))}")
        notebook = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
        spec = specs[name]["spec"]
        notebook.metadata["kernelspec"] = {
            "name": name,
            "display_name": spec.get("display_name", name),
            "language": spec.get("language", ""),
        }
        await ensure_async(manager.save({"type": "notebook", "format": "json", "content": notebook}, path))
        await host.agents.seen(agent_name(ctx), path)
        return _answer({"path": path, "kernel_name": name, "cells": []})


def _allowed(host: Workbench, action: Action, tool: str, path: str) -> str:
    """``path`` normalized, once the mode and the client's grant allow ``tool`` to ``action`` there (a
    ``ToolError`` saying how to allow it if not)."""
    host.modes.check(action, tool)
    path = normalized(path)
    granted.check(path, tool)
    return path


def _cell_view(cell: Cell, renderer: Outputs) -> NotebookCell:
    return {**edits.cell_view(cell), "outputs": renderer.entries(cell.outputs)}


def _answer(structured: dict[str, Any], images: list[mt.ImageContent] | None = None) -> ToolResult:
    text = mt.TextContent(type="text", text=codec.dumps(structured).decode())
    return ToolResult(content=[text, *(images or [])], structured_content=structured)


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


class _Progress:
    """A run's outputs as the client's progress: cells done of all, the latest output's first line."""

    def __init__(self, ctx: Context, total: int) -> None:
        self.ctx = ctx
        self.total = total
        self.cells: set[str] = set()
        self._last = 0.0

    async def output(self, cell_id: str, output: dict[str, Any]) -> None:
        self.cells.add(cell_id)
        now = time.monotonic()
        if now - self._last < _PROGRESS_EVERY:
            return
        self._last = now
        text = str(output.get("text") or output.get("evalue") or output.get("output_type", ""))
        line = text.strip().splitlines()[-1][:200] if text.strip() else output.get("output_type", "")
        await self.ctx.report_progress(len(self.cells) - 1, self.total, f"cell {cell_id}: {line}")
