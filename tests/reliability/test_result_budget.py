"""Finding 4: big results reach real clients (default limits) as a preview plus a link to the full value.

A 600 KB table, a 5 MB text and a big PNG, from a plain ``ToolServer`` and from a real kernel, over
HTTP with ``mcp.Client`` in both protocol eras: each call is received, ends with a ``ResourceLink``,
and ``resources/read`` of the link returns the full value.
"""

from __future__ import annotations

import base64
import io
import json
import textwrap
from typing import Any

import mcp_types as mt
import pytest
from mcp import Client

from jupyter_mcp.tools import Context, ToolServer
from tests.conftest import http_client, served
from tests.harness import Kernel
from tests.kernel.conftest import endpoint

pytest.importorskip("pandas")
pytest.importorskip("PIL")

TOOLS = '''
import io
import numpy as np
import pandas as pd
from PIL import Image as PILImage

def table(rows: int):
    """A table of rows x 5 columns (about 100 bytes a row as JSON)."""
    return pd.DataFrame({
        "id": range(rows),
        "name": [f"item number {i}" for i in range(rows)],
        "price": [i * 0.25 for i in range(rows)],
        "in_stock": [i % 3 == 0 for i in range(rows)],
        "category": [f"category {i % 7}" for i in range(rows)],
    })

async def text(megabytes: int, ctx: Context) -> str:
    """Lines of text; says something first, so a 2026-era answer is a stream too."""
    await ctx.info("writing")
    line = "0123456789" * 9 + "abcdefghi\\n"
    return line * (megabytes * 10_000)

def picture(side: int):
    """A noisy PNG (noise does not compress)."""
    pixels = np.random.default_rng(0).integers(0, 255, (side, side, 3), dtype=np.uint8)
    return PILImage.fromarray(pixels)
'''


def _define(namespace: dict[str, Any], server: ToolServer) -> None:
    exec(TOOLS, namespace)  # the same tool code for the plain server and the kernel
    for name in ("table", "text", "picture"):
        server.add_tool(namespace[name])


async def _check_big_results(client: Client) -> None:
    table = await client.call_tool("table", {"rows": 6000})
    _check_table(table)
    rows = json.loads(await _read_text(client, table, "application/json"))
    assert len(rows["records"]) == 6000
    assert rows["records"][-1]["name"] == "item number 5999"

    text = await client.call_tool("text", {"megabytes": 5})
    head = _summary(text)
    assert "5,000,000 characters" in head
    full = await _read_text(client, text, "text/plain")
    assert len(full) == 5_000_000
    assert full.startswith("0123456789")

    picture = await client.call_tool("picture", {"side": 900})
    assert "image scaled to" in _summary(picture)
    (image,) = [block for block in picture.content if isinstance(block, mt.ImageContent)]
    original = await _read_blob(client, picture, "image/png")
    assert _png_size(original) == (900, 900)
    assert _png_size(base64.b64decode(image.data))[0] < 900


def _check_table(result: mt.CallToolResult) -> None:
    assert result.is_error is False
    head = _summary(result)
    assert "a table of 6,000 rows × 5 columns" in head
    assert "records: first 50 of 6,000 items" in head
    assert result.structured_content is not None
    assert len(result.structured_content["records"]) == 50


def _summary(result: mt.CallToolResult) -> str:
    assert result.is_error is False
    first, last = result.content[0], result.content[-1]
    assert isinstance(first, mt.TextContent)
    assert isinstance(last, mt.ResourceLink)
    assert last.uri in first.text
    assert "over this server's result budget of 500 kB" in first.text
    assert "kept until" in (last.description or "")
    return first.text


async def _read_text(client: Client, result: mt.CallToolResult, mime_type: str) -> str:
    link = result.content[-1]
    assert isinstance(link, mt.ResourceLink)
    assert link.mime_type == mime_type
    (contents,) = (await client.read_resource(link.uri)).contents
    assert isinstance(contents, mt.TextResourceContents)
    assert contents.mime_type == mime_type
    return contents.text


async def _read_blob(client: Client, result: mt.CallToolResult, mime_type: str) -> bytes:
    link = result.content[-1]
    assert isinstance(link, mt.ResourceLink)
    (contents,) = (await client.read_resource(link.uri)).contents
    assert isinstance(contents, mt.BlobResourceContents)
    assert contents.mime_type == mime_type
    return base64.b64decode(contents.blob)


def _png_size(data: bytes) -> tuple[int, int]:
    from PIL import Image as PILImage

    size: tuple[int, int] = PILImage.open(io.BytesIO(data)).size
    return size


async def test_big_results_reach_clients_of_a_plain_tool_server(mode: str) -> None:
    server = ToolServer()
    _define({"Context": Context}, server)
    with served(server) as url:
        async with http_client(url, "test-token", mode=mode) as client:
            await _check_big_results(client)
    assert len(server.result_links) == 3


async def test_big_results_reach_clients_of_a_kernel(kernel: Kernel, mode: str) -> None:
    kernel.run("from jupyter_mcp import Context\n" + TOOLS)
    kernel.run("for f in (table, text, picture): server.add_tool(f)\nserver.start()")
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode) as client:
        await _check_big_results(client)
    # The history keeps the full value; the record says what the client got instead.
    record = "[r for r in server.history if r.tool == 'table'][-1]"
    assert kernel.value(f"len({record}.structured['records'])") == 6000
    assert kernel.value(f"{record}.preview.uri").startswith("result://")
    assert kernel.value(f"{record}.preview.content[-1]['type']") == "resource_link"
    # A call from the notebook itself gets everything.
    kernel.run("whole = await server.call('table', {'rows': 6000})")
    assert kernel.value("len(whole.structured_content['records'])") == 6000


def test_the_magic_takes_a_result_budget(kernel: Kernel) -> None:
    kernel.run(
        textwrap.dedent(
            """
            %%mcp_tool --result-budget 8kB
            def letters(n: int) -> str:
                return "a" * n
            """
        )
    )
    assert kernel.value("server.tools['letters'].result_budget") == 8000
    failed = kernel.execute("%%mcp_tool --result-budget lots\ndef other() -> str:\n    return ''\n")
    shown = failed.stdout + failed.stderr + failed.text
    assert "result_budget must be a size of at least 4,096 bytes (like 500000, '500kB' or '2MB'), got 'lots'" in shown
    assert failed.error is None


async def test_a_task_result_obeys_the_budget_and_its_link_reads_the_full_value() -> None:
    import asyncio

    from tests.tasks_client import TasksClient

    server = ToolServer("tasks", task_after=0.2)

    @server.tool(task=True)
    async def slow_text(megabytes: int) -> str:
        """Works for a while, then returns a lot of text."""
        await asyncio.sleep(0.5)
        return "y" * (megabytes * 1_000_000)

    with served(server) as url:
        async with http_client(url, "test-token", mode="auto", extensions=[TasksClient(resolve=True)]) as client:
            result = await client.call_tool("slow_text", {"megabytes": 3})
            head = _summary(result)
            full = await _read_text(client, result, "text/plain")
    assert "first 31,250 and last 31,250 of 3,000,000 characters" in head
    assert full == "y" * 3_000_000


async def test_the_finding_a_600_kb_list_of_records_is_1_2_mb_on_the_wire_and_now_a_preview() -> None:
    def records(rows: int) -> list[dict[str, Any]]:
        """Rows as records: the JSON goes out twice (text block and structuredContent)."""
        return [
            {"id": i, "name": f"item number {i}", "price": i * 0.25, "category": f"category {i % 7}"}
            for i in range(rows)
        ]

    async def logged_records(ctx: Context, rows: int) -> list[dict[str, Any]]:
        """Logs first, so the answer goes out as an event of an SSE stream (a quiet call's is a JSON body)."""
        await ctx.info("listing")
        return records(rows)

    unbudgeted, budgeted = ToolServer(result_budget=None), ToolServer()
    for server in (unbudgeted, budgeted):
        server.add_tool(logged_records, name="records")
    assert len(json.dumps(records(7200))) > 600_000
    with served(unbudgeted) as url:
        async with http_client(url, "test-token", mode="legacy") as client:
            with pytest.raises(Exception, match="exceeded the 1048576 byte limit"):
                await client.call_tool("records", {"rows": 7200})
    with served(budgeted) as url:
        async with http_client(url, "test-token", mode="legacy") as client:
            result = await client.call_tool("records", {"rows": 7200})
            full = json.loads(await _read_text(client, result, "application/json"))
    assert "result: first 50 of 7,200 items" in _summary(result)
    assert full == records(7200)
