"""Sync tools proven quick run on the serving loop's thread; a slow inline run sends them back for good."""

import asyncio
import threading
import time

import pytest

from jupyter_mcp.tools import Context, ToolServer
from jupyter_mcp.tools.calls import executors
from jupyter_mcp.tools.calls.executors import INLINE_AFTER

QUICK_RUN, SLOW_INLINE = 0.02, 0.1
"""Wider than the product's (0.5 ms, 2 ms): a busy test machine must not break a streak of no-op runs."""

pytestmark = pytest.mark.fast_path  # QuickRuns inline runs are the stdlib adapter's fast path


@pytest.fixture(autouse=True)
def thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "QUICK_RUN", QUICK_RUN)
    monkeypatch.setattr(executors, "SLOW_INLINE", SLOW_INLINE)


def threads_of(server: ToolServer, calls: int, **arguments: object) -> list[str]:
    """The thread each of ``calls`` calls of ``where`` ran on: "loop" (the caller's thread) or "worker"."""
    return [where(server, **arguments) for _ in range(calls)]


def where(server: ToolServer, **arguments: object) -> str:
    async def one() -> str:
        result = await server.call("where", arguments)
        assert not result.is_error, result
        loop_thread = threading.get_ident()
        return "loop" if result.structured_content == {"result": loop_thread} else "worker"

    return asyncio.run(one())


def quick_tool(server: ToolServer, pause: list[float]) -> None:
    @server.tool
    def where() -> int:
        """The thread that ran this call."""
        if pause[0]:
            time.sleep(pause[0])
        return threading.get_ident()


def test_a_quick_sync_tool_moves_to_the_loop_after_its_streak() -> None:
    server = ToolServer("quick")
    quick_tool(server, [0.0])
    seen = threads_of(server, INLINE_AFTER + 3)
    assert seen == ["worker"] * INLINE_AFTER + ["loop"] * 3


def test_one_slow_inline_run_sends_the_tool_back_to_workers_for_good() -> None:
    server = ToolServer("quick")
    pause = [0.0]
    quick_tool(server, pause)
    assert threads_of(server, INLINE_AFTER + 1)[-1] == "loop"
    pause[0] = SLOW_INLINE * 3
    assert where(server) == "loop"  # this run stalls the loop once ...
    pause[0] = 0.0
    assert threads_of(server, INLINE_AFTER * 2) == ["worker"] * (INLINE_AFTER * 2)  # ... and never again


def test_a_slow_run_in_a_worker_restarts_the_streak() -> None:
    server = ToolServer("quick")
    pause = [0.0]
    quick_tool(server, pause)
    threads_of(server, INLINE_AFTER - 1)
    pause[0] = QUICK_RUN * 2
    assert where(server) == "worker"
    pause[0] = 0.0
    assert threads_of(server, INLINE_AFTER + 1) == ["worker"] * INLINE_AFTER + ["loop"]


def test_a_tool_with_a_context_never_runs_on_the_loop() -> None:
    server = ToolServer("quick")

    @server.tool
    def where(ctx: Context) -> int:
        """Its Context would wait on the loop: it must never run there."""
        return threading.get_ident()

    assert set(threads_of(server, INLINE_AFTER * 2)) == {"worker"}


def test_the_setting_off_keeps_every_sync_tool_in_workers() -> None:
    server = ToolServer("quick", inline_quick_tools=False)
    quick_tool(server, [0.0])
    assert set(threads_of(server, INLINE_AFTER * 2)) == {"worker"}
    server.settings.inline_quick_tools = True  # takes effect at once: the streak was counted all along
    assert where(server) == "loop"


def test_a_redefined_tool_starts_over() -> None:
    server = ToolServer("quick", on_duplicate="replace")
    quick_tool(server, [0.0])
    assert threads_of(server, INLINE_AFTER + 1)[-1] == "loop"
    quick_tool(server, [0.0])
    assert where(server) == "worker"


def test_an_inline_tool_that_raises_is_an_error_result_and_stays_inline() -> None:
    server = ToolServer("quick")
    fail = [False]

    @server.tool(name="where")
    def failing() -> int:
        """Fails when told to."""
        if fail[0]:
            raise ValueError("told to fail")
        return threading.get_ident()

    threads_of(server, INLINE_AFTER)
    fail[0] = True
    result = asyncio.run(server.call("where", {}))
    assert result.is_error
    assert "told to fail" in result.content[0].text
    fail[0] = False
    assert where(server) == "loop"


@pytest.mark.parametrize("timeout", [5.0])
def test_a_tool_with_a_timeout_stays_in_workers(timeout: float) -> None:
    server = ToolServer("quick")

    @server.tool(timeout=timeout)
    def where() -> int:
        """A timeout abandons a worker run: it needs one."""
        return threading.get_ident()

    assert set(threads_of(server, INLINE_AFTER * 2)) == {"worker"}


def test_an_inline_tool_sees_no_running_loop_as_in_a_worker() -> None:
    """A sync tool may run its own ``asyncio.run``: it must work on the loop's thread as in a worker."""
    server = ToolServer("quick")

    async def answer() -> int:
        return 42

    @server.tool(name="where")
    def uses_asyncio() -> list[object]:
        """Runs a coroutine of its own and says whether it saw a running loop."""
        try:
            asyncio.get_running_loop()
            saw_loop = True
        except RuntimeError:
            saw_loop = False
        return [threading.get_ident(), asyncio.run(answer()), saw_loop]

    async def calls() -> list[list[object]]:
        results = [await server.call("where", {}) for _ in range(INLINE_AFTER + 2)]
        assert not any(result.is_error for result in results), results[-1]
        loop_thread = threading.get_ident()
        assert asyncio.get_running_loop() is not None  # given back after each inline run
        return [
            [r.structured_content["result"][0] == loop_thread, *r.structured_content["result"][1:]] for r in results
        ]

    seen = asyncio.run(calls())
    assert seen[0] == [False, 42, False]
    assert seen[-1] == [True, 42, False]
