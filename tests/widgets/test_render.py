"""HTML for calls: rows, content blocks, outcomes and a call's detail (render)."""

from __future__ import annotations

import base64
import re

import mcp_types as mt
import pandas as pd

from jupyter_mcp.tools.calls.events import (
    CallFinished,
    CallStarted,
    ClientInfo,
    InputWait,
    LogEvent,
    ProgressEvent,
    TaskCreated,
)
from jupyter_mcp.tools.calls.history import CallHistory, CallRecord
from jupyter_mcp.tools.components.results import markdown_table
from jupyter_mcp.widgets.model import call_row
from jupyter_mcp.widgets.render import (
    call_row_html,
    content_html,
    outcome_html,
    record_detail_html,
    split_markdown_table,
)
from tests.widgets.htmltext import visible_text

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()


def started(history: CallHistory, call_id: str = "c1", **arguments: object) -> CallRecord:
    client = ClientInfo("claude-ai", "0.9", "2025-11-25")
    history.call_started(CallStarted(call_id, "lookup", dict(arguments), client, 1_700_000_000.0, "client"))
    record = history.get(call_id)
    assert record is not None
    return record


def test_markdown_tables_become_tables_with_their_note() -> None:
    frame = pd.DataFrame({"city": ["Oslo", "Lima|Peru"], "temp": [3, 19]})
    split = split_markdown_table(markdown_table(frame, max_rows=1))
    assert split == ([["city", "temp"], ["Oslo", "3"]], "(2 rows, first 1 shown)")
    markup = content_html([{"type": "text", "text": markdown_table(frame)}])
    assert "<table" in markup
    assert visible_text(markup) == "city temp Oslo 3 Lima|Peru 19"


def test_text_that_is_not_a_table_stays_preformatted() -> None:
    assert split_markdown_table("| just a pipe\nand text") is None
    assert split_markdown_table("hello") is None
    markup = content_html([{"type": "text", "text": "a < b"}])
    assert markup.startswith('<pre class="jmcp-pre ">a &lt; b</pre>')


def test_images_audio_and_resources_render() -> None:
    markup = content_html(
        [
            {"type": "image", "data": PNG, "mimeType": "image/png"},
            {"type": "audio", "data": PNG, "mimeType": "audio/wav"},
            {"type": "image", "data": None, "mimeType": "image/png", "truncated": 5_000_000},
            {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "body", "mimeType": "text/plain"}},
            {"type": "resource_link", "uri": "file:///b.csv", "name": "b.csv"},
        ]
    )
    assert f'<img class="jmcp-img" alt="image/png" src="data:image/png;base64,{PNG}">' in markup
    assert f'<audio controls src="data:audio/wav;base64,{PNG}">' in markup
    text = visible_text(markup)
    assert "[image image/png, 5000000 bytes of base64, not kept]" in text
    assert "file:///a.txt text/plain body" in text
    assert "b.csv file:///b.csv" in text


def test_outcome_puts_the_error_first_and_hides_error_content() -> None:
    error = outcome_html(None, [{"type": "text", "text": "Error: boom"}], is_error=True)
    assert visible_text(error) == "Error Error: boom"
    ok = outcome_html({"result": 3}, [{"type": "text", "text": "3"}], is_error=False)
    assert visible_text(ok) == 'Structured result { 1 key } "result": 3'  # the JSON text block repeats it
    both = outcome_html({"n": 1}, [{"type": "text", "text": "one"}], is_error=False)
    assert visible_text(both) == 'Structured result { 1 key } "n": 1 Content one'


def test_detail_of_a_failed_call_has_everything() -> None:
    history = CallHistory()
    started(history, q="<x>")
    history.write_output("c1", "stdout", "looking\n")
    history.write_output("c1", "stderr", "warned\n")
    history.call_log("c1", LogEvent("warning", "slow index", "lookup", 1_700_000_000.5))
    result = mt.CallToolResult(content=[mt.TextContent(type="text", text="KeyError: 'x'")], is_error=True)
    history.call_finished(
        "c1",
        CallFinished(
            "error", 0.012, result, "KeyError: 'x'", "Traceback (most recent call last):\n  ...\nKeyError: 'x'"
        ),
    )
    record = history.get("c1")
    assert record is not None
    markup = record_detail_html(record)
    text = visible_text(markup)
    assert text.startswith("#1 lookup ✗ error")  # the number %mcp history and %mcp keep use
    assert "12.0 ms · claude-ai 0.9" in text
    assert "protocol 2025-11-25" in text
    assert 'Arguments { 1 key } "q": "<x>"' in text
    assert "Error KeyError: 'x'" in text
    assert "Traceback Traceback (most recent call last):" in text
    assert "stdout looking stderr warned" in text
    assert "Log messages time level logger message" in text
    assert "warning lookup slow index" in text


def test_detail_and_row_of_a_running_call_show_progress() -> None:
    history = CallHistory()
    started(history, n=4)
    history.call_progress("c1", ProgressEvent(1, 4, "indexing", 1_700_000_000.2))
    record = history.get("c1")
    assert record is not None
    assert "Progress 1/4 indexing" in visible_text(record_detail_html(record))
    row = call_row(record)
    assert (row["status"], row["progress"], row["progress_text"], row["duration"]) == (
        "running",
        0.25,
        "1/4 indexing",
        "…",
    )
    markup = call_row_html(row, selected=True)
    assert '<div style="width:25%">' in markup
    assert 'class="jmcp-callrow jmcp-selected"' in markup
    assert '<span class="jmcp-spinner">' in markup


def test_progress_without_total_has_no_bar() -> None:
    history = CallHistory()
    started(history)
    history.call_progress("c1", ProgressEvent(7, None, None, 1_700_000_000.2))
    record = history.get("c1")
    assert record is not None
    row = call_row(record)
    assert (row["progress"], row["progress_text"]) == (None, "7")
    assert 'class="jmcp-progress"' not in call_row_html(row)


def test_rows_escape_and_show_the_last_error_line() -> None:
    history = CallHistory()
    started(history, text="<img src=x>")
    result = mt.CallToolResult(content=[mt.TextContent(type="text", text="bad")], is_error=True)
    history.call_finished("c1", CallFinished("error", 0.5, result, "Traceback...\nValueError: <bad>", None))
    record = history.get("c1")
    assert record is not None
    markup = call_row_html(call_row(record))
    assert "<img" not in markup
    assert re.search(r"ValueError: &lt;bad&gt;", markup)
    assert visible_text(markup).endswith("500.0 ms")


def test_static_rows_carry_no_script() -> None:
    history = CallHistory()
    markup = call_row_html(call_row(started(history)))
    assert "onclick" not in markup
    assert 'role="button"' not in markup  # only the front-end list (CallList) is clickable
    assert 'data-call="c1"' in markup


async def test_detail_of_a_call_sent_as_a_preview_shows_the_full_value_and_what_the_client_got() -> None:
    from jupyter_mcp.tools import ToolServer
    from jupyter_mcp.tools.budget.preview import format_size
    from tests.conftest import connected

    server = ToolServer(result_budget="8kB")
    history = CallHistory()
    server.add_call_observer(history)

    @server.tool
    def rows(n: int) -> list[int]:
        return list(range(n))

    async with connected(server, "legacy") as client:
        await client.call_tool("rows", {"n": 3000})
    record = history[-1]
    assert record.preview is not None
    assert record.structured == {"result": list(range(3000))}
    text = visible_text(record_detail_html(record))
    assert (
        f"Sent as a preview The result is {format_size(record.preview.size)} as JSON, over the result budget of 8,000 bytes: the client got a "
        f"preview and a link to the full value, {record.preview.uri}. What the client got"
    ) in text
    assert "result: first 50 of 3,000 items" in text
    assert f"🔗 result-{record.id} {record.preview.uri}" in text


async def test_detail_of_an_error_sent_as_a_preview_shows_the_whole_error_and_what_the_client_got() -> None:
    from jupyter_mcp.tools import ToolServer
    from tests.conftest import connected

    server = ToolServer(result_budget="8kB")
    history = CallHistory()
    server.add_call_observer(history)

    @server.tool
    def fails() -> str:
        raise ValueError("x" * 20_000)

    async with connected(server, "legacy") as client:
        await client.call_tool("fails", {})
    record = history[-1]
    assert record.preview is not None
    assert (record.status, record.error) == ("error", "ValueError: " + "x" * 20_000)
    text = visible_text(record_detail_html(record))
    assert (
        "Sent as a preview The error is 20 kB as JSON, over the result budget of 8,000 bytes: the client got a "
        f"preview and a link to its full text, {record.preview.uri}. What the client got"
    ) in text
    assert "19,012 characters left out here" in text
    assert f"🔗 result-{record.id} {record.preview.uri}" in text


def test_a_call_waiting_for_input_says_what_it_waits_for() -> None:
    history = CallHistory()
    started(history)
    history.call_input("c1", InputWait({"user_name": "elicitation/create"}, 1_700_000_000.1))
    record = history.get("c1")
    assert record is not None
    row = call_row(record)
    assert (row["status"], row["progress_text"]) == (
        "waiting",
        "waiting for the client: user_name (elicitation/create)",
    )
    assert "✋ waiting" in visible_text(call_row_html(row))
    assert "Waiting for input waiting for the client: user_name (elicitation/create)" in visible_text(
        record_detail_html(record)
    )
    history.call_input("c1", InputWait({}, 1_700_000_000.2))
    assert (record.status, record.waiting) == ("running", {})


def test_a_task_and_an_expired_call_show_as_such() -> None:
    history = CallHistory()
    started(history)
    history.call_task("c1", TaskCreated("t-123", 1_700_000_000.5))
    history.call_input("c1", InputWait({"elicitation-1": "elicitation/create"}, 1_700_000_000.6))
    result = mt.CallToolResult(content=[mt.TextContent(type="text", text="Call expired")], is_error=True)
    history.call_finished("c1", CallFinished("expired", 600.0, result, "expired", None))
    record = history.get("c1")
    assert record is not None
    assert (record.status, record.task_id, record.waiting) == ("expired", "t-123", {})
    row = call_row(record)
    assert row["task"] == "t-123"
    text = visible_text(call_row_html(row))
    assert "⌛ expired" in text
    assert "lookup task" in text
    assert "task t-123" in visible_text(record_detail_html(record))
