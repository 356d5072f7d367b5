"""The views against a real in-process server: cards, panel, history, tools table, connection."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any, Literal

import ipywidgets as widgets
import pytest

from jupyter_mcp.kernel.display import card as tool_card
from jupyter_mcp.kernel.display import install_formatter
from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools import ToolError
from jupyter_mcp.tools.calls import executors
from jupyter_mcp.tools.calls.executors import INLINE_AFTER
from jupyter_mcp.widgets import ServerPanel
from tests.widgets.conftest import eventually
from tests.widgets.htmltext import visible_text


def register(server: NotebookServer) -> None:
    @server.tool(
        title="Add numbers",
        annotations={"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False},
        tags={"math"},
        timeout=30,
    )
    def add(a: int, b: int = 2) -> int:
        """Add two integers.

        Args:
            a: The first number.
            b: The second number.
        """
        print(f"adding {a} and {b}")
        return a + b

    @server.tool(annotations={"destructiveHint": True})
    def shout(text: str, style: Literal["plain", "loud"] = "plain", tags: list[str] | None = None) -> str:
        """Repeat text, louder."""
        if text == "fail":
            raise ToolError("refusing to shout 'fail'")
        return text.upper() if style == "loud" else text


def call(server: NotebookServer, name: str, **arguments: Any) -> Any:
    return server.call_in_background(name, arguments).result(timeout=30)


def widget_state(widget: widgets.Widget) -> str:
    """Every synced state value of ``widget``, as JSON text (what a front end receives)."""
    return json.dumps(widget.get_state(), default=str)


def browser(view: Any, action: str, **content: Any) -> None:
    """What the front end sends when the user acts (labextension/src/widgets/index.ts)."""
    view._on_message(view, {"action": action, **content}, [])


def test_card_says_what_the_tool_is(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    component = card.component
    assert (component["name"], component["title"], component["status"]) == ("add", "Add numbers", "live")
    assert [b["text"] for b in component["badges"]] == ["read-only", "idempotent", "closed-world", "#math"]
    assert component["facts"] == "worker thread · timeout 30 s"
    assert component["description"].startswith("Add two integers.")
    assert component["input_schema"]["required"] == ["a"]
    assert component["input_schema"]["properties"]["a"]["description"] == "The first number."
    assert component["output_schema"] is not None
    assert (component["try_label"], component["show_schemas"]) == ("Run", True)
    shout = tool_card(server, server.tools["shout"]).component
    assert "destructive" in [b["text"] for b in shout["badges"]]
    assert shout["facts"] == "worker thread until proven quick · no timeout"


def test_a_quick_sync_tools_card_says_it_moved_to_the_servers_loop_and_why(
    server: NotebookServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 34: the card said "worker thread" after the tool had moved to the server's loop.
    monkeypatch.setattr(executors, "QUICK_RUN", 0.02)  # a busy test machine must not break the streak
    monkeypatch.setattr(executors, "SLOW_INLINE", 0.1)
    pause = [0.0]

    @server.tool
    def echo(text: str) -> str:
        """Say it back."""
        time.sleep(pause[0])
        return text

    card = tool_card(server, server.tools["echo"])
    assert card.component["facts"] == "worker thread until proven quick · no timeout"
    for _ in range(INLINE_AFTER):
        call(server, "echo", text="hi")
    proven = "server's event loop: proven quick (16 runs under 0.5 ms) · no timeout"
    eventually(lambda: card.component["facts"] == proven, what="the card says the tool moved")
    assert proven in visible_text(card.fallback_html())
    pause[0] = 0.3
    call(server, "echo", text="slow")  # one slow run on the loop sends it back to the workers for good
    demoted = "worker thread: a run on the server's loop took over 2 ms · no timeout"
    eventually(lambda: card.component["facts"] == demoted, what="the card says it went back")
    server.settings.inline_quick_tools = False
    register(server)
    assert tool_card(server, server.tools["shout"]).component["facts"] == "worker thread · no timeout"


def test_card_header_shows_task_support_and_parameter_headers(server: NotebookServer) -> None:
    @server.tool(task=True, headers={"region": "Region"})
    async def train(region: str, epochs: int = 3) -> str:
        """Train a model."""
        return region

    @server.tool(task="required")
    async def simulate() -> str:
        """Run the simulation."""
        return "done"

    badges = tool_card(server, server.tools["train"]).component["badges"]
    assert [(b["text"], b["title"]) for b in badges] == [
        ("task", "long calls become tasks for clients that support them"),
        ("headers", "region → Mcp-Param-Region"),
    ]
    assert [b["text"] for b in tool_card(server, server.tools["simulate"]).component["badges"]] == ["task only"]


def test_card_follows_enable_disable_replace_remove(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    assert card.try_it is not None
    assert (card.status, card.try_it.active) == ("live", True)
    server.disable(names={"add"})
    eventually(lambda: card.status == "disabled", what="disabled")
    assert (card.component["status"], card.try_it.active) == ("disabled", False)
    browser(card, "enable", enabled=True)  # the card's "enabled" box
    assert server.registry.is_visible(server.tools["add"])
    assert card.status == "live"
    old_tool = server.tools["add"]
    register(server)  # re-running the cell
    eventually(lambda: card.status == "replaced", what="replaced")
    assert card.component["status_text"] == "replaced by a newer cell run"
    assert not card.try_it.active
    assert card.try_it.run({"a": 1}) is None
    card.set_enabled(False)  # an old card's toggle must not touch the new tool
    assert server.registry.is_visible(server.tools["add"])
    assert server.tools["add"] is not old_tool
    fresh = tool_card(server, server.tools["add"])
    server.remove_tool("add")
    eventually(lambda: fresh.status == "removed", what="removed")


def test_card_lists_recent_calls_and_freezes_when_replaced(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    observers = len(server.history._observers)
    for a in range(7):
        call(server, "add", a=a)
    call(server, "shout", text="hi")  # another tool's call is not this card's
    eventually(lambda: len(card.recent) == 5 and card.recent[0]["arguments"] == "a=6", what="5 newest calls")
    assert [row["arguments"] for row in card.recent] == ["a=6", "a=5", "a=4", "a=3", "a=2"]
    assert {row["status"] for row in card.recent} == {"ok"}
    register(server)
    eventually(lambda: card.status == "replaced", what="replaced")
    assert len(server.history._observers) == observers - 1  # a replaced card stops listening
    call(server, "add", a=100)
    assert card.recent[0]["arguments"] == "a=6"


def test_try_it_calls_through_the_call_path(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    browser(card, "run", arguments={"a": 40})  # what the form's Run button sends
    eventually(lambda: card.try_it is not None and card.try_it.outcome == "ok", what="try-it result")
    record = server.history[-1]
    assert (record.tool, record.arguments, record.source, record.stdout) == (
        "add",
        {"a": 40},
        "notebook",
        "adding 40 and 2\n",
    )
    result = card.tryit["result"]
    assert (result["status"], result["outcome"]["structured"]) == ("ok", {"result": 42})
    assert result["elapsed"].endswith("ms")
    eventually(lambda: card.recent and card.recent[0]["client"] == "notebook", what="the try-it call in the card")


def test_try_it_reports_tool_errors(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["shout"])
    assert card.try_it is not None
    future = card.try_it.run({"text": "fail", "style": "loud", "tags": ["x"]})
    assert future is not None
    assert future.result(timeout=30).is_error
    eventually(lambda: card.try_it is not None and card.try_it.outcome == "error", what="error outcome")
    outcome = card.tryit["result"]["outcome"]
    assert outcome["is_error"]
    assert "refusing to shout 'fail'" in outcome["content"][0]["text"]
    assert server.history[-1].arguments == {"text": "fail", "style": "loud", "tags": ["x"]}


def test_history_lists_filters_selects_and_clears(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    history = panel.history
    call(server, "add", a=1)
    call(server, "shout", text="fail")
    call(server, "shout", text="ok")
    eventually(lambda: len(history.rows) == 3, what="3 rows")
    assert [(r["tool"], r["status"]) for r in history.rows] == [("shout", "ok"), ("shout", "error"), ("add", "ok")]
    assert [row["id"] for row in panel.history_state["rows"]] == [row["id"] for row in history.rows]
    browser(panel, "filter", status="error")
    assert [r["arguments"] for r in panel.history_state["rows"]] == ["text='fail'"]
    browser(panel, "filter", status="", tool="add")
    assert [r["tool"] for r in panel.history_state["rows"]] == ["add"]
    assert "add" in panel.history_state["names"]
    browser(panel, "filter", tool="")
    failed = history.rows[1]["id"]
    browser(panel, "select", call_id=failed)  # a click on the row
    assert (panel.history_state["selected"], panel.detail["row"]["id"]) == (failed, failed)
    assert panel.detail["outcome"]["error"] == "refusing to shout 'fail'"
    browser(panel, "select", call_id=None)  # a click on the selected row hides the detail
    assert (history.selected, panel.detail) == (None, None)
    browser(panel, "clear")
    eventually(lambda: panel.history_state["rows"] == [], what="cleared")
    assert panel.history_state["shown"] == "no calls yet"


def test_a_finished_call_can_be_kept_as_a_test(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    kept: list[str] = []
    server.history.subscribe(lambda event, record: kept.append(record.tool) if event == "kept" and record else None)
    call(server, "shout", text="fail")
    eventually(lambda: len(panel.history.rows) == 1, what="1 row")
    browser(panel, "select", call_id=panel.history.rows[0]["id"])
    assert (panel.detail["row"]["number"], panel.detail["keep"]) == (1, "can")
    browser(panel, "keep", call_id=panel.history.rows[0]["id"])
    assert server.history[0].kept
    assert kept == ["shout"]
    assert panel.detail["keep"] == "kept"
    panel.history.keep()  # a second keep changes nothing
    assert kept == ["shout"]


def test_history_pages(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    for a in range(25):
        call(server, "add", a=a)
    eventually(lambda: len(panel.history.rows) == 20, what="first page")
    assert panel.history_state["more"] is True
    browser(panel, "more")
    assert len(panel.history_state["rows"]) == 25
    assert panel.history_state["more"] is False
    assert panel.history_state["shown"] == "showing 25 of 25 calls"


def test_tools_table_counts_and_toggles(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    card = tool_card(server, server.tools["add"])
    call(server, "add", a=1)
    call(server, "shout", text="fail")
    eventually(lambda: sum(r["calls"] for r in panel.components["tool"]) == 2, what="counts")
    rows = {r["key"]: r for r in panel.components["tool"]}
    assert (rows["add"]["calls"], rows["add"]["errors"], rows["shout"]["errors"]) == (1, 0, 1)
    assert rows["add"]["mean_duration"].endswith("ms")
    assert panel.header["counts"] == "2 tools · 0 clients · 2 calls"
    browser(panel, "enable", kind="tool", key="add", enabled=False)  # the "served" box
    assert not server.registry.is_visible(server.tools["add"])
    eventually(lambda: card.status == "disabled", what="the card follows the panel")
    other = ServerPanel(server)
    assert {r["key"]: r["enabled"] for r in other.components["tool"]}["add"] is False
    card.set_enabled(True)
    eventually(
        lambda: all({r["key"]: r["enabled"] for r in p.components["tool"]}["add"] for p in (panel, other)),
        what="both panels",
    )


def test_connection_hides_the_token_until_revealed(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    token = server.token
    assert token not in widget_state(panel)
    assert token not in panel.fallback_html() + panel.fallback_text()
    connection = panel.connection_state
    assert "jupyter-mcp" in connection["config"]  # Claude's stdio config has no token
    assert connection["copy"] == connection["config"]
    for client in ("vscode", "cursor", "inspector"):
        browser(panel, "client", client=client)
        assert panel.connection_state["copy"] is None  # "Reveal the token to copy"
        assert "Bearer ••••" in panel.connection_state["config"]
    assert token not in widget_state(panel)
    browser(panel, "reveal", revealed=True)
    assert panel.connection_state["token"] == token
    browser(panel, "client", client="vscode")
    assert f"Bearer {token}" in panel.connection_state["config"]
    assert panel.connection_state["copy"] == panel.connection_state["config"]
    browser(panel, "reveal", revealed=False)
    assert token not in widget_state(panel)


def test_a_kernel_with_no_port_shows_the_jupyter_servers_routes(runtime_dir: Path, tmp_path: Path) -> None:
    # Issue 34: with transport "kernel" the panel said "not running" and gave no config.
    server = NotebookServer(transport="kernel")
    server.notebook_path = str(tmp_path / "reports" / "q1 sales.ipynb")
    try:
        register(server)
        panel = ServerPanel(server)
        assert (panel.header["url"], panel.header["channel"]) == (None, True)
        assert panel.connection_state["url"] == "<jupyter url>/mcp/notebooks/<path>"
        assert "sidebar shows these addresses filled in" in panel.connection_state["channel"]
        page = {"origin": "https://lab.example.org", "server_root": str(tmp_path), "base_url": "/user/ann/"}
        browser(panel, "page", **page)  # what the panel's front end says once it is shown
        route = "https://lab.example.org/user/ann/mcp/notebooks/reports/q1%20sales.ipynb"
        connection = panel.connection_state
        assert (connection["url"], connection["token"]) == (route, None)
        assert connection["channel"] == (
            'This kernel opens no port (`JupyterMCP.transport = "kernel"`): clients connect through the Jupyter '
            "server, which carries MCP over the kernel's channel, with the Jupyter server's token. Every notebook's "
            "tools are at `https://lab.example.org/user/ann/mcp`."
        )
        browser(panel, "client", client="vscode")
        assert json.loads(panel.connection_state["config"])["servers"]["q1-sales"] == {
            "type": "http",
            "url": route,
            "headers": {"Authorization": "token <your Jupyter server's token>"},
        }
        assert panel.connection_state["copy"] == panel.connection_state["config"]  # no token of the kernel's in it
        assert server.token not in widget_state(panel)
    finally:
        server.stop()


def test_a_bad_message_from_the_browser_is_refused_quietly(
    server: NotebookServer, caplog: pytest.LogCaptureFixture
) -> None:
    register(server)
    panel = ServerPanel(server)
    with caplog.at_level(logging.WARNING, logger="jupyter_mcp.widgets._view"):
        browser(panel, "reboot")
        browser(panel, "pause")  # no "paused"
        browser(panel, "client", client="nope")
        panel._on_message(panel, ["not", "an", "object"], [])
    assert not server.approvals.paused
    said = [r.getMessage() for r in caplog.records if r.name == "jupyter_mcp.widgets._view"]
    assert said[0] == "jupyter-mcp widget: unknown action 'reboot'"
    assert said[1].startswith("jupyter-mcp widget: action 'pause' refused: ")
    assert said[2:] == [
        "jupyter-mcp widget: action 'client' refused: unknown client 'nope'",
        "jupyter-mcp widget: unknown action None",
    ]


def test_fallbacks_for_front_ends_without_widgets(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    bundle, _metadata = card._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "application/vnd.jupyter.widget-view+json"}
    assert bundle["text/plain"].splitlines()[:3] == [
        f"MCP tool 'add(a, b)' live at {server.url}",
        "  Add two integers.",
        "  a: int (required) — The first number.",
    ]
    html_text = visible_text(bundle["text/html"])
    assert "add Add numbers live read-only" in html_text
    assert "a int required The first number." in html_text
    call(server, "add", a=1)
    panel = ServerPanel(server)
    text = panel._repr_mimebundle_()[0]["text/plain"]
    assert text.splitlines()[:4] == [
        f"MCP server running at {server.url}",
        "tools: add, shout",
        "clients: none",
        "calls: 1",
    ]
    assert "ok        add(a=1)" in text
    snapshot = visible_text(panel.fallback_html())
    assert "MCP server running at" in snapshot
    assert "✓ ok" in snapshot
    assert "a=1" in snapshot


def test_close_detaches_from_the_server(server: NotebookServer) -> None:
    register(server)
    history_observers = len(server.history._observers)
    registry_listeners = len(server.registry._listeners)
    approval_listeners = len(server.approvals.changes._items)
    views = [ServerPanel(server), tool_card(server, server.tools["add"])]
    assert len(server.history._observers) == history_observers + 2
    for view in views:
        view.close()
    assert len(server.history._observers) == history_observers
    assert len(server.registry._listeners) == registry_listeners
    assert len(server.approvals.changes._items) == approval_listeners


def test_tool_objects_display_as_cards(server: NotebookServer) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    register(server)
    shell = InteractiveShell.instance()
    install_formatter(shell)
    data, _metadata = shell.display_formatter.format(server.tools["add"])
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"].startswith("MCP tool 'add(a, b)'")
    assert "Add two integers." in data["text/html"]
