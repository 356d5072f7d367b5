"""Finding 4, its two gaps: big errors and big resource reads reach real clients (default limits).

An error result over the result budget is sent as a preview (head and tail of its text, with exact
counts) plus a link to the full text, and recorded as an ok result over budget is. A resource read
returns its whole contents however large, receivable by ``mcp.Client`` in both eras, also when the
read logs first (a 2026-era answer is then a stream too). A plain ``ToolServer`` and a real kernel,
over HTTP.
"""

from __future__ import annotations

import base64
from typing import Any

import mcp_types as mt
import pytest
from mcp import Client
from mcp.client import ClientRequestContext
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools import Context, ToolServer
from jupyter_mcp.tools.calls.history import CallHistory
from tests.conftest import http_client, served
from tests.harness import Kernel
from tests.kernel.conftest import endpoint

CODE = '''
from jupyter_mcp import ToolError

def fails(megabytes: int) -> str:
    """Raises an exception whose message is megabytes of text."""
    raise ValueError("start of the failure " + "x" * (megabytes * 1_000_000) + " end of the failure")

def refuses(megabytes: int) -> str:
    """Raises a ToolError of megabytes of text."""
    raise ToolError("refused: " + "y" * (megabytes * 1_000_000) + " (the end)")

def small_failure() -> str:
    raise ToolError("a short, clear error")

BIG_TEXT = "".join(f"line {i:07d} of the big resource\\n" for i in range(100_000))
BIG_BLOB = bytes(range(256)) * 8192

async def notes(ctx: Context) -> str:
    """Logs first, so a 2026-era answer is a stream too."""
    await ctx.info("reading the notes")
    return BIG_TEXT

async def small_notes(ctx: Context) -> str:
    await ctx.info("reading the small notes")
    return "a few words"

def blob() -> bytes:
    return BIG_BLOB

def broken() -> str:
    raise ValueError("z" * 2_000_000)

def rows(count: int) -> list[dict]:
    return [{"row": i, "text": "some words in a row"} for i in range(count)]

async def review(ctx: Context) -> str:
    """A prompt carrying the whole big text (logs first, so a 2026-era answer is a stream too)."""
    await ctx.info("writing the review prompt")
    return "Review these notes:\\n" + BIG_TEXT
'''

FAILS = "ValueError: start of the failure " + "x" * 5_000_000 + " end of the failure"
REFUSES = "refused: " + "y" * 2_000_000 + " (the end)"
BIG_TEXT = "".join(f"line {i:07d} of the big resource\n" for i in range(100_000))
BIG_BLOB = bytes(range(256)) * 8192


def _register(server: Any, namespace: dict[str, Any]) -> None:
    for name in ("fails", "refuses", "small_failure"):
        server.add_tool(namespace[name])
    server.add_resource(namespace["notes"], "data://notes")
    server.add_resource(namespace["small_notes"], "data://small-notes")
    server.add_resource(namespace["blob"], "data://blob", mime_type="application/octet-stream")
    server.add_resource(namespace["rows"], "data://rows/{count}")
    server.add_resource(namespace["broken"], "data://broken")
    server.add_prompt(namespace["review"])


def _client(url: str, token: str, mode: str, logs: list[str]) -> Client:
    async def logged(params: mt.LoggingMessageNotificationParams) -> None:
        logs.append(str(params.data))

    return http_client(url, token, mode=mode, logging_callback=logged, log_level="info")


async def _check_errors(client: Client) -> None:
    await _check_error(client, "fails", {"megabytes": 5}, FAILS, "5.0 MB")
    await _check_error(client, "refuses", {"megabytes": 2}, REFUSES, "2.0 MB")
    small = await client.call_tool("small_failure", {})
    assert small.is_error is True
    assert small.content == [mt.TextContent(type="text", text="a short, clear error")]


async def _check_error(client: Client, tool: str, arguments: dict[str, Any], full: str, size: str) -> None:
    result = await client.call_tool(tool, arguments)
    assert result.is_error is True
    error, note, link = result.content
    assert isinstance(error, mt.TextContent)
    assert isinstance(note, mt.TextContent)
    assert isinstance(link, mt.ResourceLink)
    # The error itself comes first, as clients show it: head and tail, saying exactly what is left out.
    marker = f"\n[… {len(full) - 62_500:,} characters left out here; the full text is at the link …]\n"
    assert error.text == full[:31_250] + marker + full[-31_250:]
    assert note.text == (
        f"This error is {size} as JSON, over this server's result budget of 500 kB, so the client gets a "
        f"preview (text: first 31,250 and last 31,250 of {len(full):,} characters). "
        f"The full error text is at {link.uri} (read it with resources/read)."
    )
    assert (link.title, link.mime_type) == (f"Full error of {tool}", "text/plain")
    assert f"The full error of this call of {tool!r}" in (link.description or "")
    (contents,) = (await client.read_resource(link.uri)).contents
    assert isinstance(contents, mt.TextResourceContents)
    assert contents.text == full


async def _check_reads(client: Client, logs: list[str]) -> None:
    (notes,) = (await client.read_resource("data://notes")).contents
    assert isinstance(notes, mt.TextResourceContents)
    assert len(notes.text) == len(BIG_TEXT) == 3_300_000
    assert notes.text == BIG_TEXT
    (blob,) = (await client.read_resource("data://blob")).contents
    assert isinstance(blob, mt.BlobResourceContents)
    assert base64.b64decode(blob.blob) == BIG_BLOB
    (rows,) = (await client.read_resource("data://rows/40000")).contents
    assert isinstance(rows, mt.TextResourceContents)
    assert len(rows.text) > 1_500_000
    assert rows.text.count('"row"') == 40_000
    # A read's error is a JSON-RPC error, not a result: no preview, but whole and receivable.
    with pytest.raises(MCPError) as failed:
        await client.read_resource("data://broken")
    assert failed.value.error.message == "ValueError: " + "z" * 2_000_000
    # A small read that logs is still the stream it was: the client hears its log.
    (small,) = (await client.read_resource("data://small-notes")).contents
    assert isinstance(small, mt.TextResourceContents)
    assert small.text == "a few words"
    assert "reading the small notes" in logs
    # A prompt's messages are its answer too: whole, however large.
    (message,) = (await client.get_prompt("review")).messages
    assert isinstance(message.content, mt.TextContent)
    assert message.content.text == "Review these notes:\n" + BIG_TEXT


async def test_big_errors_and_reads_reach_clients_of_a_plain_tool_server(mode: str) -> None:
    server, history = ToolServer(), CallHistory()
    server.add_call_observer(history)
    namespace: dict[str, Any] = {"Context": Context}
    exec(CODE, namespace)  # the same code for the plain server and the kernel
    _register(server, namespace)
    logs: list[str] = []
    with served(server) as url:
        async with _client(url, "test-token", mode, logs) as client:
            await _check_errors(client)
            await _check_reads(client, logs)
    assert len(server.result_links) == 2
    record = next(r for r in history if r.tool == "fails")
    assert (record.status, record.is_error, record.error) == ("error", True, FAILS)
    assert record.preview is not None
    assert record.preview.uri.startswith("result://")
    assert [block["type"] for block in record.preview.content] == ["text", "text", "resource_link"]


async def test_big_errors_and_reads_reach_clients_of_a_kernel(kernel: Kernel, mode: str) -> None:
    kernel.run("from jupyter_mcp import Context\n" + CODE)
    kernel.run(
        "for f in (fails, refuses, small_failure): server.add_tool(f)\n"
        "server.add_resource(notes, 'data://notes')\n"
        "server.add_resource(small_notes, 'data://small-notes')\n"
        "server.add_resource(blob, 'data://blob', mime_type='application/octet-stream')\n"
        "server.add_resource(rows, 'data://rows/{count}')\n"
        "server.add_resource(broken, 'data://broken')\n"
        "server.add_prompt(review)\n"
        "server.start()"
    )
    kernel.run("%mcp_resource BIG_TEXT --uri data://big-text")
    url, token = endpoint(kernel)
    logs: list[str] = []
    async with _client(url, token, mode, logs) as client:
        await _check_errors(client)
        await _check_reads(client, logs)
        (variable,) = (await client.read_resource("data://big-text")).contents
        assert isinstance(variable, mt.TextResourceContents)
        assert variable.text == BIG_TEXT
    # The history records a big error as it records a big result: the full text, and what was sent.
    record = "[r for r in server.history if r.tool == 'refuses'][-1]"
    assert kernel.value(f"{record}.status") == "error"
    assert kernel.value(f"len({record}.error)") == len(REFUSES)
    assert kernel.value(f"{record}.error[-40:]") == REFUSES[-40:]
    assert kernel.value(f"{record}.preview.uri").startswith("result://")
    assert kernel.value(f"{record}.preview.content[-1]['type']") == "resource_link"
    assert kernel.value(f"{record}.content[0]['text'][:20]") == REFUSES[:20]


NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


async def answer_name(context: ClientRequestContext, params: mt.ElicitRequestParams) -> mt.ElicitResult:
    return mt.ElicitResult(action="accept", content={"name": "Ada"})


async def test_a_read_that_asks_the_client_gets_its_answer_and_a_too_big_one_a_clear_error() -> None:
    """2025 era: the question goes out on the read's stream, so the answer must stream too.

    (A 2026-era read cannot ask the client: it is told so in one sentence.)
    """
    server = ToolServer()

    @server.resource("data://greeting/{times}")
    async def greeting(times: int, ctx: Context) -> str:
        answer = await ctx.elicit("Your name?", NAME, key="user_name")
        return "Hello, " * times + str((answer.content or {})["name"])

    with served(server) as url:
        async with http_client(url, "test-token", mode="legacy", elicitation_callback=answer_name) as client:
            (small,) = (await client.read_resource("data://greeting/2")).contents
            assert isinstance(small, mt.TextResourceContents)
            assert small.text == "Hello, Hello, Ada"
            with pytest.raises(MCPError, match=TOO_BIG):
                await client.read_resource("data://greeting/300000")
            (again,) = (await client.read_resource("data://greeting/1")).contents
            assert isinstance(again, mt.TextResourceContents)
            assert again.text == "Hello, Ada"


TOO_BIG = (
    r"^The contents of data://greeting/300000 are 2,1\d\d,\d\d\d bytes as JSON, more than one server-sent event "
    r"may carry to MCP clients \(1 MiB\), and this request asked the client a question, so its answer could not go "
    r"out as one JSON body: return less, or ask the question in a tool first$"
)
