"""Text formatting shared by panels and fallbacks (format)."""

from __future__ import annotations

import time

import pytest

from jupyter_mcp.tools.calls.calltext import call_text, clip, short_arguments
from jupyter_mcp.tools.calls.events import ProgressEvent
from jupyter_mcp.widgets.format import era_of, first_line, format_clock, format_count, format_duration
from jupyter_mcp.widgets.model import progress_text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (None, "…"),
        (0.00042, "0.42 ms"),
        (0.0031, "3.1 ms"),
        (0.25, "250.0 ms"),
        (1.5, "1.50 s"),
        (59.999, "60.00 s"),
        (125, "2 min 5 s"),
    ],
)
def test_format_duration(seconds: float | None, text: str) -> None:
    assert format_duration(seconds) == text


def test_format_clock_is_local_time_of_day() -> None:
    moment = time.mktime((2025, 3, 4, 13, 5, 9, 0, 0, -1))
    assert format_clock(moment) == "13:05:09"


def test_short_arguments_read_like_a_call() -> None:
    assert short_arguments({"a": 1, "text": "hi", "flag": None}) == "a=1, text='hi', flag=None"
    assert short_arguments({"rows": [1, 2, 3], "opts": {"k": "v"}}) == 'rows=[1, 2, 3], opts={"k": "v"}'
    assert short_arguments({}) == ""


def test_one_formatter_writes_calls_for_cards_history_and_approvals() -> None:
    # Issue 23: `%mcp history` wrote find_items("query": "t", …) where cards wrote query='t'.
    from jupyter_mcp.tools.calls.events import CallStarted
    from jupyter_mcp.tools.calls.history import CallHistory, format_record

    history = CallHistory()
    history.call_started(CallStarted("c1", "find_items", {"query": "t", "limit": 5}, None, 1_700_000_000.0, "notebook"))
    record = history[0]
    assert call_text("find_items", record.arguments) == "find_items(query='t', limit=5)"
    assert "find_items(query='t', limit=5)" in format_record(record)


def test_short_arguments_are_clipped() -> None:
    long = short_arguments({"text": "x" * 100, "n": 1})
    assert long == "text='" + "x" * 22 + "…, n=1"
    assert len(short_arguments({f"k{i}": i for i in range(30)}, limit=40)) == 40


def test_clip_first_line_count_era() -> None:
    assert clip("abcdef", 4) == "abc…"
    assert clip("abc", 4) == "abc"
    assert first_line("\n  Adds numbers.\n  More.") == "Adds numbers."
    assert first_line(None) == ""
    assert [format_count(n, "call") for n in (0, 1, 1200)] == ["0 calls", "1 call", "1,200 calls"]
    assert [era_of(v) for v in ("2025-11-25", "2024-11-05", "2026-07-28", None)] == ["2025", "2025", "2026", ""]


@pytest.mark.parametrize(
    ("progress", "total", "message", "text"),
    [
        (0, None, "waiting for approval in the notebook", "waiting for approval in the notebook"),
        (0, None, None, "0"),
        (3, None, "rows read", "3 rows read"),
        (3, 10, "rows read", "3/10 rows read"),
        (0, 10, None, "0/10"),
    ],
)
def test_progress_text_leaves_out_a_bare_zero_before_a_message(
    progress: float, total: float | None, message: str | None, text: str
) -> None:
    assert progress_text(ProgressEvent(progress, total, message, time.time())) == text
