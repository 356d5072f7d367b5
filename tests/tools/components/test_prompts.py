"""Prompts and completions through a real mcp.Client in both eras."""

from __future__ import annotations

import base64
import enum
from typing import Annotated, Any, Literal

import mcp_types as mt
import pytest
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from jupyter_mcp.tools import Context, Image, Message, PromptError, ToolDefinitionError, ToolServer
from jupyter_mcp.tools.components.prompts import Prompt
from tests.conftest import connected

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAAASUVORK5CYII="
)


class Tone(enum.Enum):
    FRIENDLY = "friendly"
    FORMAL = "formal"


class Window(BaseModel):
    start: int
    end: int


def dump(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True, mode="json")


def reviews() -> ToolServer:
    server = ToolServer("reviews")

    @server.prompt
    def review_table(
        table: Annotated[str, "Which table"], focus: Literal["quality", "bias"] = "quality", rows: int = 5
    ) -> str:
        """Ask for a review of one of the notebook's tables.

        Args:
            rows: How many rows to show.
        """
        return f"Review {table} for {focus}; here are its first {rows} rows."

    @server.prompt(title="Explain a window", completer={"table": lambda value: ["sales", "stock"]})
    def explain(table: str, window: Window, tone: Tone = Tone.FRIENDLY) -> list[Any]:
        """Explain a slice of a table."""
        return [
            Message(f"Explain rows {window.start}-{window.end} of {table}, {tone.value}."),
            Message("Sure: which columns matter?", role="assistant"),
            Message(Image(data=PNG, format="png")),
            Message(mt.TextResourceContents(uri="data://tables/sales", mime_type="text/csv", text="a,b\n1,2\n")),
        ]

    @server.prompt
    async def who(ctx: Context) -> str:
        """Says who asks."""
        return f"Hello {ctx.client_info.name if ctx.client_info else 'nobody'}"

    @server.prompt
    def refuse() -> str:
        """Always refuses."""
        raise PromptError("Not today")

    return server


async def test_lists_prompts_with_their_arguments(mode: str) -> None:
    async with connected(reviews(), mode) as client:
        listed = {p.name: dump(p) for p in (await client.list_prompts()).prompts}
        assert client.server_capabilities.prompts is not None
        assert client.server_capabilities.prompts.list_changed is True
    assert listed["review_table"] == {
        "name": "review_table",
        "description": "Ask for a review of one of the notebook's tables.",
        "arguments": [
            {"name": "table", "description": "Which table", "required": True},
            {"name": "focus", "required": False},
            {
                "name": "rows",
                "description": 'How many rows to show.\n\nProvide as a JSON string matching the following schema: {"type": "integer"}',
                "required": False,
            },
        ],
    }
    assert listed["explain"]["title"] == "Explain a window"
    window = listed["explain"]["arguments"][1]
    assert window["name"] == "window"
    assert window["required"] is True
    assert window["description"].startswith("Provide as a JSON string matching the following schema: ")
    assert listed["who"]["arguments"] == []


async def test_string_arguments_become_the_annotated_types(mode: str) -> None:
    async with connected(reviews(), mode) as client:
        simple = await client.get_prompt("review_table", {"table": "sales", "rows": "3"})
        rich = await client.get_prompt(
            "explain", {"table": "sales", "window": '{"start": 1, "end": 9}', "tone": "formal"}
        )
        who = await client.get_prompt("who")
    assert simple.description == "Ask for a review of one of the notebook's tables."
    assert [dump(m) for m in simple.messages] == [
        {"role": "user", "content": {"type": "text", "text": "Review sales for quality; here are its first 3 rows."}}
    ]
    roles = [m.role for m in rich.messages]
    kinds = [m.content.type for m in rich.messages]
    assert (roles, kinds) == (["user", "assistant", "user", "user"], ["text", "text", "image", "resource"])
    assert rich.messages[0].content.text == "Explain rows 1-9 of sales, formal."  # type: ignore[union-attr]
    assert rich.messages[2].content.data == base64.b64encode(PNG).decode()  # type: ignore[union-attr]
    assert dump(rich.messages[3].content)["resource"]["uri"] == "data://tables/sales"
    assert who.messages[0].content.text == "Hello mcp"  # type: ignore[union-attr]


async def test_bad_arguments_and_unknown_prompts_are_invalid_params(mode: str) -> None:
    async with connected(reviews(), mode) as client:
        with pytest.raises(MCPError) as bad:
            await client.get_prompt("review_table", {"focus": "speed", "rows": "many"})
        with pytest.raises(MCPError) as unknown:
            await client.get_prompt("nope")
        with pytest.raises(MCPError) as refused:
            await client.get_prompt("refuse")
    assert bad.value.code == mt.INVALID_PARAMS
    assert bad.value.message.splitlines() == [
        "Invalid arguments for prompt 'review_table':",
        "- table: Field required",
        "- focus: Input should be 'quality' or 'bias' (got 'speed')",
        "- rows: Input should be a valid integer, unable to parse string as an integer (got 'many')",
    ]
    assert (unknown.value.code, unknown.value.message) == (
        mt.INVALID_PARAMS,
        "Unknown prompt: 'nope'. Available prompts: review_table, explain, who, refuse",
    )
    assert (refused.value.code, refused.value.message) == (mt.INTERNAL_ERROR, "Not today")


async def test_completions_from_literals_enums_and_completers(mode: str) -> None:
    async with connected(reviews(), mode) as client:
        ref = mt.PromptReference(type="ref/prompt", name="review_table")
        focus = await client.complete(ref, {"name": "focus", "value": "B"})
        free = await client.complete(ref, {"name": "table", "value": "s"})
        explain = mt.PromptReference(type="ref/prompt", name="explain")
        tone = await client.complete(explain, {"name": "tone", "value": "f"})
        table = await client.complete(explain, {"name": "table", "value": "s"})
        with pytest.raises(MCPError) as unknown:
            await client.complete(mt.PromptReference(type="ref/prompt", name="nope"), {"name": "x", "value": ""})
    assert dump(focus.completion) == {"values": ["bias"], "total": 1, "hasMore": False}
    assert free.completion.values == []
    assert tone.completion.values == ["friendly", "formal"]
    assert table.completion.values == ["sales", "stock"]
    assert unknown.value.code == mt.INVALID_PARAMS


async def test_template_completions_see_the_other_arguments(mode: str) -> None:
    server = ToolServer("t")
    regions = {"fr": ["idf", "paca"], "it": ["lazio"]}

    def region_names(value: str, arguments: dict[str, str]) -> list[str]:
        return [r for r in regions.get(arguments.get("country", ""), []) if r.startswith(value)]

    @server.resource("data://{country}/{region}", completer={"region": region_names})
    def region(country: Literal["fr", "it"], region: str) -> str:
        return f"{country}/{region}"

    async with connected(server, mode) as client:
        ref = mt.ResourceTemplateReference(type="ref/resource", uri="data://{country}/{region}")
        countries = await client.complete(ref, {"name": "country", "value": ""})
        picked = await client.complete(ref, {"name": "region", "value": "p"}, {"country": "fr"})
    assert countries.completion.values == ["fr", "it"]
    assert picked.completion.values == ["paca"]


async def test_a_failing_completer_is_a_clear_error(mode: str) -> None:
    server = ToolServer("t")

    def broken(value: str) -> list[str]:
        raise KeyError(value)

    @server.prompt(completer={"topic": broken})
    def ask(topic: str) -> str:
        """Ask."""
        return topic

    async with connected(server, mode) as client:
        with pytest.raises(MCPError) as failed:
            await client.complete(mt.PromptReference(type="ref/prompt", name="ask"), {"name": "topic", "value": "x"})
    assert failed.value.message == "the completer for 'topic' of prompt 'ask' failed: KeyError: 'x'"


def test_bad_prompt_definitions_say_what_is_wrong() -> None:
    def ask(topic: str) -> str:
        return topic

    with pytest.raises(
        ToolDefinitionError, match=r"completer for 'subject', which is not one of its arguments \(topic\)"
    ):
        Prompt.from_function(ask, completer={"subject": lambda v: []})
    with pytest.raises(ToolDefinitionError, match="the completer for 'topic' is not callable"):
        Prompt.from_function(ask, completer={"topic": ["a"]})  # type: ignore[dict-item]
    with pytest.raises(ToolDefinitionError, match="unknown prompt option 'mime_type'"):
        Prompt.from_function(ask, mime_type="text/plain")  # type: ignore[call-arg]
    with pytest.raises(ToolDefinitionError, match=r"prompt 'many': parameter '\*topics' is not allowed"):
        Prompt.from_function(lambda *topics: "", name="many")
