"""Serving over streamable HTTP: auth, DNS-rebinding checks, both eras on the wire."""

import socket
from typing import Any

import anyio
import httpx
import mcp_types as mt
import pytest
from mcp.shared.exceptions import MCPDeprecationWarning

from jupyter_mcp.shapes import signedin
from jupyter_mcp.tools import Context, ToolServer
from jupyter_mcp.tools.transports.http.auth import host_allowed, origin_allowed
from jupyter_mcp.tools.transports.http.serving import BackgroundServer, bind_socket, is_loopback
from tests.conftest import http_client, served
from tests.tools.seed_tools import seed_server

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


async def test_both_eras_over_http(mode: str) -> None:
    server = seed_server()

    @server.tool
    async def steps(ctx: Context) -> str:
        """Steps."""
        for i in range(3):
            await ctx.report_progress(i + 1, 3)
        return "ok"

    progress: list[float] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    with served(server, "s3cret") as url:
        async with http_client(url, "s3cret", mode=mode) as client:
            assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
            assert len((await client.list_tools()).tools) == 12  # 11 seed tools + steps
            assert (await client.call_tool("add", {"a": 2, "b": 2})).structured_content == {"result": 4}
            assert (await client.call_tool("steps", {}, progress_callback=on_progress)).content[0].text == "ok"  # type: ignore[union-attr]
    assert progress == [1, 2, 3]


async def test_list_changed_over_http_both_eras() -> None:
    server = seed_server()
    seen: list[str] = []

    async def on_message(message: Any) -> None:
        seen.append(getattr(message, "method", ""))

    with served(server) as url:
        async with http_client(url, "test-token", mode="legacy", message_handler=on_message) as legacy:
            await legacy.list_tools()
            await anyio.sleep(0.3)  # the client opens its GET stream after the handshake
            async with http_client(url, "test-token", mode="auto") as modern:
                async with modern.listen(tools_list_changed=True) as subscription:
                    server.add_tool(lambda: None, name="fresh")
                    with anyio.fail_after(5):
                        event = await subscription.__anext__()
                    assert type(event).__name__ == "ToolsListChanged"
                with anyio.fail_after(5):
                    while "notifications/tools/list_changed" not in seen:
                        await anyio.sleep(0.02)


def test_token_is_required() -> None:
    with served(seed_server(), "s3cret") as url:
        assert httpx.post(url, json=INIT, headers=HEADERS).status_code == 401
        wrong = httpx.post(url, json=INIT, headers={**HEADERS, "Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        assert wrong.headers["www-authenticate"].startswith("Bearer")
        assert httpx.post(url, json=INIT, headers={**HEADERS, "Authorization": "Bearer s3cret"}).status_code == 200
        assert httpx.post(url + "?token=s3cret", json=INIT, headers=HEADERS).status_code == 200


def test_a_signed_in_header_that_does_not_parse_is_refused_never_ignored() -> None:
    """The Jupyter server vouches for a signed-in client in a header; one that cannot be read must not leave the
    request with the token holder's full powers."""
    token = {**HEADERS, "Authorization": "Bearer s3cret"}
    good = signedin.encode({"client": "Bot", "read_only": True, "notebook_tools": "read", "notebooks": ["a.ipynb"]})
    with served(seed_server(), "s3cret") as url:
        assert httpx.post(url, json=INIT, headers={**token, signedin.HEADER: good}).status_code == 200
        for bad in ('{"client":"Bot"}', '{"client":"Bot","read_only":true,"notebooks":"a.ipynb"}', "x" * 9000):
            refused = httpx.post(url, json=INIT, headers={**token, signedin.HEADER: bad})
            assert refused.status_code == 400, bad
            assert f"malformed {signedin.HEADER} header" in refused.json()["error"]["message"]


def test_dns_rebinding_is_refused_before_auth() -> None:
    with served(seed_server(), "s3cret") as url:
        evil_host = httpx.post(url, json=INIT, headers={**HEADERS, "Host": "evil.example.com"})
        assert evil_host.status_code == 421
        evil_origin = httpx.post(
            url + "?token=s3cret", json=INIT, headers={**HEADERS, "Origin": "http://evil.example.com"}
        )
        assert evil_origin.status_code == 403
        good_origin = httpx.post(
            url + "?token=s3cret", json=INIT, headers={**HEADERS, "Origin": "http://localhost:1234"}
        )
        assert good_origin.status_code == 200


@pytest.mark.parametrize(
    ("host", "ok"),
    [
        ("127.0.0.1:80", True),
        ("localhost", True),
        ("[::1]:9", True),
        ("LOCALHOST:1", True),
        ("evil.com", False),
        ("127.0.0.1.evil.com:80", False),
        ("", False),
    ],
)
def test_host_rule(host: str, ok: bool) -> None:
    assert host_allowed(host, {"127.0.0.1", "localhost", "[::1]"}) is ok


@pytest.mark.parametrize(
    ("origin", "ok"),
    [
        (None, True),
        ("http://127.0.0.1:8888", True),
        ("https://localhost", True),
        ("http://evil.com", False),
        ("file://localhost", False),
        ("null", False),
    ],
)
def test_origin_rule(origin: str | None, ok: bool) -> None:
    assert origin_allowed(origin, {"127.0.0.1", "localhost", "[::1]"}) is ok


def test_socket_has_nodelay_and_loopback_rule() -> None:
    sock = bind_socket("127.0.0.1", 0)
    try:
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
    finally:
        sock.close()
    assert all(is_loopback(h) for h in ("127.0.0.1", "::1", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "192.168.1.2"))


def test_background_server_stops_cleanly_and_restarts() -> None:
    server = ToolServer()
    for _ in range(2):
        runner = BackgroundServer(server.protected_http_app("t"), "127.0.0.1", 0)
        runner.start()
        port = runner.port
        assert httpx.post(f"http://127.0.0.1:{port}/mcp?token=t", json=INIT, headers=HEADERS).status_code == 200
        runner.stop()
        with pytest.raises(httpx.ConnectError):
            httpx.post(f"http://127.0.0.1:{port}/mcp", json=INIT, headers=HEADERS)


def test_empty_token_is_refused() -> None:
    with pytest.raises(ValueError, match="a token is required"):
        ToolServer().protected_http_app("")


async def test_capabilities_and_empty_lists_for_generic_clients() -> None:
    with served(seed_server()) as url:
        async with http_client(url, "test-token", mode="legacy") as client:
            assert (await client.list_resources()).resources == []
            assert (await client.list_prompts()).prompts == []
            with pytest.warns(MCPDeprecationWarning, match="ping"):
                assert await client.send_ping() == mt.EmptyResult()


def test_status_endpoint_needs_the_token_and_reports_counts() -> None:
    server = seed_server()
    with served(server, "s3cret") as url:
        status_url = url.removesuffix("/mcp") + "/status"
        assert httpx.get(status_url).status_code == 401
        anyio.run(server.call, "add", {"a": 1, "b": 2})
        anyio.run(server.call, "divide", {"a": 1, "b": 0})
        status = httpx.get(status_url, headers={"Authorization": "Bearer s3cret"}).json()
    tools = {t["name"]: t for t in status["tools"]}
    assert status["calls"] == 2
    assert (tools["add"]["calls"], tools["add"]["errors"]) == (1, 0)
    assert (tools["divide"]["calls"], tools["divide"]["errors"]) == (1, 1)
    assert tools["find_products"]["tags"] == ["catalog", "search"]
    assert tools["add"]["mean_duration"] > 0


async def test_call_survives_its_sse_stream_closing_mid_call() -> None:
    server = ToolServer()
    closed: list[bool] = []

    @server.tool
    async def long_call(ctx: Context) -> str:
        """Closes its own response stream (SSE polling), then finishes."""
        request = ctx.request_context
        assert request is not None
        if request.close_sse_stream is not None:
            await ctx.report_progress(1, 2)
            await request.close_sse_stream()
            closed.append(True)
        await anyio.sleep(0.5)
        await ctx.report_progress(2, 2)
        return "finished after the stream closed"

    progress: list[float] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    with served(server) as url:
        async with http_client(url, "test-token", mode="legacy") as client:
            result = await client.call_tool("long_call", {}, progress_callback=on_progress)
    assert closed == [True], "the SDK offered no close_sse_stream to a 2025-11-25 client"
    assert result.content[0].text == "finished after the stream closed"  # type: ignore[union-attr]
    assert progress == [1, 2]


async def test_memory_event_store_replays_one_stream_and_forgets_old_events() -> None:
    from mcp.server.streamable_http import EventMessage
    from mcp_types import JSONRPCNotification

    from jupyter_mcp.tools.transports.http.eventstore import MemoryEventStore

    store = MemoryEventStore(max_events=4)
    note = JSONRPCNotification(jsonrpc="2.0", method="notifications/progress")
    first = await store.store_event("a", None)
    await store.store_event("b", note)
    ids = [await store.store_event("a", note) for _ in range(2)]
    replayed: list[EventMessage] = []

    async def collect(message: EventMessage) -> None:
        replayed.append(message)

    assert await store.replay_events_after(first, collect) == "a"
    assert [m.event_id for m in replayed] == ids
    for _ in range(4):
        await store.store_event("c", note)
    assert await store.replay_events_after(first, collect) is None  # evicted
    assert await store.replay_events_after("not-a-number", collect) is None
