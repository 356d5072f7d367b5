"""CallHistory as a unit: bounded, truncating, observable, thread-safe."""

from __future__ import annotations

import threading

import mcp_types as mt
import pytest

from jupyter_mcp.tools.calls.clipped import DROPPED
from jupyter_mcp.tools.calls.events import CallFinished, CallStarted, ClientInfo, LateResult, LogEvent, ProgressEvent
from jupyter_mcp.tools.calls.history import CallHistory, CallRecord, format_record


def start(history: CallHistory, call_id: str, **arguments: object) -> None:
    client = ClientInfo("claude-ai", "0.1", "2025-11-25")
    history.call_started(CallStarted(call_id, "tool", dict(arguments), client, 1.0, "client"))


def finish(history: CallHistory, call_id: str, text: str = "ok") -> None:
    result = mt.CallToolResult(content=[mt.TextContent(type="text", text=text)], structured_content={"r": text})
    history.call_finished(call_id, CallFinished("ok", 0.01, result, None, None))


def test_records_every_field() -> None:
    history = CallHistory()
    start(history, "c1", a=1)
    history.call_progress("c1", ProgressEvent(1, 2, "half", 1.1))
    history.call_log("c1", LogEvent("info", "hello", None, 1.2))
    history.write_output("c1", "stdout", "printed\n")
    finish(history, "c1")
    history.call_late_result("c1", LateResult(3.0, None))
    record = history.get("c1")
    assert isinstance(record, CallRecord)
    assert (record.tool, record.arguments, record.client_name, record.era) == ("tool", {"a": 1}, "claude-ai", "2025")
    assert (record.status, record.structured, record.stdout) == ("ok", {"r": "ok"}, "printed\n")
    assert record.content == [{"type": "text", "text": "ok"}]
    assert record.latest_progress == ProgressEvent(1, 2, "half", 1.1)
    assert record.logs[0].message == "hello"
    assert record.late is not None
    assert "discarded" in record.late


def test_is_bounded_and_keeps_the_newest() -> None:
    history = CallHistory(maxlen=3)
    for i in range(5):
        start(history, f"c{i}")
    assert [r.id for r in history] == ["c2", "c3", "c4"]
    assert history.total_calls == 5
    finish(history, "c0")  # evicted: ignored, no error


def test_big_payloads_are_truncated_with_a_marker() -> None:
    history = CallHistory(max_payload=10)
    start(history, "c1", text="x" * 100)
    finish(history, "c1", text="y" * 100)
    for _ in range(20):
        history.write_output("c1", "stdout", "z" * 4 + "w")
    record = history.get("c1")
    assert record is not None
    assert record.arguments["text"] == "x" * 10 + "…[truncated 90 more characters]"
    assert record.content[0]["text"].endswith("…[truncated 90 more characters]")
    # Output keeps its head and tail, and counts every character dropped over all the writes.
    assert record.stdout == "zzzzw" + DROPPED.format(90, 5, 5) + "zzzzw"


def test_observers_and_clear() -> None:
    history = CallHistory()
    events: list[str] = []
    unsubscribe = history.subscribe(lambda event, record: events.append(f"{event} {record.id if record else ''}"))
    start(history, "c1")
    finish(history, "c1")
    start(history, "c2")
    history.clear()
    unsubscribe()
    start(history, "c3")
    assert events == ["started c1", "finished c1", "started c2", "cleared "]
    assert [r.id for r in history] == ["c2", "c3"]  # running calls survive a clear


def test_concurrent_calls_from_many_threads() -> None:
    history = CallHistory(maxlen=10_000)

    def work(offset: int) -> None:
        for i in range(500):
            call_id = f"{offset}-{i}"
            start(history, call_id)
            history.write_output(call_id, "stdout", "x")
            finish(history, call_id)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(history) == 4000
    assert all(r.status == "ok" and r.stdout == "x" for r in history)


def test_calls_are_numbered_and_kept_once_when_finished_and_whole() -> None:
    history = CallHistory(maxlen=3, max_payload=10)
    heard: list[tuple[str, str | None]] = []
    history.subscribe(lambda event, record: heard.append((event, record.id if record else None)))
    for i in range(4):
        start(history, f"c{i}")
    assert [(r.id, r.number) for r in history] == [("c1", 2), ("c2", 3), ("c3", 4)]
    assert history.by_number(1) is None
    by_number = history.by_number(3)
    assert by_number is not None
    assert by_number.id == "c2"
    with pytest.raises(ValueError, match=r"^call #2 cannot be kept as a test: it is running, and only finished"):
        history.keep("c1")
    finish(history, "c1", text="short")
    finish(history, "c2", text="far too long to keep")
    heard.clear()
    assert history.keep("c1").kept
    history.keep("c1")
    assert heard == [("kept", "c1")]
    with pytest.raises(ValueError, match=r"truncated in the history \(max_payload\)"):
        history.keep("c2")
    assert "#2    " in format_record(history.get("c1"))  # type: ignore[arg-type]
    assert format_record(history.get("c1")).endswith("(kept)")  # type: ignore[arg-type]
