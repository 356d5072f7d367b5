"""``NotebookServer.export``: this notebook's saved cells as a standalone server, its kept calls as tests."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from jupyter_mcp.export import ExportResult, RecordedCall, export_notebook
from jupyter_mcp.export.check import server_listing
from jupyter_mcp.export.recorded import recorded_call
from jupyter_mcp.kernel.keeping import KeptCalls
from jupyter_mcp.notebookfile import read
from jupyter_mcp.tools.calls.history import CallHistory, CallRecord, unkeepable
from jupyter_mcp.tools.server import ToolServer


def export_session(
    server: ToolServer,
    kept: KeptCalls,
    history: CallHistory,
    directory: Path,
    *,
    keep: Iterable[int | str] | None,
    tagged: bool,
    dockerfile: bool,
    name: str | None,
    check: bool,
) -> ExportResult:
    """Export the notebook file this kernel runs, comparing the export's tools with the ones served here."""
    notebook = kept.notebook
    if notebook is None:
        raise ValueError("this kernel does not know its notebook (no JPY_SESSION_NAME): run it from a notebook")
    calls = kept.calls if keep is None else [recorded_call(_keepable(history, c)) for c in keep]
    return export_notebook(
        read(notebook, tagged=tagged),
        directory,
        name=name,
        calls=calls,
        listing=server_listing(server),
        dockerfile=dockerfile,
        check=check,
    )


def _keepable(history: CallHistory, call: int | str) -> CallRecord:
    record = history.by_number(call) if isinstance(call, int) else history.get(call)
    if record is None:
        raise ValueError(f"no call {call!r} in the history")
    reason = unkeepable(record)
    if reason is not None:
        raise ValueError(f"call #{record.number} cannot be kept as a test: {reason}")
    return record


def kept_lines(calls: list[RecordedCall]) -> list[str]:
    """One line per kept call, for ``%mcp keep``."""
    return [
        f"{index}. {call['tool']}({', '.join(f'{k}={v!r}' for k, v in call['arguments'].items())})"
        + (f"  (call #{call['call']}, {call.get('recorded_at', '')})" if "call" in call else "")
        for index, call in enumerate(calls, 1)
    ]
