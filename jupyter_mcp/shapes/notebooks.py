"""The notebook tools' shapes: what ``jupyter_read``, ``jupyter_edit`` and ``jupyter_run`` answer an MCP
client (their structured content), and what ``/api/mcp/notebook-tools`` tells JupyterLab's sidebar.

A cell is ``{id, index, cell_type, source, execution_count, version, outputs}``; its ``version`` changes
whenever its source, type or outputs change, and every edit that names a cell carries the version it read.
"""

# No ``from __future__ import annotations``: typing_extensions' TypedDict sees ``NotRequired`` only when the
# annotations are evaluated as the class is made (the TypeScript shapes and pydantic read the optional keys).
from typing import Literal, NotRequired

from typing_extensions import TypedDict

CellType = Literal["code", "markdown", "raw"]
RunStatus = Literal["ok", "error", "interrupted"]
NotebookToolsMode = Literal["off", "read", "edit", "run"]
NotebookToolsConfirm = Literal["edits_and_runs", "runs", "never"]


class OutputEntry(TypedDict):
    """One output of a code cell, as a client reads it (the full output stays in the notebook)."""

    output_type: str
    """``stream``, ``execute_result``, ``display_data`` or ``error``."""
    text: NotRequired[str]
    """Its text (ANSI colours removed; a long one cut to its head and tail, the full text at ``link``)."""
    mime_types: NotRequired[list[str]]
    """The MIME types of a rich output (``text/html``, ``image/png``, a widget's ...)."""
    summary: NotRequired[str]
    """What a rich output is when it is not shown as text or an image: ``text/html, 12.3 kB``."""
    image: NotRequired[int]
    """The index, in the result's content, of the image block that shows it (downscaled to fit)."""
    link: NotRequired[str]
    """``result://...``: the whole output (``resources/read``), when what is shown here is cut or smaller."""


class NotebookCell(TypedDict):
    """A cell of a notebook."""

    id: str
    index: int
    cell_type: CellType
    source: str
    execution_count: int | None
    version: str
    """Changes whenever the cell's source, type or outputs change (a short hash of them)."""
    outputs: list[OutputEntry]


class ReadReply(TypedDict):
    """``jupyter_read``: the cells asked for, in order."""

    path: str
    cells: list[NotebookCell]
    total_cells: int
    next: NotRequired[list[str] | str]
    """What to pass as ``cells`` to read on, when this answer stopped before the end to stay within its budget."""
    live: bool
    """Read from the live shared document (what an open tab shows); ``false``: from the file on disk."""


class TouchedCell(TypedDict):
    """A cell an edit touched: its id and its new version (``null`` once deleted)."""

    id: str
    op: Literal["insert", "replace", "delete", "move"]
    version: str | None
    index: int | None


class EditReply(TypedDict):
    """``jupyter_edit``: what changed, applied as one change."""

    path: str
    touched: list[TouchedCell]
    total_cells: int


class RunCell(TypedDict):
    """A cell ``jupyter_run`` ran."""

    id: str
    execution_count: int | None
    status: RunStatus
    version: str
    outputs: list[OutputEntry]


class RunReply(TypedDict):
    """``jupyter_run``: each cell, in the order they ran (a cell after an error is not run)."""

    path: str
    kernel_id: str
    cells: list[RunCell]


class KernelEntry(TypedDict):
    """A notebook's kernel, as ``jupyter_notebooks`` lists it."""

    id: str
    name: str
    state: str
    """``idle``, ``busy``, ``starting`` ... (the kernel manager's ``execution_state``)."""
    busy: bool


class NotebookEntry(TypedDict):
    """A notebook under the server's root, as ``jupyter_notebooks`` lists it."""

    path: str
    last_modified: str | None
    open: bool
    """Open in a JupyterLab tab (its shared document has a browser connected)."""
    kernel: KernelEntry | None
    serves_tools: bool
    prefix: str | None
    """The prefix its own tools carry at ``/mcp`` (``sales_forecast``), when it serves some."""
    agents: list[str]
    """The MCP clients working in it now."""


class NotebooksReply(TypedDict):
    """``jupyter_notebooks``: the notebooks a client may see, and what the notebook tools may do."""

    notebooks: list[NotebookEntry]
    mode: NotebookToolsMode
    confirm: NotebookToolsConfirm
    truncated: bool
    """More notebooks exist than were listed (the listing stops at a bound)."""


class AgentEntry(TypedDict):
    """An MCP client working in a notebook, as the sidebar lists it."""

    name: str
    notebook_path: str
    since: float
    last_seen: float
    edits: int
    """Changes of its in this notebook that ``undo`` can still take back, newest last."""


class NotebookToolsReply(TypedDict):
    """``GET /api/mcp/notebook-tools``: the notebook tools' modes (``POST`` switches them) and the agents at work."""

    mode: NotebookToolsMode
    confirm: NotebookToolsConfirm
    collaboration: bool
    """Real-time collaboration is on (jupyter-server-ydoc): edits and runs go through the live document."""
    agents: list[AgentEntry]


class NotebookToolsSwitch(TypedDict, total=False):
    """``POST /api/mcp/notebook-tools``: switch what agents may do, or which of their calls wait (either or both)."""

    mode: NotebookToolsMode
    confirm: NotebookToolsConfirm


class UndoEdit(TypedDict):
    """``POST /api/mcp/notebook-tools/undo``: take back an agent's last edit of a notebook (and only its own)."""

    agent: str
    notebook: str
