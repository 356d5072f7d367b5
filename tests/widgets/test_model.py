"""What the views show, as data (model): call rows, a call's detail, the shapes the browser draws.

The drawing itself is the component set's (labextension/src/ui), tested in Chromium
(tests/browser/test_components.py); here, that the data says the right thing.
"""

from __future__ import annotations

from typing import Any, get_type_hints

import mcp_types as mt
import pytest

from jupyter_mcp.shapes import views as shapes
from jupyter_mcp.tools.calls.events import (
    CallFinished,
    CallStarted,
    ClientInfo,
    Decision,
    InputWait,
    LogEvent,
    ProgressEvent,
    TaskCreated,
)
from jupyter_mcp.tools.calls.history import CallHistory, CallRecord
from jupyter_mcp.widgets.model import call_detail, call_row, waiting_text


def started(history: CallHistory, call_id: str = "c1", **arguments: object) -> CallRecord:
    client = ClientInfo("claude-ai", "0.9", "2025-11-25")
    history.call_started(CallStarted(call_id, "lookup", dict(arguments), client, 1_700_000_000.0, "client"))
    record = history.get(call_id)
    assert record is not None
    return record


def test_the_detail_of_a_failed_call_has_everything() -> None:
    history = CallHistory()
    started(history, q="<x>")
    history.write_output("c1", "stdout", "looking\n")
    history.write_output("c1", "stderr", "warned\n")
    history.call_log("c1", LogEvent("warning", "slow index", "lookup", 1_700_000_000.5))
    result = mt.CallToolResult(content=[mt.TextContent(type="text", text="KeyError: 'x'")], is_error=True)
    traceback = "Traceback (most recent call last):\n  ...\nKeyError: 'x'"
    history.call_finished("c1", CallFinished("error", 0.012, result, "KeyError: 'x'", traceback))
    record = history.get("c1")
    assert record is not None
    detail = call_detail(record)
    assert (detail["row"]["number"], detail["row"]["status"], detail["row"]["duration"]) == (1, "error", "12.0 ms")
    assert (detail["row"]["client"], detail["protocol"]) == ("claude-ai 0.9", "2025-11-25")
    assert detail["arguments"] == {"q": "<x>"}
    assert detail["outcome"] == {
        "is_error": True,
        "error": "KeyError: 'x'",
        "structured": None,
        "content": [{"type": "text", "text": "KeyError: 'x'"}],
    }
    assert (detail["traceback"], detail["stdout"], detail["stderr"]) == (traceback, "looking\n", "warned\n")
    assert detail["logs"] == [
        {"time": detail["logs"][0]["time"], "level": "warning", "logger": "lookup", "message": "slow index"}
    ]
    assert detail["keep"] == "can"


def test_a_running_call_shows_its_progress_and_no_outcome() -> None:
    history = CallHistory()
    started(history, n=4)
    history.call_progress("c1", ProgressEvent(1, 4, "indexing", 1_700_000_000.2))
    record = history.get("c1")
    assert record is not None
    row = call_row(record)
    assert (row["status"], row["progress"], row["progress_text"], row["duration"]) == (
        "running",
        0.25,
        "1/4 indexing",
        "…",
    )
    detail = call_detail(record)
    assert (detail["outcome"], detail["keep"]) == (None, "no")


def test_progress_without_total_has_no_fraction() -> None:
    history = CallHistory()
    started(history)
    history.call_progress("c1", ProgressEvent(7, None, None, 1_700_000_000.2))
    record = history.get("c1")
    assert record is not None
    assert (call_row(record)["progress"], call_row(record)["progress_text"]) == (None, "7")


def test_a_row_shows_the_last_error_line() -> None:
    history = CallHistory()
    started(history, text="<img src=x>")
    result = mt.CallToolResult(content=[mt.TextContent(type="text", text="bad")], is_error=True)
    history.call_finished("c1", CallFinished("error", 0.5, result, "Traceback...\nValueError: <bad>", None))
    record = history.get("c1")
    assert record is not None
    assert (call_row(record)["arguments"], call_row(record)["error"]) == ("text='<img src=x>'", "ValueError: <bad>")


def test_a_call_waiting_for_the_client_or_the_notebook_user_says_which() -> None:
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
    assert call_detail(record)["waiting"] == "waiting for the client: user_name (elicitation/create)"
    history.call_input("c1", InputWait({}, 1_700_000_000.2))
    assert (record.status, record.waiting) == ("running", {})
    # Issue 23: a call waiting for approval read "running" with a spinner.
    assert waiting_text({"approval": "notebook/approve"}) == "waiting for your approval in the notebook"
    assert waiting_text({"question": "notebook/answer"}) == "waiting for your answer in the notebook"


def test_a_task_an_expired_call_and_a_cancelled_one() -> None:
    history = CallHistory()
    started(history)
    history.call_task("c1", TaskCreated("t-123", 1_700_000_000.5))
    history.call_input("c1", InputWait({"elicitation-1": "elicitation/create"}, 1_700_000_000.6))
    result = mt.CallToolResult(content=[mt.TextContent(type="text", text="Call expired")], is_error=True)
    history.call_finished("c1", CallFinished("expired", 600.0, result, "expired", None))
    record = history.get("c1")
    assert record is not None
    assert (record.status, record.task_id, record.waiting) == ("expired", "t-123", {})
    assert (call_row(record)["task"], call_row(record)["status"]) == ("t-123", "expired")
    started(history, "c2")
    history.call_finished("c2", CallFinished("cancelled", 1.0, None, "ToolError: the call was cancelled", None))
    cancelled = history.get("c2")
    assert cancelled is not None
    # Issue 23: a cancelled row said "cancelled" twice (its status, and the error under it).
    assert (call_row(cancelled)["status"], call_row(cancelled)["error"]) == ("cancelled", "")


def test_a_denied_call_is_refused_not_an_error() -> None:
    history = CallHistory()
    started(history)
    history.call_decided("c1", Decision("denied", "panel", 1_700_000_000.3, "not now", 2.0))
    result = mt.CallToolResult(content=[mt.TextContent(type="text", text="declined")], is_error=True)
    history.call_finished("c1", CallFinished("error", 2.1, result, "The notebook user declined the call", None))
    record = history.get("c1")
    assert record is not None
    assert call_row(record)["status"] == "refused"
    assert call_detail(record)["decision"] == "denied by the notebook user in the panel after 2.0 s: not now"


async def test_the_detail_of_a_call_sent_as_a_preview_says_what_the_client_got() -> None:
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
    detail = call_detail(record)
    assert detail["outcome"] is not None
    assert detail["outcome"]["structured"] == {"result": list(range(3000))}
    assert detail["preview"] == {
        "note": f"The result is {format_size(record.preview.size)} as JSON, over the result budget of 8,000 bytes: "
        f"the client got a preview and a link to the full value, {record.preview.uri}.",
        "uri": record.preview.uri,
        "content": record.preview.content,
    }
    assert any(block.get("type") == "resource_link" for block in record.preview.content)


@pytest.mark.parametrize("shape", [shapes.CallRow, shapes.CallDetail, shapes.Component])
def test_every_shape_is_json(shape: Any) -> None:
    """Every field is JSON (str, number, bool, None, list, dict) or another shape: the browser gets it as is."""
    for name, hint in get_type_hints(shape).items():
        assert "object" not in str(hint), (shape.__name__, name, hint)
