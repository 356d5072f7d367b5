"""Regression tests for what a demanding user found (issue: heavy results, heavy load)."""

from __future__ import annotations

import json
import time
from typing import Any

import anyio
import httpx
import pytest

from jupyter_mcp.tools import Context, ToolServer
from jupyter_mcp.tools.calls.clipped import DROPPED
from tests.conftest import http_client, served
from tests.harness import Kernel

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def adder(strict: bool = False) -> ToolServer:
    server = ToolServer(strict=strict)

    @server.tool
    def adds(a: int, b: int = 0) -> int:
        """Adds b to a."""
        return a + b

    return server


# ---- 1. unknown arguments are refused, naming each ---------------------------------------------


@pytest.mark.parametrize("strict", [False, True])
async def test_unknown_arguments_are_a_tool_error_naming_each(mode: str, strict: bool) -> None:
    with served(adder(strict)) as url:
        async with http_client(url, "test-token", mode=mode) as client:
            listed = (await client.list_tools()).tools[0]
            assert listed.input_schema["additionalProperties"] is False
            result = await client.call_tool("adds", {"a": 1, "bb": 5, "zzz_extra": 3})
            ok = await client.call_tool("adds", {"a": 1, "b": 5})
    assert result.is_error is True
    assert result.content[0].text.splitlines() == [  # type: ignore[union-attr]
        "Invalid arguments for tool 'adds':",
        "- bb: unexpected argument (did you mean 'b'? this tool takes 'a', 'b')",
        "- zzz_extra: unexpected argument (this tool takes 'a', 'b')",
    ]
    assert ok.structured_content == {"result": 6}


# ---- 2. captured output keeps head and tail and says how much was dropped ------------------------


def test_five_megabytes_of_print_keep_head_tail_and_the_exact_count(kernel: Kernel) -> None:
    kernel.run(
        """
        @server.tool
        def chatty(lines: int) -> int:
            '''Prints a lot.'''
            for i in range(lines):
                print(f"{i:09d}")
            return lines
        """
    )
    kernel.run("import asyncio; await server.call('chatty', {'lines': 500_000})")
    stdout = kernel.value("server.history[-1].stdout")
    limit = kernel.value("server.history.max_payload")
    assert stdout.startswith("000000000\n000000001\n")
    assert stdout.endswith("000499998\n000499999\n")
    dropped = 5_000_000 - limit
    assert DROPPED.format(dropped, limit // 2, limit - limit // 2) in stdout


# ---- 3. large results do not pile up in the resumability store -----------------------------------


async def test_large_results_leave_the_event_store_after_delivery() -> None:
    server = ToolServer(result_budget="1MB")  # 900 kB results go out whole (finding 4's budget is 500 kB)

    @server.tool
    def big(n: int):  # type: ignore[no-untyped-def]  # unannotated: one text block, no structured copy
        """n hundred kilobytes of text."""
        return "x" * (n * 100_000)

    with served(server) as url:
        stores = server.event_stores
        stores.max_bytes = 2_500_000
        async with http_client(url, "test-token", mode="legacy") as client:
            (store,) = stores.all()
            store.delivered_grace = 0.5
            for _ in range(6):
                result = await client.call_tool("big", {"n": 9})
                assert len(result.content[0].text) == 900_000  # type: ignore[union-attr]
                assert stores.bytes <= stores.max_bytes
            await anyio.sleep(1.0)
            # Idle: the timer let go of every delivered result.
            assert stores.bytes < 10_000


# ---- 5. transport rejections: the right code and one sentence -----------------------------------


def _initialized_session(url: str) -> dict[str, str]:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
    }
    auth = {**HEADERS, "Authorization": "Bearer test-token"}
    response = httpx.post(url, json=init, headers=auth)
    session = {**auth, "mcp-session-id": response.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    httpx.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
    return session


def _error(response: httpx.Response) -> tuple[int, Any, int, str]:
    body = response.json()
    return response.status_code, body["id"], body["error"]["code"], body["error"]["message"]


@pytest.mark.parametrize("era", ["2025-11-25", "2026-07-28"])
def test_malformed_bodies_get_the_right_code_and_one_sentence(era: str) -> None:
    with served(adder()) as url:
        headers = (
            _initialized_session(url)
            if era == "2025-11-25"
            else {
                **HEADERS,
                "Authorization": "Bearer test-token",
                "mcp-protocol-version": era,
            }
        )
        post = lambda body: _error(httpx.post(url, content=body, headers=headers))  # noqa: E731
        assert post(json.dumps({"foo": 1})) == (400, None, -32600, 'Invalid request: "jsonrpc" must be "2.0"')
        assert post(json.dumps([1, 2])) == (
            400,
            None,
            -32600,
            "Invalid request: batches are not supported; send one JSON-RPC object",
        )
        assert post(b"{not json") == (
            400,
            None,
            -32700,
            "Parse error: the body is not valid JSON (key must be a string at line 1 column 2)",
        )
        assert post(json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": [1, 2]})) == (
            400,
            7,
            -32602,
            'Invalid params: "params" of tools/call must be an object, got an array',
        )
        assert post(json.dumps({"jsonrpc": "2.0", "id": 1.5, "method": "ping"})) == (
            400,
            None,
            -32600,
            'Invalid request: "id" must be a string or an integer, got a number',
        )


def test_a_junk_last_event_id_is_refused_not_an_empty_stream() -> None:
    with served(adder()) as url:
        headers = {**_initialized_session(url), "Accept": "text/event-stream", "last-event-id": "junk"}
        started = time.monotonic()
        response = httpx.get(url, headers=headers, timeout=5)
    assert time.monotonic() - started < 2
    assert _error(response) == (
        400,
        None,
        -32600,
        "Invalid request: Last-Event-ID 'junk' is not an event this server still keeps; open a new stream without it",
    )


def test_a_resumed_stream_never_carries_another_sessions_events() -> None:
    """Both clients number their first call 1; a stream id is the request id. The SDK's one shared
    store replayed session B's result into session A's resumed stream."""
    server = ToolServer()

    @server.tool
    async def slow(ctx: Context) -> str:
        """Reports progress, then takes a while."""
        await ctx.report_progress(1, 2)
        await anyio.sleep(1.0)
        return "A's result"

    @server.tool
    def fast() -> str:
        """Answers at once."""
        return "B's result"

    def call(name: str) -> dict[str, Any]:
        params = {"name": name, "arguments": {}, "_meta": {"progressToken": "p"}}
        return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}

    with served(server) as url:
        session_a, session_b = _initialized_session(url), _initialized_session(url)
        last = None
        with httpx.stream("POST", url, json=call("slow"), headers=session_a) as response:
            for line in response.iter_lines():
                last = line[3:].strip() if line.startswith("id:") else last
                if line.startswith("data:") and "notifications/progress" in line:
                    break  # the connection drops mid-call
        assert "B's result" in httpx.post(url, json=call("fast"), headers=session_b).text
        assert last is not None
        resume = {**session_a, "Accept": "text/event-stream", "last-event-id": last}
        with httpx.stream("GET", url, headers=resume, timeout=10) as response:
            results = []
            for line in response.iter_lines():
                if line.startswith("data:") and line[5:].strip():
                    results.append(json.loads(line[5:])["result"]["content"][0]["text"])
                    break
    assert results == ["A's result"]
