"""Many clients at once and faults mid-call, against a real kernel: no record is ever lost."""

from __future__ import annotations

import asyncio
from collections import Counter

import anyio

from tests.conftest import http_client
from tests.harness import Kernel
from tests.kernel.conftest import endpoint

CLIENTS = 16
CALLS_EACH = 12

TOOLS = """
import asyncio, time

@server.tool
def add(a: int, b: int) -> int:
    '''Adds.'''
    return a + b

@server.tool
async def nap(seconds: float) -> str:
    '''Sleeps on the server loop.'''
    await asyncio.sleep(seconds)
    return "rested"

@server.tool
def boom() -> str:
    '''Raises.'''
    raise RuntimeError("kaput")

@server.tool(timeout=0.3)
def slow(seconds: float) -> str:
    '''Blocks a worker.'''
    time.sleep(seconds)
    return "late"

@server.tool(run_on="main")
def on_main(seconds: float) -> str:
    '''Blocks the kernel's main thread.'''
    time.sleep(seconds)
    return "main done"
"""


def statuses(kernel: Kernel) -> Counter[tuple[str, str]]:
    records = kernel.value("[(r.tool, r.status) for r in server.history]")
    return Counter(tuple(r) for r in records)


async def test_sixteen_clients_both_eras_exact_history(kernel: Kernel) -> None:
    kernel.run(TOOLS)
    url, token = endpoint(kernel)
    totals: list[int] = []

    async def one_client(index: int) -> None:
        mode = "legacy" if index % 2 else "auto"
        async with http_client(url, token, mode=mode) as client:
            for call in range(CALLS_EACH):
                result = await client.call_tool("add", {"a": index, "b": call})
                assert result.structured_content == {"result": index + call}
                totals.append(1)

    async with anyio.create_task_group() as group:
        for index in range(CLIENTS):
            group.start_soon(one_client, index)

    assert len(totals) == CLIENTS * CALLS_EACH
    assert kernel.value("server.history.total_calls") == CLIENTS * CALLS_EACH
    assert statuses(kernel) == Counter({("add", "ok"): CLIENTS * CALLS_EACH})


async def test_faults_leave_a_record_each_and_the_server_serving(kernel: Kernel, mode: str) -> None:
    kernel.run(TOOLS)
    url, token = endpoint(kernel)
    async with http_client(url, token, mode=mode) as client:
        assert (await client.call_tool("boom", {})).is_error is True
        timed_out = await client.call_tool("slow", {"seconds": 1.0})
        assert "timed out after 0.3s" in timed_out.content[0].text  # type: ignore[union-attr]

    # A client that goes away mid-call. A 2026 request ends with its connection: the call is
    # cancelled. A 2025 session's call runs on (the spec: a disconnect is not a cancellation; the
    # client may resume the stream) and finishes.
    async def abandon() -> None:
        async with http_client(url, token, mode=mode) as client:
            await client.call_tool("nap", {"seconds": 3})

    with anyio.move_on_after(1.0):
        await abandon()

    # The kernel interrupted while a main-thread tool runs in it.
    async with http_client(url, token, mode=mode) as client:
        call = asyncio.ensure_future(client.call_tool("on_main", {"seconds": 5}))
        await anyio.sleep(1.0)
        kernel.interrupt()
        interrupted = await asyncio.wait_for(call, 20)
        assert interrupted.is_error is True
        assert interrupted.content[0].text == (  # type: ignore[union-attr]
            "interrupted: the notebook user interrupted the kernel while this tool ran on its main thread"
        )
        assert (await client.call_tool("add", {"a": 1, "b": 1})).structured_content == {"result": 2}

    await anyio.sleep(2.5)  # the abandoned call ends, and the late sync result lands
    seen = statuses(kernel)
    assert seen[("boom", "error")] == 1
    assert seen[("slow", "timeout")] == 1
    assert seen[("nap", "ok" if mode == "legacy" else "cancelled")] == 1
    assert seen[("on_main", "error")] == 1
    assert seen[("add", "ok")] == 1
    assert sum(seen.values()) == kernel.value("server.history.total_calls") == 5
    assert "result was discarded" in kernel.value("[r.late for r in server.history if r.tool == 'slow'][0]")
