"""ToolServer end to end through a real mcp.Client, in both protocol eras (in-process transport)."""

import threading
import time
from typing import Any

import anyio
import mcp_types as mt
import pytest
from mcp.shared.exceptions import MCPDeprecationWarning

from jupyter_mcp.tools import Context, ToolServer
from jupyter_mcp.tools.calls.events import BaseCallObserver, CallFinished, LateResult
from tests.conftest import connected
from tests.tools.components.test_function import SEED_SNAPSHOT

from .seed_tools import seed_server


def dump(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True, mode="json")


async def test_lists_seed_tools_exactly(mode: str) -> None:
    async with connected(seed_server(), mode) as client:
        listed = await client.list_tools()
        assert {t.name: dump(t) for t in listed.tools} == SEED_SNAPSHOT
        assert client.server_capabilities.tools is not None
        assert client.server_capabilities.tools.list_changed is True


async def test_calls_seed_tools(mode: str) -> None:
    async with connected(seed_server(), mode) as client:
        add = await client.call_tool("add", {"a": 1, "b": "2"})
        assert (add.is_error, add.structured_content, add.content[0].text) == (False, {"result": 3}, "3")  # type: ignore[union-attr]
        person = await client.call_tool("get_user_profile", {"user_id": "u1"})
        assert person.structured_content == {"name": "Alice", "age": 30, "email": "alice@example.com"}
        quote = await client.call_tool("get_quote", {"symbol": "aapl"})
        assert quote.structured_content == {"symbol": "AAPL", "price": 42.0, "currency": "USD"}
        products = await client.call_tool("find_products", {"query": "x"})
        assert products.structured_content == {"result": [{"id": 2, "name": "Another Product"}]}
        config = await client.call_tool("get_config", {})
        assert config.structured_content == {"api_key": "abc123", "debug": True, "rate_limit": 100}
        assert config.meta is not None
        assert config.meta["execution_time_ms"] == 145
        assert config.content[0].text.startswith("api_key: abc123\n")  # type: ignore[union-attr]


async def test_tool_error_and_validation_error_are_tool_results(mode: str) -> None:
    async with connected(seed_server(), mode) as client:
        divided = await client.call_tool("divide", {"a": 1, "b": 0})
        assert divided.is_error is True
        assert divided.content[0].text == "Division by zero is not allowed."  # type: ignore[union-attr]
        invalid = await client.call_tool("process_image_field", {"image_url": "u", "width": 0, "format": "gif"})
        assert invalid.is_error is True
        text = invalid.content[0].text  # type: ignore[union-attr]
        assert "- width: Input should be greater than or equal to 1 (got 0)" in text
        assert "- format: Input should be 'jpeg', 'png' or 'webp' (got 'gif')" in text
        unknown = await client.call_tool("nope", {})
        assert unknown.is_error is True
        assert unknown.content[0].text.startswith("Unknown tool: 'nope'. Available tools: add, find_products")  # type: ignore[union-attr]


async def test_strict_server_rejects_what_flexible_accepts(mode: str) -> None:
    async with connected(seed_server(strict=True), mode) as client:
        result = await client.call_tool("add", {"a": "1", "b": 2})
        assert result.is_error is True
        assert "- a: Input should be a valid integer" in result.content[0].text  # type: ignore[union-attr]


async def test_masked_errors_hide_details_but_not_tool_errors(mode: str) -> None:
    server = ToolServer(mask_error_details=True)

    @server.tool
    def leaky() -> str:
        """Leaks."""
        raise RuntimeError("database password is hunter2")

    server.add_tool(seed_server().tools["divide"].fn)
    async with connected(server, mode) as client:
        leaked = await client.call_tool("leaky", {})
        assert leaked.is_error is True
        assert "hunter2" not in leaked.content[0].text  # type: ignore[union-attr]
        assert "hides error details" in leaked.content[0].text  # type: ignore[union-attr]
        divided = await client.call_tool("divide", {"a": 1, "b": 0})
        assert divided.content[0].text == "Division by zero is not allowed."  # type: ignore[union-attr]


async def test_unmasked_error_carries_type_and_message(mode: str) -> None:
    server = ToolServer()

    @server.tool
    def broken(key: str) -> str:
        """Broken."""
        return {"a": "1"}[key]

    async with connected(server, mode) as client:
        result = await client.call_tool("broken", {"key": "zz"})
        assert result.content[0].text == "KeyError: 'zz'"  # type: ignore[union-attr]


class Recorder(BaseCallObserver):
    def __init__(self) -> None:
        self.finished: dict[str, CallFinished] = {}
        self.late: dict[str, LateResult] = {}
        self.events: list[str] = []
        self.done = threading.Event()

    def call_started(self, event: Any) -> None:
        self.events.append(f"start {event.tool}")

    def call_progress(self, call_id: str, event: Any) -> None:
        self.events.append(f"progress {event.progress}")

    def call_log(self, call_id: str, event: Any) -> None:
        self.events.append(f"log {event.level} {event.message}")

    def call_finished(self, call_id: str, event: CallFinished) -> None:
        self.finished[call_id] = event
        self.events.append(f"end {event.status}")

    def call_late_result(self, call_id: str, event: LateResult) -> None:
        self.late[call_id] = event
        self.done.set()


async def test_error_traceback_is_recorded_never_sent(mode: str) -> None:
    server = ToolServer()
    recorder = Recorder()
    server.add_call_observer(recorder)

    @server.tool
    def deep() -> None:
        """Fails deep."""
        raise ValueError("bad value")

    async with connected(server, mode) as client:
        result = await client.call_tool("deep", {})
    assert "Traceback" not in result.content[0].text  # type: ignore[union-attr]
    (finished,) = recorder.finished.values()
    assert finished.status == "error"
    assert finished.error == "ValueError: bad value"
    assert finished.traceback is not None
    assert 'raise ValueError("bad value")' in finished.traceback


async def test_async_timeout_cancels_the_tool(mode: str) -> None:
    server = ToolServer()
    state: dict[str, bool] = {}

    @server.tool(timeout=0.2)
    async def sleepy() -> str:
        """Sleeps."""
        try:
            await anyio.sleep(5)
        except BaseException:
            state["cancelled"] = True
            raise
        return "woke"

    async with connected(server, mode) as client:
        started = time.perf_counter()
        result = await client.call_tool("sleepy", {})
    assert time.perf_counter() - started < 2
    assert result.is_error is True
    assert result.content[0].text == "Tool 'sleepy' timed out after 0.2s (its timeout); it was cancelled"  # type: ignore[union-attr]
    assert state == {"cancelled": True}


async def test_sync_timeout_discards_the_late_result(mode: str) -> None:
    server = ToolServer()
    recorder = Recorder()
    server.add_call_observer(recorder)

    @server.tool(timeout=0.2)
    def blocking() -> str:
        """Blocks."""
        time.sleep(0.6)
        return "late"

    async with connected(server, mode) as client:
        result = await client.call_tool("blocking", {})
        assert result.content[0].text.endswith("its late result will be discarded")  # type: ignore[union-attr]
        assert (await client.call_tool("blocking", {})).is_error  # the server keeps serving
    assert recorder.done.wait(3)
    statuses = [f.status for f in recorder.finished.values()]
    assert statuses == ["timeout", "timeout"]
    late = next(iter(recorder.late.values()))
    assert late.error is None
    assert late.duration >= 0.5


async def test_progress_and_logs_reach_the_client(mode: str) -> None:
    server = ToolServer()
    recorder = Recorder()
    server.add_call_observer(recorder)

    @server.tool
    async def steps(n: int, ctx: Context) -> int:
        """Steps."""
        for i in range(n):
            await ctx.report_progress(i + 1, n, f"step {i + 1}")
            await ctx.info(f"did {i + 1}")
        return n

    @server.tool
    def sync_steps(n: int, ctx: Context) -> int:
        """Sync steps: no await needed."""
        for i in range(n):
            ctx.report_progress(i + 1, n)
            ctx.warning(f"sync {i + 1}")
        return n

    progress: list[tuple[float, float | None, str | None]] = []
    logs: list[tuple[str, Any]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    async def on_log(params: mt.LoggingMessageNotificationParams) -> None:
        logs.append((params.level, params.data))

    async with connected(server, mode, logging_callback=on_log, log_level="debug") as client:
        assert (await client.call_tool("steps", {"n": 3}, progress_callback=on_progress)).structured_content == {
            "result": 3
        }
        await client.call_tool("sync_steps", {"n": 2}, progress_callback=on_progress)
    assert [p[0] for p in progress] == [1, 2, 3, 1, 2]
    assert progress[0] == (1, 3, "step 1")
    assert logs == [
        ("info", "did 1"),
        ("info", "did 2"),
        ("info", "did 3"),
        ("warning", "sync 1"),
        ("warning", "sync 2"),
    ]
    assert recorder.events[:4] == ["start steps", "progress 1", "log info did 1", "progress 2"]


async def test_set_logging_level_filters_legacy_sessions() -> None:
    server = ToolServer()

    @server.tool
    async def chatty(ctx: Context) -> None:
        """Chatty."""
        for level in ("debug", "info", "warning", "error"):
            await ctx.log(level, level)  # type: ignore[arg-type]

    logs: list[str] = []

    async def on_log(params: mt.LoggingMessageNotificationParams) -> None:
        logs.append(params.level)

    async with connected(server, "legacy", logging_callback=on_log) as client:
        with pytest.warns(MCPDeprecationWarning):
            await client.set_logging_level("warning")
        await client.call_tool("chatty", {})
    assert logs == ["warning", "error"]


async def test_client_cancellation_cancels_an_async_tool(mode: str) -> None:
    server = ToolServer()
    recorder = Recorder()
    server.add_call_observer(recorder)
    entered, cancelled = anyio.Event(), threading.Event()

    @server.tool
    async def forever(ctx: Context) -> None:
        """Runs until cancelled."""
        entered.set()
        try:
            await anyio.sleep(30)
        except BaseException:
            cancelled.set()
            raise

    async with connected(server, mode) as client:
        with anyio.move_on_after(5):
            async with anyio.create_task_group() as tg:
                tg.start_soon(client.call_tool, "forever", {})
                await entered.wait()
                tg.cancel_scope.cancel()
        with anyio.fail_after(5):
            while not cancelled.is_set():
                await anyio.sleep(0.01)
        assert (await client.call_tool("nope", {})).is_error  # the connection still works
    with anyio.fail_after(5):
        while not recorder.finished:
            await anyio.sleep(0.01)
    assert [f.status for f in recorder.finished.values()] == ["cancelled", "error"]


async def test_context_knows_the_request_and_client(mode: str) -> None:
    server = ToolServer()

    @server.tool
    def whoami(ctx: Context) -> dict:
        """Who am I."""
        info = ctx.client_info
        return {
            "request_id": ctx.request_id,
            "client": info.name if info else None,
            "era": info.era if info else None,
            "tool": ctx.tool_name,
        }

    async with connected(server, mode, client_info=mt.Implementation(name="pytest-client", version="9.9")) as client:
        result = (await client.call_tool("whoami", {})).structured_content
    assert result is not None
    assert result["request_id"] is not None
    assert result["client"] == "pytest-client"
    assert result["era"] == ("2025" if mode == "legacy" else "2026")
    assert result["tool"] == "whoami"


async def test_disabled_tools_are_hidden_and_refused(mode: str) -> None:
    server = seed_server()
    server.disable(names={"divide"})
    server.disable(tags={"catalog"})
    async with connected(server, mode) as client:
        listed = {t.name for t in (await client.list_tools()).tools}
        assert "divide" not in listed
        assert "find_products" not in listed
        refused = await client.call_tool("divide", {"a": 1, "b": 2})
        assert refused.is_error is True
        assert refused.content[0].text.startswith("Unknown tool: 'divide'")  # type: ignore[union-attr]
        server.enable(names={"divide"})
        assert (await client.call_tool("divide", {"a": 1, "b": 2}, meta=None)).structured_content == {"result": 0.5}


async def test_pagination_walks_every_tool(mode: str) -> None:
    server = ToolServer(page_size=7)
    for i in range(20):
        server.add_tool(lambda: None, name=f"t{i:02d}")
    async with connected(server, mode) as client:
        seen: list[str] = []
        cursor = None
        pages = 0
        while True:
            page = await client.list_tools(cursor=cursor)
            seen += [t.name for t in page.tools]
            pages += 1
            cursor = page.next_cursor
            if cursor is None:
                break
        assert seen == [f"t{i:02d}" for i in range(20)]
        assert pages == 3
        with pytest.raises(Exception, match="Invalid cursor"):
            await client.list_tools(cursor="garbage!")


async def test_list_changed_reaches_a_legacy_session() -> None:
    server = seed_server()
    notifications: list[str] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, mt.ServerNotification) or hasattr(message, "method"):
            notifications.append(getattr(message, "method", type(message).__name__))

    async with connected(server, "legacy", message_handler=on_message) as client:
        await client.list_tools()

        @server.tool
        def fresh() -> None:
            """Fresh."""

        server.disable(names={"fresh"})
        server.enable(names={"fresh"})
        server.remove_tool("fresh")
        with anyio.fail_after(5):
            while notifications.count("notifications/tools/list_changed") < 4:
                await anyio.sleep(0.01)


async def test_list_changed_reaches_a_2026_listener() -> None:
    server = seed_server()
    async with connected(server, "auto") as client:
        async with client.listen(tools_list_changed=True) as subscription:

            @server.tool
            def fresh() -> None:
                """Fresh."""

            with anyio.fail_after(5):
                event = await subscription.__anext__()
        assert type(event).__name__ == "ToolsListChanged"
        assert "fresh" in {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}


async def test_notebook_call_goes_through_the_same_path() -> None:
    server = seed_server()
    recorder = Recorder()
    server.add_call_observer(recorder)
    result = await server.call("add", {"a": 2, "b": 3})
    assert result.structured_content == {"result": 5}
    assert recorder.events == ["start add", "end ok"]
