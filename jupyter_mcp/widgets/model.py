"""What the panels show, computed from the server's state as plain data (no widgets, no HTML).

Each function reads the registry, the history, the stats or the client tracker and returns typed
rows; the views turn rows into HTML. Reading is cheap and lock-light, so panels may call these on
every throttled refresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypedDict

from jupyter_mcp.widgets.format import era_of, format_clock, format_duration, short_arguments

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.events import ProgressEvent
    from jupyter_mcp.tools.calls.history import CallHistory, CallRecord
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.widgets.host import ServerHost

ToolStatus = Literal["live", "disabled", "replaced", "removed"]
STATUSES = ("running", "waiting", "ok", "error", "timeout", "cancelled", "expired")
KINDS: tuple[Kind, ...] = ("tool", "resource", "prompt")


class CallRow(TypedDict):
    """One call as a history row."""

    id: str
    time: str
    client: str
    kind: str
    """``tool``, ``resource`` (``tool`` is then the URI read) or ``prompt``."""
    tool: str
    arguments: str
    duration: str
    status: str
    progress: float | None
    """Fraction done (0..1) of a running call that reported progress with a total."""
    progress_text: str
    """Progress of a running call, or what a waiting call waits for."""
    error: str
    task: str
    """The task id when the call became a task (the tasks extension), else ``""``."""


class ToolRow(TypedDict):
    """One tool, resource or prompt in the server panel's tables."""

    name: str
    """What the table shows: a tool's or prompt's name, a resource's URI (or URI template)."""
    kind: str
    detail: str
    """A resource's MIME type, a prompt's arguments; empty for tools."""
    enabled: bool
    calls: int
    errors: int
    running: int
    mean_duration: str


class ClientRow(TypedDict):
    """One connected client."""

    name: str
    version: str
    era: str
    kind: str
    since: str


def component_status(server: ServerHost, kind: Kind, component: Any) -> ToolStatus:
    """``live`` or ``disabled`` while ``component`` is the registered one; else ``replaced``/``removed``."""
    registry = server.registry_of(kind)
    current = registry.all().get(component.key)
    if current is None:
        return "removed"
    if current is not component:
        return "replaced"
    return "live" if registry.is_visible(component) else "disabled"


def call_row(record: CallRecord) -> CallRow:
    """The row for one call record (safe to call while another thread updates the record)."""
    latest = record.latest_progress
    fraction = None
    if record.status == "running" and latest is not None and latest.total:
        fraction = max(0.0, min(1.0, latest.progress / latest.total))
    return CallRow(
        id=record.id,
        time=format_clock(record.started_at),
        client=client_label(record),
        kind=record.kind,
        tool=record.tool,
        arguments=short_arguments(record.arguments),
        duration=format_duration(record.duration),
        status=record.status,
        progress=fraction,
        progress_text=_progress_text(record),
        error=(record.error or "").strip().splitlines()[-1] if record.error else "",
        task=record.task_id or "",
    )


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
    """``3/10 rows read``; a bare 0 before a message is left out (``waiting for approval in the notebook``)."""
    if progress.total:
        amount = f"{progress.progress:g}/{progress.total:g}"
    else:
        amount = "" if progress.progress == 0 and progress.message else f"{progress.progress:g}"
    return " ".join(part for part in (amount, progress.message or "") if part)


def waiting_text(waiting: dict[str, str]) -> str:
    """``waiting for the client: user_name (elicitation/create)``."""
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
    return status is None or record.status == status


def tool_rows(server: ServerHost, kind: Kind = "tool") -> list[ToolRow]:
    """Every registered component of ``kind`` with its call counters."""
    registry = server.registry_of(kind)
    counts = server.stats.snapshot(kind)
    rows = []
    for key, item in registry.all().items():
        stats = counts.get(key)
        rows.append(
            ToolRow(
                name=key,
                kind=kind,
                detail=_detail(kind, item),
                enabled=registry.is_visible(item),
                calls=stats.calls if stats else 0,
                errors=stats.errors if stats else 0,
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
    """Connected clients, oldest connection first."""
    clients = sorted(server.connected_clients(), key=lambda c: c.since)
    return [
        ClientRow(
            name=c.name,
            version=c.version,
            era=era_of(c.protocol_version),
            kind=c.kind,
            since=format_clock(c.since),
        )
        for c in clients
    ]
