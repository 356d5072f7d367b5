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
from tests.widgets.htmltext import visible_text

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


def test_resource_card_previews_reads_and_rereads_on_notify(server: NotebookServer) -> None:
    register(server)
    view = card(server, server.resources["data://cities"])
    assert isinstance(view, ResourceCard)
    assert visible_text(view.header.value) == "cities live resource text/csv #geo data://cities"
    eventually(lambda: "Oslo" in visible_text(view.preview.value), what="the card's own first read")
    assert "<table" in view.preview.value  # CSV shows as a table
    server.bump()  # type: ignore[attr-defined]
    server.notify_resource_updated("data://cities")
    eventually(lambda: len(server.history.for_tool("data://cities", "resource")) == 2, what="a second read")
    eventually(lambda: "2" in visible_text(view.preview.value).split("version")[-1], what="the new version")
    assert [row["client"] for row in view.recent] == ["notebook", "notebook"]
    view.refresh_button.click()
    eventually(lambda: len(view.recent) == 3, what="Refresh reads again")
    image = card(server, server.resources["data://dot"])
    eventually(lambda: 'src="data:image/png;base64,' in image.preview.value, what="an image preview")


def test_template_card_tries_a_uri_and_follows_its_cell(server: NotebookServer) -> None:
    register(server)
    view = card(server, server.resources["data://cities/{country}"])
    assert view.try_it is not None
    assert list(view.try_it.inputs) == ["country"]
    assert "Fill in Try it" in visible_text(view.preview.value)
    view.try_it.inputs["country"].value = "it"
    view.try_it.run_button.click()
    eventually(lambda: view.try_it is not None and view.try_it.outcome == "ok", what="the template read")
    eventually(lambda: "Rome" in visible_text(view.preview.value), what="the preview of data://cities/it")
    assert "data://cities/it" in visible_text(view.preview.value)
    assert server.history[-1].component == "data://cities/{country}"
    view.enabled.value = False
    assert server.resources["data://cities/{country}"].enabled is False
    view.enabled.value = True
    server.add_resource(lambda country: country, "data://cities/{country}", name="again")  # a re-run cell
    eventually(lambda: view.status == "replaced", what="the old card says it was replaced")
    assert view.try_it.run_button.disabled


def test_prompt_card_renders_messages_with_roles(server: NotebookServer) -> None:
    register(server)
    view = card(server, server.prompts["review"])
    assert isinstance(view, PromptCard)
    assert visible_text(view.header.value) == "review Review live"
    assert "completes" in visible_text(view.children[2].value)  # the focus argument's Literal
    assert view.try_it is not None
    view.try_it.inputs["table"].value = "sales"
    view.try_it.run_button.click()
    eventually(lambda: "Review sales for quality." in visible_text(view.messages.value), what="the rendered messages")
    assert "user Review sales for quality. assistant Reading it now." in visible_text(view.messages.value)
    assert view.fallback_text().startswith("MCP prompt 'review(table, focus)' live at http://127.0.0.1:")


def test_panel_tables_and_history_kind_filter(server: NotebookServer) -> None:
    register(server)
    panel = ServerPanel(server)
    server.read_in_background("data://cities/no").result(timeout=30)
    server.get_prompt_in_background("review", {"table": "x"}).result(timeout=30)
    eventually(lambda: len(panel.history.rows) == 2, what="the read and the get")
    assert [(r["name"], r["detail"], r["calls"]) for r in panel.resources.rows] == [
        ("data://cities", "text/csv", 0),
        ("data://cities/{country}", "application/json", 1),
        ("data://dot", "image/png", 0),
    ]
    assert [(r["name"], r["detail"], r["calls"]) for r in panel.prompts.rows] == [("review", "table, focus", 1)]
    assert panel.sections["resources"].title == "Resources (3)"
    assert [(r["kind"], r["tool"]) for r in panel.history.rows] == [
        ("prompt", "review"),
        ("resource", "data://cities/no"),
    ]
    panel.history.kind_choice.value = "resource"
    assert [r["tool"] for r in panel.history.rows] == ["data://cities/no"]
    assert ("data://cities/{country}", "data://cities/{country}") in panel.history.tool_choice.options
    panel.history.tool_choice.value = "data://cities/{country}"  # a template's reads, whatever URI
    assert [r["tool"] for r in panel.history.rows] == ["data://cities/no"]
    panel.resources._lines["data://dot"].enabled.value = False
    assert not server.resource_registry.is_visible(server.resources["data://dot"])
    header = visible_text(panel.header.value)
    assert "0 tools · 3 resources · 1 prompt" in header
    panel.close()
