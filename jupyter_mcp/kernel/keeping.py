"""``KeptCalls``: the calls kept as tests in this notebook, loaded from and saved to its sidecar file.

A history observer: when a call is kept (``%mcp keep N``, the panel's "keep as test" button), it
is recorded as a test case and ``NAME.mcp-calls.json`` beside ``NAME.ipynb`` is rewritten, so the
kept calls outlive the kernel and ``jupyter-mcp export NAME.ipynb`` replays them too.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from jupyter_mcp.export.recorded import RecordedCall, read_sidecar, recorded_call, sidecar_path, write_sidecar
from jupyter_mcp.tools.calls.history import CallRecord, HistoryEvent

logger = logging.getLogger(__name__)


class KeptCalls:
    """The kept calls, oldest first; ``notebook`` is ``None`` when the kernel does not know its notebook."""

    def __init__(self, notebook: Path | None) -> None:
        self.notebook = notebook
        self.calls: list[RecordedCall] = []
        self.problem: str | None = None
        """Why the sidecar is neither read nor written (it exists but is not a kept-calls file)."""
        if notebook is not None:
            try:
                self.calls = read_sidecar(notebook)
            except ValueError as exc:
                self.problem = str(exc)

    @property
    def path(self) -> Path | None:
        """Where the kept calls are saved (``None``: kept in memory only)."""
        return sidecar_path(self.notebook) if self.notebook is not None and self.problem is None else None

    def __call__(self, event: HistoryEvent, record: CallRecord | None) -> None:
        if event == "kept" and record is not None:
            call = recorded_call(record)
            if not any(_same(call, kept) for kept in self.calls):  # a notebook run again keeps its calls again
                self.calls.append(call)
                self.save()

    def clear(self) -> None:
        self.calls = []
        self.save()

    def save(self) -> None:
        path = self.path
        if path is None or self.notebook is None:
            return
        try:
            if self.calls or path.exists():
                write_sidecar(self.notebook, self.calls)
        except OSError as exc:
            logger.warning("could not save the kept calls to %s: %s", path, exc)


def notebook_file(session_name: str | None) -> Path | None:
    """The notebook's file from ``JPY_SESSION_NAME`` (absolute from Jupyter; else relative to the kernel's cwd)."""
    if not session_name or not session_name.endswith(".ipynb"):
        return None
    path = Path(session_name)
    return path if path.is_absolute() else Path(os.getcwd()) / path.name


def _same(one: RecordedCall, other: RecordedCall) -> bool:
    return (one["tool"], one["arguments"], one["expect"]) == (other["tool"], other["arguments"], other["expect"])
