"""The views against a real in-process server: cards, panel, history, tools table, connection."""

from __future__ import annotations

import json
from typing import Any, Literal

import ipywidgets as widgets

from jupyter_mcp.kernel.display import card as tool_card
from jupyter_mcp.kernel.display import install_formatter
from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools import ToolError
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
    """Every synced state value in ``widget``'s tree, as JSON text (what a front end receives)."""
    states = [widget.get_state()]
    for child in getattr(widget, "children", ()):
        states.append(json.loads(widget_state(child)))
    return json.dumps(states, default=str)


def test_card_header_and_schema(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    header = visible_text(card.header.value)
    assert header == "add Add numbers live read-only idempotent closed-world #math worker thread · timeout 30 s"
    schema = visible_text(card.children[2].value)
    assert schema.startswith("Add two integers. Parameters parameter type required default constraints description")
    assert "a int required The first number." in schema
    assert "b int optional 2 The second number." in schema
    assert "Returns int" in schema
    assert '"required": [ "a" ]' in schema  # the raw schema, folded in <details>
    shout = visible_text(tool_card(server, server.tools["shout"]).header.value)
    assert "destructive" in shout
    assert "no timeout" in shout


def test_card_header_shows_task_support_and_parameter_headers(server: NotebookServer) -> None:
    @server.tool(task=True, headers={"region": "Region"})
    async def train(region: str, epochs: int = 3) -> str:
        """Train a model."""
        return region

    @server.tool(task="required")
    async def simulate() -> str:
        """Run the simulation."""
        return "done"

    header = tool_card(server, server.tools["train"]).header.value
    assert "train live task headers" in visible_text(header)
    assert 'title="region → Mcp-Param-Region"' in header
    assert "simulate live task only" in visible_text(tool_card(server, server.tools["simulate"]).header.value)


def test_card_follows_enable_disable_replace_remove(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    assert (card.status, card.enabled.value, card.try_it.run_button.disabled) == ("live", True, False)
    server.disable(names={"add"})
    eventually(lambda: card.status == "disabled", what="disabled")
    assert (card.enabled.value, card.try_it.run_button.disabled) == (False, True)
    card.enabled.value = True  # the toggle enables for real
    assert server.registry.is_visible(server.tools["add"])
    assert card.status == "live"
    old_tool = server.tools["add"]
    register(server)  # re-running the cell
    eventually(lambda: card.status == "replaced", what="replaced")
    assert card.enabled.disabled
    assert card.try_it.run_button.disabled
    assert "replaced by a newer cell run" in visible_text(card.header.value)
    card.enabled.value = False  # an old card's toggle must not touch the new tool
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
    assert "a=6" in visible_text(card.calls_view.value)
    register(server)
    eventually(lambda: card.status == "replaced", what="replaced")
    assert len(server.history._observers) == observers - 1  # a replaced card stops listening
    call(server, "add", a=100)
    assert card.recent[0]["arguments"] == "a=6"


def test_try_it_calls_through_the_call_path(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    card.try_it.inputs["a"].value = 40
    card.try_it.run_button.click()
    eventually(lambda: card.try_it.outcome == "ok", what="try-it result")
    record = server.history[-1]
    assert (record.tool, record.arguments, record.source, record.stdout) == (
        "add",
        {"a": 40},
        "notebook",
        "adding 40 and 2\n",
    )
    result = visible_text(card.try_it.result.value)
    assert result.startswith("✓ ok in ")
    assert '"result": 42' in result
    eventually(lambda: card.recent and card.recent[0]["client"] == "notebook", what="the try-it call in the card")


def test_try_it_reports_bad_input_and_tool_errors(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["shout"])
    calls = server.history.total_calls
    card.try_it.inputs["tags"].value = "[not json"
    assert card.try_it.run() is None
    assert card.try_it.outcome == "invalid"
    assert "tags: not valid JSON" in visible_text(card.try_it.result.value)
    assert server.history.total_calls == calls
    card.try_it.inputs["tags"].value = '["x"]'
    card.try_it.inputs["text"].value = "fail"
    card.try_it.inputs["style"].value = "loud"
    future = card.try_it.run()
    assert future is not None
    assert future.result(timeout=30).is_error
    eventually(lambda: card.try_it.outcome == "error", what="error outcome")
    assert "refusing to shout 'fail'" in visible_text(card.try_it.result.value)
    assert server.history[-1].arguments == {"text": "fail", "style": "loud", "tags": ["x"]}


def test_history_view_lists_filters_selects_and_clears(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    history = panel.history
    call(server, "add", a=1)
    call(server, "shout", text="fail")
    call(server, "shout", text="ok")
    eventually(lambda: len(history.rows) == 3, what="3 rows")
    assert [(r["tool"], r["status"]) for r in history.rows] == [("shout", "ok"), ("shout", "error"), ("add", "ok")]
    assert [row["id"] for row in history.list_view.get_state()["rows"]] == [row["id"] for row in history.rows]
    history.status_choice.value = "error"
    assert [r["arguments"] for r in history.rows] == ["text='fail'"]
    history.status_choice.value = ""
    history.tool_choice.value = "add"
    assert [r["tool"] for r in history.rows] == ["add"]
    assert len(history.list_view.rows) == 1
    history.tool_choice.value = ""
    failed = history.rows[1]["id"]
    history.list_view.set_state({"selected": failed})  # the message a click on the row sends (calllist.js)
    assert history.selected == failed
    detail = visible_text(history.detail.value)
    assert "Error refusing to shout 'fail'" in detail
    history.select(failed)  # selecting the shown call again hides it
    assert (history.selected, history.list_view.selected, history.detail.value) == (None, None, "")
    history.clear_button.click()
    eventually(lambda: history.rows == [], what="cleared")
    assert "no calls yet" in visible_text(history.summary.value)


def test_a_finished_call_can_be_kept_as_a_test(server: NotebookServer) -> None:
    register(server)
    history = ServerPanel(server).history
    kept: list[str] = []
    server.history.subscribe(lambda event, record: kept.append(record.tool) if event == "kept" and record else None)
    assert history.keep_button.layout.display == "none"  # nothing selected
    call(server, "shout", text="fail")
    eventually(lambda: len(history.rows) == 1, what="1 row")
    history.list_view.set_state({"selected": history.rows[0]["id"]})
    assert "#1" in visible_text(history.detail.value)
    assert (history.keep_button.layout.display, history.keep_button.description) == (None, "Keep as test")
    history.keep_button.click()
    assert server.history[0].kept
    assert kept == ["shout"]
    assert (history.keep_button.description, history.keep_button.disabled) == ("Kept as test", True)
    history.keep_button.click()  # disabled in the browser; a second keep changes nothing
    assert kept == ["shout"]


def test_history_view_pages(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    for a in range(25):
        call(server, "add", a=a)
    eventually(lambda: len(panel.history.rows) == 20, what="first page")
    assert panel.history.more.layout.display is None
    panel.history.more.click()
    assert len(panel.history.rows) == 25
    assert panel.history.more.layout.display == "none"
    assert "showing 25 of 25 calls" in visible_text(panel.history.summary.value)


def test_tools_table_counts_and_toggles(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    card = tool_card(server, server.tools["add"])
    call(server, "add", a=1)
    call(server, "shout", text="fail")
    eventually(lambda: sum(r["calls"] for r in panel.tools.rows) == 2, what="counts")
    rows = {r["name"]: r for r in panel.tools.rows}
    assert (rows["add"]["calls"], rows["add"]["errors"], rows["shout"]["errors"]) == (1, 0, 1)
    assert rows["add"]["mean_duration"].endswith("ms")
    assert panel.sections["tools"].title == "Tools (2)"
    panel.tools._lines["add"].enabled.value = False
    assert not server.registry.is_visible(server.tools["add"])
    eventually(lambda: card.status == "disabled", what="the card follows the panel")
    other = ServerPanel(server)
    assert other.tools._lines["add"].enabled.value is False
    card.enabled.value = True
    eventually(
        lambda: panel.tools._lines["add"].enabled.value and other.tools._lines["add"].enabled.value, what="both panels"
    )


def test_connection_hides_the_token_until_revealed(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    token = server.token
    assert token not in widget_state(panel)
    assert token not in panel.fallback_html() + panel.fallback_text()
    assert "jupyter-mcp" in panel.connection.config_view.value  # Claude's stdio config has no token
    assert "jmcp-copy" in panel.connection.config_view.value
    for client in ("vscode", "cursor", "inspector"):
        panel.connection.client_choice.value = client
        assert "Reveal the token to copy" in visible_text(panel.connection.config_view.value)
        assert "Bearer ••••" in visible_text(panel.connection.config_view.value)
    assert token not in widget_state(panel)
    panel.connection.reveal.value = True
    assert token in panel.connection.endpoint.value
    panel.connection.client_choice.value = "vscode"
    config = visible_text(panel.connection.config_view.value)
    assert f"Bearer {token}" in config
    assert 'data-copy="{' in panel.connection.config_view.value
    panel.connection.reveal.value = False
    assert token not in widget_state(panel)


def test_fallbacks_for_front_ends_without_widgets(server: NotebookServer) -> None:
    register(server)
    card = tool_card(server, server.tools["add"])
    bundle = card._repr_mimebundle_()
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
    text = panel._repr_mimebundle_()["text/plain"]
    assert text.splitlines()[:4] == [f"MCP server: {server.url}", "tools: add, shout", "clients: none", "calls: 1"]
    assert "ok        add(a=1)" in text
    snapshot = visible_text(panel.fallback_html())
    assert "MCP server running at" in snapshot
    assert "✓ ok" in snapshot
    assert "a=1" in snapshot


def test_close_detaches_from_the_server(server: NotebookServer) -> None:
    register(server)
    history_observers = len(server.history._observers)
    registry_listeners = len(server.registry._listeners)
    views = [ServerPanel(server), tool_card(server, server.tools["add"])]
    assert len(server.history._observers) == history_observers + 2
    for view in views:
        view.close()
    assert len(server.history._observers) == history_observers
    assert len(server.registry._listeners) == registry_listeners


def test_tool_objects_display_as_cards(server: NotebookServer) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    register(server)
    shell = InteractiveShell.instance()
    install_formatter(shell)
    data, _metadata = shell.display_formatter.format(server.tools["add"])
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"].startswith("MCP tool 'add(a, b)'")
    assert "Add two integers." in data["text/html"]
