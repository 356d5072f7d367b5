"""2025-era requests in an open session answered in their own task: JSON when quiet, SSE (stored) once anything goes out."""

import json
from typing import Any

import anyio
import httpx
import mcp_types as mt
import pytest

from jupyter_mcp.tools import Context, ToolServer
from tests.conftest import http_client, served

HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "Authorization": "Bearer test-token",
}
NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
INIT_PARAMS = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}

pytestmark = pytest.mark.fast_path  # SessionEntry is the SDK adapter's fast path


def _session(url: str) -> dict[str, str]:
    """An initialized session that has made one request (the server knows its connection from then on)."""
    opened = httpx.post(
        url, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT_PARAMS}, headers=HEADERS
    )
    session = {**HEADERS, "mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    httpx.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
    assert httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=session).status_code == 200
    return session


def _call(request_id: int, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments or {}}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def _events(text: str) -> list[tuple[str | None, str]]:
    """(id, data) of each SSE event."""
    found = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        lines = block.split("\n")
        data = [line[5:].strip() for line in lines if line.startswith("data:")]
        ids = [line[3:].strip() for line in lines if line.startswith("id:")]
        if data:
            found.append((ids[0] if ids else None, data[0]))
    return found


def _server() -> ToolServer:
    server = ToolServer()

    @server.tool
    def add(a: int, b: int) -> int:
        """Adds."""
        return a + b

    @server.tool
    async def chatty(ctx: Context) -> str:
        """Logs, then answers."""
        await ctx.info("working")
        return "done"

    @server.tool
    async def slow(seconds: float) -> str:
        """Takes a while, quietly."""
        await anyio.sleep(seconds)
        return "slept"

    return server


def test_a_quiet_call_is_one_json_body_and_stores_nothing() -> None:
    server = _server()
    with served(server) as url:
        session = _session(url)
        stored = server.event_stores.count
        response = httpx.post(url, json=_call(7, "add", {"a": 2, "b": 3}), headers=session)
        assert response.headers["content-type"] == "application/json"
        assert response.headers["mcp-session-id"] == session["mcp-session-id"]
        assert response.json()["id"] == 7
        assert response.json()["result"]["structuredContent"] == {"result": 5}
        assert server.event_stores.count == stored


def test_a_call_that_logs_streams_stored_events_and_ends_with_its_answer() -> None:
    server = _server()
    with served(server) as url:
        session = _session(url)
        response = httpx.post(url, json=_call(8, "chatty"), headers=session)
        assert response.headers["content-type"] == "text/event-stream"
        events = _events(response.text)
        messages = [json.loads(data) for _, data in events]
        assert [m.get("method") for m in messages] == ["notifications/message", None]
        assert messages[-1]["id"] == 8
        assert messages[-1]["result"]["content"][0]["text"] == "done"
        for event_id, _ in events:
            assert event_id is not None
            assert server.event_stores.knows(session["mcp-session-id"], event_id)


def test_a_long_quiet_call_is_primed_and_resumable_after_its_connection_drops() -> None:
    with served(_server()) as url:
        session = _session(url)
        primed = None
        with httpx.stream("POST", url, json=_call(9, "slow", {"seconds": 1.0}), headers=session) as response:
            assert response.headers["content-type"] == "text/event-stream"
            for line in response.iter_lines():
                if line.startswith("id:"):
                    primed = line[3:].strip()
                    break  # the connection drops mid-call, after the priming event
        assert primed is not None
        resume = {**session, "Accept": "text/event-stream", "last-event-id": primed}
        with httpx.stream("GET", url, headers=resume, timeout=10) as response:
            answers = []
            for line in response.iter_lines():  # a resumed stream stays open: read up to the answer
                if line.startswith("data:") and line[5:].strip():
                    answers.append(json.loads(line[5:]))
                    break
    assert answers[0]["id"] == 9
    assert answers[0]["result"]["content"][0]["text"] == "slept"


async def test_a_cancelled_call_ends_with_the_eras_request_cancelled() -> None:
    with served(_server()) as url:
        session = _session(url)
        async with httpx.AsyncClient(timeout=10) as client:
            replies: list[httpx.Response] = []

            async def call() -> None:
                replies.append(await client.post(url, json=_call(10, "slow", {"seconds": 5}), headers=session))

            with anyio.fail_after(4):
                async with anyio.create_task_group() as group:
                    group.start_soon(call)
                    await anyio.sleep(0.1)
                    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 10}}
                    assert (await client.post(url, json=cancel, headers=session)).status_code == 202
    assert replies[0].json()["error"]["code"] == -32800


async def test_a_quiet_answer_over_a_mebibyte_reaches_a_2025_era_client() -> None:
    """One JSON body has no event size limit (an SSE event over 1 MiB is refused by the SDK's client)."""
    server = ToolServer(result_budget=None)

    @server.tool
    def big() -> str:
        """A lot of text."""
        return "y" * 1_500_000

    with served(server) as url:
        async with http_client(url, "test-token", mode="legacy") as client:
            await client.list_tools()
            result = await client.call_tool("big", {})
    assert isinstance(result.content[0], mt.TextContent)
    assert len(result.content[0].text) == 1_500_000


async def test_a_call_asks_its_client_and_reports_progress_on_its_own_stream() -> None:
    """Requests to the client (elicitation, sampling) and progress go out on the call's stream; the answers come back."""
    server = ToolServer()

    @server.tool
    async def greet(ctx: Context) -> str:
        """Reports progress, asks a name and the LLM."""
        await ctx.report_progress(1, 2)
        answer = await ctx.elicit("Your name?", NAME)
        capital = await ctx.sample("Capital of France?", max_tokens=10)
        return f"Hello, {(answer.content or {})['name']}! {capital.content.text}"  # type: ignore[union-attr]

    async def name(context: Any, params: mt.ElicitRequestParams) -> mt.ElicitResult:
        return mt.ElicitResult(action="accept", content={"name": "Ada"})

    async def sample(context: Any, params: mt.CreateMessageRequestParams) -> mt.CreateMessageResult:
        return mt.CreateMessageResult(role="assistant", content=mt.TextContent(type="text", text="Paris"), model="m")

    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    callbacks = {"elicitation_callback": name, "sampling_callback": sample}
    with served(server) as url:
        async with http_client(url, "test-token", mode="legacy", **callbacks) as client:
            await client.list_tools()  # from here on the session's requests are served in their own task
            result = await client.call_tool("greet", {}, progress_callback=on_progress)
    assert result.content[0] == mt.TextContent(type="text", text="Hello, Ada! Paris")
    assert seen == [1]
