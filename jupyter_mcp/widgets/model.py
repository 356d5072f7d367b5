"""What the views show, computed from the server's state as plain data (``shapes.py``): no widgets, no HTML.

Each function reads the registry, the history, the stats, the approvals or the client tracker and
returns typed rows; the browser draws them (``labextension/src/ui``). Reading is cheap and
lock-light, so views may call these on every throttled refresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jupyter_mcp.shapes.status import PendingEntry, QuestionEntry
from jupyter_mcp.shapes.views import (
    CallDetail,
    CallRow,
    CallStatus,
    ClientRow,
    ComponentRow,
    ComponentStatus,
    LogRow,
    Outcome,
    SentPreview,
)
from jupyter_mcp.tools.budget.preview import format_size
from jupyter_mcp.tools.calls.calltext import short_arguments
from jupyter_mcp.tools.calls.history import outcome_parts, unkeepable
from jupyter_mcp.widgets.format import era_of, format_clock, format_duration

if TYPE_CHECKING:
    import mcp_types as mt

    from jupyter_mcp.tools.calls.events import ProgressEvent
    from jupyter_mcp.tools.calls.history import CallHistory, CallRecord
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.widgets.host import ServerHost

STATUSES: tuple[CallStatus, ...] = (
    "running",
    "waiting",
    "ok",
    "error",
    "refused",
    "timeout",
    "cancelled",
    "expired",
)
KINDS: tuple[Kind, ...] = ("tool", "resource", "prompt")
NOTEBOOK_WAITS = {
    "notebook/approve": "waiting for your approval in the notebook",
    "notebook/answer": "waiting for your answer in the notebook",
}
"""What a call waiting for the notebook user (not the client) waits for (``Approvals``' input keys)."""


def component_status(server: ServerHost, kind: Kind, component: Any) -> ComponentStatus:
    """``live`` or ``disabled`` while ``component`` is the registered one; else ``replaced``/``removed``."""
    registry = server.registry_of(kind)
    current = registry.all().get(component.key)
    if current is None:
        return "removed"
    if current is not component:
        return "replaced"
    return "live" if registry.is_visible(component) else "disabled"


def display_status(record: CallRecord) -> CallStatus:
    """The record's status, or ``refused`` when the notebook user (the pause, a read-only limit) turned it away."""
    decision = record.decision
    if record.status == "error" and decision is not None and decision.verdict == "denied":
        return "refused"
    return record.status


def call_row(record: CallRecord) -> CallRow:
    """The row for one call record (safe to call while another thread updates the record)."""
    latest = record.latest_progress
    fraction = None
    if record.status == "running" and latest is not None and latest.total:
        fraction = max(0.0, min(1.0, latest.progress / latest.total))
    status = display_status(record)
    return CallRow(
        id=record.id,
        number=record.number,
        time=format_clock(record.started_at),
        client=client_label(record),
        kind=record.kind,
        tool=record.tool,
        arguments=short_arguments(record.arguments),
        duration=format_duration(record.duration),
        status=status,
        progress=fraction,
        progress_text=_progress_text(record),
        error=_row_error(record.error, status),
        task=record.task_id or "",
    )


def _row_error(error: str | None, status: CallStatus) -> str:
    """The error's last line, unless it only says what the status already says ("cancelled")."""
    last = error.strip().splitlines()[-1] if error and error.strip() else ""
    return "" if status == "cancelled" and "cancel" in last.lower() else last


def client_label(record: CallRecord) -> str:
    """``name version`` of the client that called, or the source (``notebook``) for in-kernel calls."""
    if record.client_name:
        return f"{record.client_name} {record.client_version or ''}".strip()
    return record.source


def _progress_text(record: CallRecord) -> str:
    if record.status == "waiting":
        return waiting_text(record.waiting)
    latest = record.latest_progress
    if record.status != "running" or latest is None:
        return ""
    return progress_text(latest)


def progress_text(progress: ProgressEvent) -> str:
    """``3/10 rows read``; a bare 0 before a message is left out."""
    if progress.total:
        amount = f"{progress.progress:g}/{progress.total:g}"
    else:
        amount = "" if progress.progress == 0 and progress.message else f"{progress.progress:g}"
    return " ".join(part for part in (amount, progress.message or "") if part)


def waiting_text(waiting: dict[str, str]) -> str:
    """``waiting for the client: user_name (elicitation/create)``, or for the notebook user's approval."""
    for method, text in NOTEBOOK_WAITS.items():
        if method in waiting.values():
            return text
    asks = ", ".join(f"{key} ({method})" for key, method in waiting.items())
    return f"waiting for the client: {asks}" if asks else "waiting for the client"


def recent_records(
    history: CallHistory,
    *,
    kind: str | None = None,
    tool: str | None = None,
    status: str | None = None,
    limit: int = 20,
) -> list[CallRecord]:
    """The newest ``limit`` records (newest first), optionally of one kind, one name and one status.

    ``tool`` matches what was asked for (a name, a URI read) or what answered (a URI template).
    """
    picked: list[CallRecord] = []
    for record in reversed(list(history)):
        if _matches(record, kind, tool, status):
            picked.append(record)
            if len(picked) >= limit:
                break
    return picked


def _matches(record: CallRecord, kind: str | None, tool: str | None, status: str | None) -> bool:
    if kind is not None and record.kind != kind:
        return False
    if tool is not None and tool not in (record.tool, record.component):
        return False
    return status is None or display_status(record) == status


# ---- a call's detail ------------------------------------------------------------------------------


def outcome(structured: Any, content: list[dict[str, Any]], *, is_error: bool, error: str | None = None) -> Outcome:
    return Outcome(is_error=is_error or bool(error), error=error or "", structured=structured, content=content)


def result_outcome(result: mt.CallToolResult | mt.ReadResourceResult | mt.GetPromptResult) -> Outcome:
    """What a finished run returned, as the history would show it."""
    structured, blocks = outcome_parts(result)
    return outcome(structured, blocks, is_error=bool(getattr(result, "is_error", False)))


def call_detail(record: CallRecord) -> CallDetail:
    """Everything about one call: arguments, progress or result, preview, traceback, output, logs."""
    finished = record.status not in ("running", "waiting")
    keep, keep_note = _keep(record)
    return CallDetail(
        row=call_row(record),
        protocol=record.protocol_version or "",
        late=record.late or "",
        decision=record.decision.summary() if record.decision is not None else "",
        arguments=record.arguments,
        waiting=waiting_text(record.waiting) if record.status == "waiting" else "",
        outcome=outcome(record.structured, record.content, is_error=record.is_error, error=record.error)
        if finished
        else None,
        preview=_sent_preview(record),
        traceback=record.traceback or "",
        stdout=record.stdout,
        stderr=record.stderr,
        logs=[
            LogRow(time=format_clock(e.at), level=e.level, logger=e.logger or "", message=e.message)
            for e in record.logs
        ],
        keep=keep,
        keep_note=keep_note,
    )


def _keep(record: CallRecord) -> tuple[Any, str]:
    if record.kept:
        return "kept", "export replays it as a test"
    if record.status in ("running", "waiting"):
        return "no", ""
    reason = unkeepable(record)
    return ("can", "") if reason is None else ("no", f"Cannot be kept as a test: {reason}")


def _sent_preview(record: CallRecord) -> SentPreview | None:
    """Over the result budget: the client got a preview and a link, shown beside the full value."""
    preview = record.preview
    if preview is None:
        return None
    what, full = ("error", "its full text") if record.error is not None else ("result", "the full value")
    note = (
        f"The {what} is {format_size(preview.size)} as JSON, over the result budget of {format_size(preview.budget)}: "
        f"the client got a preview and a link to {full}, {preview.uri}."
    )
    return SentPreview(note=note, uri=preview.uri, content=preview.content)


# ---- the server panel's tables --------------------------------------------------------------------


def component_rows(server: ServerHost, kind: Kind = "tool") -> list[ComponentRow]:
    """Every registered component of ``kind`` with its call counters."""
    registry = server.registry_of(kind)
    counts = server.stats.snapshot(kind)
    rows = []
    for key, item in registry.all().items():
        stats = counts.get(key)
        rows.append(
            ComponentRow(
                key=key,
                kind=kind,
                detail=_detail(kind, item),
                enabled=registry.is_visible(item),
                calls=stats.calls if stats else 0,
                errors=stats.errors if stats else 0,
                refused=stats.refused if stats else 0,
                running=stats.running if stats else 0,
                mean_duration=format_duration(stats.mean_duration) if stats and stats.finished else "",
            )
        )
    return rows


def _detail(kind: Kind, item: Any) -> str:
    if kind == "resource":
        return str(item.mime_type or "")
    if kind == "prompt":
        return ", ".join(argument.name for argument in item.arguments)
    return ""


def client_rows(server: ServerHost) -> list[ClientRow]:
    """Connected clients, oldest connection first; several sessions of one client are one row."""
    limited = server.approvals.read_only_clients
    rows: dict[tuple[str, str], ClientRow] = {}
    for c in sorted(server.connected_clients(), key=lambda c: c["since"]):
        key = (c["name"], c["version"])
        if key in rows:
            rows[key]["sessions"] += 1
            continue
        rows[key] = ClientRow(
            name=c["name"],
            version=c["version"],
            era=era_of(c["protocol_version"]),
            kind=c["kind"],
            since=format_clock(c["since"]),
            sessions=1,
            read_only=c["name"] in limited,
        )
    return list(rows.values())


def waiting_for(server: ServerHost, tool: str | None = None) -> tuple[list[PendingEntry], list[QuestionEntry]]:
    """The calls and questions waiting for the notebook user (of one ``tool``, or all)."""
    approvals = server.approvals
    pending = [p.describe() for p in approvals.pending if tool is None or p.tool == tool]
    questions = [q.describe() for q in approvals.questions if tool is None or q.tool == tool]
    return pending, questions
