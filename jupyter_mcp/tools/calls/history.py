"""``CallHistory``: every tool call, resource read and prompt get as a ``CallRecord``, bounded, observable,
safe across threads."""

from __future__ import annotations

import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import mcp_types as mt

from jupyter_mcp.tools.calls.calltext import call_text
from jupyter_mcp.tools.calls.clipped import ClippedText
from jupyter_mcp.tools.calls.events import (
    BaseCallObserver,
    CallFinished,
    CallOutcome,
    CallStarted,
    Decision,
    InputWait,
    LateResult,
    LogEvent,
    PreviewSent,
    ProgressEvent,
    TaskCreated,
    era_of,
)
from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.components.results import jsonable
from jupyter_mcp.tools.observers import Observers

RecordStatus = Literal["running", "waiting", "ok", "error", "timeout", "cancelled", "expired"]
"""``waiting``: the call waits for the client's answers to its input requests (``CallRecord.waiting``)."""
HistoryEvent = Literal["started", "updated", "finished", "cleared", "kept"]
HistoryObserver = Callable[[HistoryEvent, "CallRecord | None"], None]
TRUNCATED = "…[truncated {} more characters]"
TRUNCATED_PATTERN = re.compile(r"…\[truncated \d+ more characters\]$")


@dataclass(frozen=True)
class SentPreview:
    """The client got a preview of this result (``content``) and a link to the full value at ``uri``."""

    uri: str
    size: int
    """Bytes of the full result as JSON."""
    budget: int
    content: list[dict[str, Any]]


@dataclass
class CallRecord:
    """One call, read or prompt get, as it happened. Mutated only by ``CallHistory`` (and the output capture).

    ``tool`` is what was asked for: a tool's or prompt's name, or the URI read (``kind`` says which).
    """

    id: str
    tool: str
    arguments: dict[str, Any]
    started_at: float
    source: str
    kind: Kind = "tool"
    component: str | None = None
    """The registry key of what answered (the template of a templated read); ``None`` if nothing did."""
    client_name: str | None = None
    client_version: str | None = None
    protocol_version: str | None = None
    status: RecordStatus = "running"
    duration: float | None = None
    structured: Any = None
    content: list[dict[str, Any]] = field(default_factory=list)
    is_error: bool = False
    error: str | None = None
    traceback: str | None = None
    output: dict[str, ClippedText] = field(default_factory=dict, repr=False)
    """Captured ``stdout``/``stderr`` text, head and tail kept within the history's budget."""
    progress: list[ProgressEvent] = field(default_factory=list)
    logs: list[LogEvent] = field(default_factory=list)
    late: str | None = None
    """Set when a timed-out sync tool finally returned: its result was discarded."""
    number: int = 0
    """The call's place in this history, from 1 (what ``%mcp history`` shows and ``%mcp keep`` takes)."""
    kept: bool = False
    """Kept as a test: ``export`` replays it (``CallHistory.keep``)."""
    preview: SentPreview | None = None
    """Set when the result was over the result budget: ``structured``/``content`` hold the full value,
    this what the client got instead."""
    decision: Decision | None = None
    """Who allowed or denied the call, how and when, when it needed the notebook user's approval."""
    waiting: dict[str, str] = field(default_factory=dict)
    """Input requests the call waits on, key -> method (``elicitation/create``, ...)."""
    task_id: str | None = None
    """Set when the call became a task (the tasks extension): clients poll it by this id."""

    @property
    def era(self) -> str | None:
        return era_of(self.protocol_version) if self.protocol_version is not None else None

    @property
    def stdout(self) -> str:
        return self._output("stdout")

    @property
    def stderr(self) -> str:
        return self._output("stderr")

    def _output(self, stream: str) -> str:
        text = self.output.get(stream)
        return str(text) if text is not None else ""

    @property
    def latest_progress(self) -> ProgressEvent | None:
        return self.progress[-1] if self.progress else None


class CallHistory(BaseCallObserver):
    """The last ``maxlen`` calls, oldest first. A ``CallObserver`` for the tool layer.

    Observers get ``(event, record)`` synchronously on the thread that caused it; keep them quick.
    """

    def __init__(self, maxlen: int = 1000, max_payload: int = 100_000) -> None:
        if maxlen < 1:
            raise ValueError("history size must be at least 1")
        self.maxlen = maxlen
        self.max_payload = max_payload
        self._records: OrderedDict[str, CallRecord] = OrderedDict()
        self._lock = threading.RLock()
        self._observers: Observers[HistoryObserver] = Observers(__name__)
        self._previews: dict[str, PreviewSent] = {}
        self.total_calls = 0

    # ---- reading ---------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[CallRecord]:
        with self._lock:
            return iter(list(self._records.values()))

    def __getitem__(self, index: int) -> CallRecord:
        with self._lock:
            return list(self._records.values())[index]

    def get(self, call_id: str) -> CallRecord | None:
        return self._records.get(call_id)

    def by_number(self, number: int) -> CallRecord | None:
        """The record ``%mcp history`` shows as ``#number``, if still held."""
        with self._lock:
            return next((r for r in self._records.values() if r.number == number), None)

    def for_tool(self, tool: str, kind: Kind = "tool") -> list[CallRecord]:
        """The records of one tool (or, with ``kind``, of one resource or prompt by registry key)."""
        with self._lock:
            return [r for r in self._records.values() if r.kind == kind and (r.component or r.tool) == tool]

    def clear(self) -> None:
        with self._lock:
            self._records = OrderedDict((k, r) for k, r in self._records.items() if r.status in ("running", "waiting"))
        self._emit("cleared", None)

    # ---- observing -------------------------------------------------------------------------------

    def subscribe(self, observer: HistoryObserver) -> Callable[[], None]:
        """Call ``observer(event, record)`` on every change; returns the unsubscribe function."""
        return self._observers.add(observer)

    def _emit(self, event: HistoryEvent, record: CallRecord | None) -> None:
        self._observers.each(lambda observer: observer(event, record))

    # ---- keeping calls as tests -----------------------------------------------------------------

    def keep(self, call_id: str) -> CallRecord:
        """Mark a finished call as kept (observers hear ``"kept"`` once); ``ValueError`` says why it cannot be."""
        with self._lock:
            record = self._records.get(call_id)
            if record is None:
                raise ValueError(f"no call {call_id!r} in the history")
            if record.kept:
                return record
            reason = unkeepable(record)
            if reason is not None:
                raise ValueError(f"call #{record.number} cannot be kept as a test: {reason}")
            record.kept = True
        self._emit("kept", record)
        return record

    # ---- CallObserver ----------------------------------------------------------------------------

    def call_started(self, event: CallStarted) -> None:
        client = event.client
        record = CallRecord(
            id=event.call_id,
            tool=event.tool,
            arguments=self._clip(jsonable(event.arguments)),
            started_at=event.started_at,
            source=event.source,
            kind=event.kind,
            component=event.component,
            client_name=client.name if client else None,
            client_version=client.version if client else None,
            protocol_version=client.protocol_version if client else None,
        )
        with self._lock:
            self._records[record.id] = record
            self.total_calls += 1
            record.number = self.total_calls
            while len(self._records) > self.maxlen:
                self._records.popitem(last=False)
        self._emit("started", record)

    def call_progress(self, call_id: str, event: ProgressEvent) -> None:
        self._update(call_id, lambda r: r.progress.append(event))

    def call_log(self, call_id: str, event: LogEvent) -> None:
        self._update(call_id, lambda r: r.logs.append(event))

    def call_previewed(self, call_id: str, event: PreviewSent) -> None:
        """The client gets a preview: the record keeps the full result (``call_finished`` records it)."""
        self._previews[call_id] = event

    def call_input(self, call_id: str, event: InputWait) -> None:
        def wait(record: CallRecord) -> None:
            if record.status in ("running", "waiting"):
                record.waiting = dict(event.requests)
                record.status = "waiting" if event.requests else "running"

        self._update(call_id, wait)

    def call_task(self, call_id: str, event: TaskCreated) -> None:
        self._update(call_id, lambda r: setattr(r, "task_id", event.task_id))

    def call_finished(self, call_id: str, event: CallFinished) -> None:
        preview = self._previews.pop(call_id, None)

        def finish(record: CallRecord) -> None:
            structured, blocks = outcome_parts(preview.full if preview is not None else event.result)
            if preview is not None:
                sent = [self._clip_block(block) for block in outcome_parts(event.result)[1]]
                record.preview = SentPreview(preview.uri, preview.size, preview.budget, sent)
            record.status = event.status
            record.duration = event.duration
            record.is_error = event.status != "ok" or bool(getattr(event.result, "is_error", False))
            record.structured = self._clip(structured)
            record.content = [self._clip_block(block) for block in blocks]
            record.error = event.error
            record.traceback = event.traceback
            record.waiting = {}

        self._update(call_id, finish, "finished")

    def call_late_result(self, call_id: str, event: LateResult) -> None:
        outcome = f"raised {event.error}" if event.error else "returned"
        note = f"the function {outcome} after {event.duration:.2f}s; the result was discarded"
        self._update(call_id, lambda r: setattr(r, "late", note))

    def call_decided(self, call_id: str, decision: Decision) -> None:
        """Record the notebook user's (or the timeout's) decision on a call that needed approval."""
        self._update(call_id, lambda r: setattr(r, "decision", decision))

    def write_output(self, call_id: str, stream: str, text: str) -> None:
        """Append captured ``stdout``/``stderr`` text to a call's record."""

        def append(record: CallRecord) -> None:
            clipped = record.output.get(stream)
            if clipped is None:
                clipped = record.output[stream] = ClippedText(self.max_payload)
            clipped.append(text)

        self._update(call_id, append)

    def _update(self, call_id: str, change: Callable[[CallRecord], None], event: HistoryEvent = "updated") -> None:
        with self._lock:
            record = self._records.get(call_id)
            if record is None:
                return
            change(record)
        self._emit(event, record)

    # ---- truncation ------------------------------------------------------------------------------

    def _clip(self, value: Any) -> Any:
        if isinstance(value, str) and len(value) > self.max_payload:
            return value[: self.max_payload] + TRUNCATED.format(len(value) - self.max_payload)
        if isinstance(value, dict):
            return {k: self._clip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._clip(v) for v in value]
        return value

    def _clip_block(self, block: dict[str, Any]) -> dict[str, Any]:
        resource = block.get("resource")
        if block.get("type") == "resource" and isinstance(resource, dict):
            return {**block, "resource": self._clip_binary(resource, "blob")}
        return self._clip_binary(block, "data")

    def _clip_binary(self, block: dict[str, Any], key: str) -> dict[str, Any]:
        data = block.get(key)
        if isinstance(data, str) and len(data) > self.max_payload * 10:
            # Binary payloads (images) keep a generous budget so the panels can still show them.
            return {**block, key: None, "truncated": len(data)}
        return {k: (v if k == key else self._clip(v)) for k, v in block.items()}


def outcome_parts(result: CallOutcome | None) -> tuple[Any, list[dict[str, Any]]]:
    """``(structured, content blocks)`` of what a call returned, as JSON-ready data.

    A read's contents become ``resource`` blocks (a JSON resource also its parsed value); a prompt's
    messages become their content blocks with a ``role`` key.
    """
    if result is None:
        return None, []
    if isinstance(result, mt.CallToolResult):
        return result.structured_content, [_dump(block) for block in result.content]
    if isinstance(result, mt.ReadResourceResult):
        blocks = [{"type": "resource", "resource": _dump(contents)} for contents in result.contents]
        return _json_value(result.contents), blocks
    return None, [{**_dump(message.content), "role": message.role} for message in result.messages]


def _dump(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


def _json_value(contents: list[mt.TextResourceContents | mt.BlobResourceContents]) -> Any:
    if len(contents) != 1 or not isinstance(contents[0], mt.TextResourceContents):
        return None
    if contents[0].mime_type != "application/json":
        return None
    try:
        return json.loads(contents[0].text)
    except ValueError:
        return None


def unkeepable(record: CallRecord) -> str | None:
    """Why a call cannot be replayed as a test (``None`` when it can)."""
    if record.status not in ("ok", "error"):
        return f"it is {record.status}, and only finished calls replay"
    dropped = any("truncated" in block for block in record.content)
    if dropped or _clipped(record.arguments) or _clipped(record.structured) or _clipped(record.content):
        return "its arguments or result were truncated in the history (max_payload)"
    return None


def _clipped(value: Any) -> bool:
    if isinstance(value, str):
        return TRUNCATED_PATTERN.search(value) is not None
    if isinstance(value, dict):
        return any(_clipped(v) for v in value.values())
    if isinstance(value, list):
        return any(_clipped(v) for v in value)
    return False


def format_record(record: CallRecord) -> str:
    """One line for ``%mcp history``."""
    when = time.strftime("%H:%M:%S", time.localtime(record.started_at))
    duration = f"{record.duration * 1000:.1f} ms" if record.duration is not None else "…"
    who = record.client_name or record.source
    kept = "  (kept)" if record.kept else ""
    called = call_text(record.tool, record.arguments) if record.kind != "resource" else f"read {record.tool}"
    kind = "" if record.kind == "tool" else f"{record.kind} "
    line = f"#{record.number:<4} {when}  {record.status:<9} {kind}{called}  {duration}  [{who}]{kept}"
    if record.decision is not None:
        line += f"\n          {record.decision.summary()}"
    if record.task_id:
        line += f"  task {record.task_id}"
    if record.error:
        line += f"\n          {_short_error(record.error)}"
    return line


def _short_error(error: str, limit: int = 160) -> str:
    flat = " ".join(line.strip() for line in error.splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
