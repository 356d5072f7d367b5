"""Resource and prompt cards, the panel's resources and prompts tables, and the history's kind filter,
against a real in-process server."""

from __future__ import annotations

import io
from typing import Literal

import pandas as pd
from PIL import Image as PILImage

from jupyter_mcp.kernel.display import card
from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools import Message
from jupyter_mcp.widgets import PromptCard, ResourceCard, ServerPanel
from tests.widgets.conftest import eventually

TABLE = pd.DataFrame({"city": ["Oslo", "Rome"], "country": ["no", "it"]})


def register(server: NotebookServer) -> None:
    state = {"version": 1}

    @server.resource("data://cities", mime_type="text/csv", description="The city table", tags={"geo"})
    def cities() -> pd.DataFrame:
        return TABLE.assign(version=state["version"])

    @server.resource("data://cities/{country}")
    def cities_in(country: str) -> list[dict[str, str]]:
        """One country's cities."""
        return TABLE[TABLE.country == country].to_dict("records")

    @server.resource("data://dot", mime_type="image/png")
    def dot() -> bytes:
        buffer = io.BytesIO()
        PILImage.new("RGB", (2, 2), "blue").save(buffer, format="PNG")
        return buffer.getvalue()

    @server.prompt(title="Review")
    def review(table: str, focus: Literal["quality", "bias"] = "quality") -> list[Message]:
        """Ask for a review."""
        return [Message(f"Review {table} for {focus}."), Message("Reading it now.", role="assistant")]

    server.bump = lambda: state.update(version=state["version"] + 1)  # type: ignore[attr-defined]


def shown_text(view: ResourceCard | PromptCard) -> str:
    """The text of what the card previews (the newest read's contents, the newest get's messages)."""
    shown = view.shown or {"content": []}
    texts = []
    for block in shown["content"]:
        contents = block.get("resource", block)
        texts.append(str(contents.get("text", "")))
    return " ".join(texts)


def test_resource_card_previews_reads_and_rereads_on_notify(server: NotebookServer) -> None:
    register(server)
    view = card(server, server.resources["data://cities"])
    assert isinstance(view, ResourceCard)
    component = view.component
    assert (component["name"], component["key"], component["status"]) == ("cities", "data://cities", "live")
    assert [b["text"] for b in component["badges"]] == ["resource", "text/csv", "#geo"]
    assert (component["try_label"], component["input_schema"]) == ("", None)
    eventually(lambda: "Oslo" in shown_text(view), what="the card's own first read")
    (block,) = view.shown["content"]
    assert (block["resource"]["uri"], block["resource"]["mimeType"]) == ("data://cities", "text/csv")
    assert view.shown["note"].endswith("by notebook")
    server.bump()  # type: ignore[attr-defined]
    server.notify_resource_updated("data://cities")
    eventually(lambda: len(server.history.for_tool("data://cities", "resource")) == 2, what="a second read")
    eventually(lambda: "Oslo,no,2" in shown_text(view), what="the new version")
    assert [row["client"] for row in view.recent] == ["notebook", "notebook"]
    view._on_message(view, {"action": "reread"}, [])  # "Read again"
    eventually(lambda: len(view.recent) == 3, what="Read again reads again")
    image = card(server, server.resources["data://dot"])
    eventually(lambda: image.shown and image.shown["content"][0]["resource"].get("blob"), what="an image preview")
    assert image.shown["content"][0]["resource"]["mimeType"] == "image/png"


def test_template_card_tries_a_uri_and_follows_its_cell(server: NotebookServer) -> None:
    register(server)
    view = card(server, server.resources["data://cities/{country}"])
    assert view.try_it is not None
    assert list(view.component["input_schema"]["properties"]) == ["country"]
    assert view.component["try_label"] == "Read"
    assert view.shown is None
    assert view.shown_empty == "Fill in Try it to read one of its URIs."
    view._on_message(view, {"action": "run", "arguments": {"country": "it"}}, [])
    eventually(lambda: view.try_it is not None and view.try_it.outcome == "ok", what="the template read")
    eventually(lambda: "Rome" in shown_text(view), what="the preview of data://cities/it")
    assert view.shown["content"][0]["resource"]["uri"] == "data://cities/it"
    assert server.history[-1].component == "data://cities/{country}"
    view.set_enabled(False)
    assert server.resources["data://cities/{country}"].enabled is False
    view.set_enabled(True)
    server.add_resource(lambda country: country, "data://cities/{country}", name="again")  # a re-run cell
    eventually(lambda: view.status == "replaced", what="the old card says it was replaced")
    assert not view.try_it.active


def test_prompt_card_renders_messages_with_roles(server: NotebookServer) -> None:
    register(server)
    view = card(server, server.prompts["review"])
    assert isinstance(view, PromptCard)
    component = view.component
    assert (component["name"], component["title"], component["status"]) == ("review", "Review", "live")
    # Issue 23: a Literal argument's constraint read "completes"; only a completer the user wrote says so.
    assert component["completions"] == []
    assert component["try_label"] == "Render"
    assert view.try_it is not None
    view.try_it.run({"table": "sales"})
    eventually(lambda: view.shown is not None, what="the rendered messages")
    assert [(b["role"], b["text"]) for b in view.shown["content"]] == [
        ("user", "Review sales for quality."),
        ("assistant", "Reading it now."),
    ]
    assert view.shown["note"].startswith("table='sales' · ")
    assert view.fallback_text().startswith("MCP prompt 'review(table, focus)' live at http://127.0.0.1:")


def test_a_prompt_argument_with_a_completer_the_user_wrote_says_it_suggests(server: NotebookServer) -> None:
    @server.prompt(completer={"table": lambda typed: ["sales", "stock"]})
    def summarize(table: str, focus: Literal["a", "b"] = "a") -> str:
        return f"Summarize {table}"

    assert card(server, server.prompts["summarize"]).component["completions"] == ["table"]


def test_panel_tables_and_history_kind_filter(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    server.read_in_background("data://cities/no").result(timeout=30)
    server.get_prompt_in_background("review", {"table": "x"}).result(timeout=30)
    eventually(lambda: len(panel.history.rows) == 2, what="the read and the get")
    assert [(r["key"], r["detail"], r["calls"]) for r in panel.components["resource"]] == [
        ("data://cities", "text/csv", 0),
        ("data://cities/{country}", "application/json", 1),
        ("data://dot", "image/png", 0),
    ]
    assert [(r["key"], r["detail"], r["calls"]) for r in panel.components["prompt"]] == [("review", "table, focus", 1)]
    assert [(r["kind"], r["tool"]) for r in panel.history.rows] == [
        ("prompt", "review"),
        ("resource", "data://cities/no"),
    ]
    panel.history.set_filter(kind="resource")
    assert [r["tool"] for r in panel.history.rows] == ["data://cities/no"]
    assert "data://cities/{country}" in panel.history_state["names"]
    panel.history.set_filter(tool="data://cities/{country}")  # a template's reads, whatever URI
    assert [r["tool"] for r in panel.history.rows] == ["data://cities/no"]
    panel.set_enabled("resource", "data://dot", False)
    assert not server.resource_registry.is_visible(server.resources["data://dot"])
    # Issue 23: kinds with nothing in them are not counted, and there is no pause switch without tools.
    assert panel.header["counts"] == "3 resources · 1 prompt · 0 clients · 2 calls"
    assert panel.header["pausable"] is False
    panel.close()
