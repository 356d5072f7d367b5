"""The result budget's pieces: sizes, the kept full values and their bounds, previews within a schema."""

from __future__ import annotations

import random
import string
import sys
import time

import mcp_types as mt
import pytest

from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.budget.links import ResultLinks
from jupyter_mcp.tools.budget.preview import result_size, size_at_most
from jupyter_mcp.tools.errors import ResourceNotFoundError, ToolDefinitionError
from jupyter_mcp.tools.settings import ServerSettings
from jupyter_mcp.tools.sizes import parse_budget
from tests.conftest import connected


@pytest.mark.parametrize(
    ("given", "size"), [(500_000, 500_000), ("500kB", 500_000), ("2MB", 2_000_000), ("1MiB", 1_048_576), (None, None)]
)
def test_sizes_read_as_users_write_them(given: int | str | None, size: int | None) -> None:
    assert parse_budget(given, "server") == size


@pytest.mark.parametrize("bad", ["lots", 100, -1, True, "5 parsecs", 2.5])
def test_a_bad_budget_is_one_clear_sentence(bad: object) -> None:
    with pytest.raises(ToolDefinitionError) as raised:
        ToolServer(result_budget=bad)  # type: ignore[arg-type]
    assert str(raised.value) == (
        f"result_budget must be a size of at least 4,096 bytes (like 500000, '500kB' or '2MB'), got {bad!r}"
    )
    server = ToolServer()
    with pytest.raises(ToolDefinitionError, match=r"^tool 'f': result_budget must be"):
        server.add_tool(lambda: 1, name="f", result_budget=bad)  # type: ignore[arg-type]


def _contents(text: str) -> list[mt.TextResourceContents | mt.BlobResourceContents]:
    return [mt.TextResourceContents(uri="result://x", text=text, mime_type="text/plain")]


def test_result_links_are_bounded_by_bytes_and_count_oldest_first() -> None:
    kept = ResultLinks(ServerSettings(result_links_bytes=250, result_links_count=3, result_links_ttl=60))
    for index in range(4):
        kept.put(f"c{index}", _contents("x"), 100, "t")
    assert [kept.get(f"c{i}") is not None for i in range(4)] == [False, False, True, True]
    assert kept.size == 200
    too_big = kept.put("huge", _contents("x"), 1000, "t")
    assert kept.get("huge") is None
    assert "not kept: larger than the 250 bytes" in (too_big.description or "")


def test_result_links_expire_and_the_link_says_when() -> None:
    kept = ResultLinks(ServerSettings(result_links_ttl=0.2))
    link = kept.put("c1", _contents("x"), 10, "table")
    until = time.strftime("%H:%M", time.gmtime(time.time() + 0.2))
    assert f"kept until {until}" in (link.description or "")
    assert link.uri == "result://c1"
    assert link.mime_type == "text/plain"
    assert link.size == 10
    time.sleep(0.3)
    with pytest.raises(ResourceNotFoundError, match=r"^result://c1 is not kept \(any more\)"):
        kept.read("c1")
    assert kept.size == 0


async def test_a_preview_keeps_to_the_output_schema_or_says_why_not(mode: str) -> None:
    server = ToolServer(result_budget="8kB")

    @server.tool
    def rows(n: int) -> list[dict[str, int]]:
        return [{"i": i} for i in range(n)]

    @server.tool(output_schema={"type": "object", "properties": {"items": {"type": "array", "minItems": 500}}})
    def exact(n: int) -> dict[str, list[int]]:
        return {"items": list(range(n))}

    async with connected(server, mode) as client:
        listed = await client.call_tool("rows", {"n": 2000})
        refused = await client.call_tool("exact", {"n": 5000})
        whole = await client.read_resource(refused.content[-1].uri)  # type: ignore[union-attr]
    assert listed.is_error is False
    assert listed.structured_content == {"result": [{"i": i} for i in range(50)]}
    assert "result: first 50 of 2,000 items" in listed.content[0].text  # type: ignore[union-attr]
    assert refused.is_error is True
    assert "no preview of it fits its output schema and the budget" in refused.content[0].text  # type: ignore[union-attr]
    assert whole.contents[0].text == '{"items": ' + str(list(range(5000))) + "}"  # type: ignore[union-attr]


async def test_results_and_errors_within_budget_go_out_untouched_and_big_errors_as_a_preview(mode: str) -> None:
    server = ToolServer(result_budget="8kB")

    @server.tool
    def small() -> str:
        return "fine"

    @server.tool
    def fails_briefly() -> str:
        raise ValueError("x" * 2_000)

    @server.tool
    def fails() -> str:
        raise ValueError("x" * 20_000)

    async with connected(server, mode) as client:
        ok = await client.call_tool("small", {})
        brief = await client.call_tool("fails_briefly", {})
        error = await client.call_tool("fails", {})
        whole = await client.read_resource(error.content[-1].uri)  # type: ignore[union-attr]
    assert ok.content == [mt.TextContent(type="text", text="fine")]
    assert brief.is_error is True
    assert brief.content == [mt.TextContent(type="text", text="ValueError: " + "x" * 2_000)]
    assert error.is_error is True
    assert [block.type for block in error.content] == ["text", "text", "resource_link"]
    marker = "\n[… 19,012 characters left out here; the full text is at the link …]\n"
    assert error.content[0].text == "ValueError: " + "x" * 488 + marker + "x" * 500  # type: ignore[union-attr]
    assert "(text: first 500 and last 500 of 20,012 characters)" in error.content[1].text  # type: ignore[union-attr]
    assert whole.contents[0].text == "ValueError: " + "x" * 20_000  # type: ignore[union-attr]
    assert len(server.result_links) == 1


def test_a_result_is_measured_as_the_2026_era_escapes_it() -> None:
    import json

    from jupyter_mcp.tools.budget.preview import result_size

    for text in ("plain", "café", "数据表", "📈 up", 'quote " and \\ and \n'):
        result = mt.CallToolResult(content=[mt.TextContent(type="text", text=text)], structured_content={"r": text})
        wire = json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True), separators=(",", ":"))
        assert result_size(result) == len(wire.encode())


def test_the_quick_size_bound_is_never_below_the_exact_size() -> None:
    """``apply`` skips encoding a result when ``size_at_most`` is within the budget: it must bound from above."""
    rng = random.Random(7)
    chars = string.printable + 'é漢😀\u2028\x00\x1f"\\'
    for i in range(2000):
        text = "".join(rng.choice(chars) for _ in range(rng.randint(0, 200)))
        structured = {"result": {"k" + text[:5]: [text, rng.random(), rng.randint(-(10**18), 10**18), None]}}
        result = mt.CallToolResult(
            content=[mt.TextContent(type="text", text=text)] * rng.randint(0, 3),
            structured_content=structured if i % 2 else None,
            is_error=bool(i % 3),
        )
        assert size_at_most(result) >= result_size(result), result
    image = mt.ImageContent(type="image", data="aGk=", mime_type="image/png")
    assert size_at_most(mt.CallToolResult(content=[image])) == sys.maxsize  # not text: only the exact size tells
