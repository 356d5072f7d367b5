"""Every view the notebook widgets draw, with real data: a server in this process, real calls (an
in-memory MCP client for the ones that wait for the notebook user), and history events for the
states that are slow to reach for real (a task in progress, a cancelled task).

``build_gallery()`` returns each view's synced widget state (exactly what the kernel sends to the
browser), ready for ``test_components.py`` to draw with the bundled front end.
"""

from __future__ import annotations

import asyncio
import io
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

import mcp_types as mt
from mcp import Client
from PIL import Image as PILImage

from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools import Context, ToolError
from jupyter_mcp.tools.calls.events import CallFinished, CallStarted, ClientInfo, InputWait, ProgressEvent, TaskCreated
from jupyter_mcp.widgets import PromptCard, ResourceCard, ServerPanel, ToolCard

CITIES = [
    {"city": "Oslo", "country": "Norway", "population": 709_000},
    {"city": "Bergen", "country": "Norway", "population": 291_000},
    {"city": "Stockholm", "country": "Sweden", "population": 984_000},
]
TASK_CLIENT = ClientInfo("claude-desktop", "0.9.2", "2026-07-28")


def until(probe: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := probe()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not reached in {timeout}s")
        time.sleep(0.02)
    return value


def register(server: NotebookServer) -> None:
    @server.tool(annotations={"readOnlyHint": True, "idempotentHint": True}, tags={"catalog"}, timeout=30, task=True)
    def find_items(query: str, limit: int = 5, sort: Literal["name", "price"] = "name") -> list[dict[str, Any]]:
        """Find catalogue items whose name contains the query.

        Args:
            query: Text the name must contain.
            limit: At most this many items.
            sort: Order of the result.
        """
        if query == "none":
            raise ToolError(f"no items match {query!r}")
        return CITIES[:limit]

    @server.tool(annotations={"destructiveHint": True}, confirm=True)
    def reset_sales(region: str) -> str:
        """Clear a region's figures for the quarter."""
        return f"{region} reset"

    @server.tool
    async def export_table(ctx: Context) -> str:
        """Export a table the notebook user picks."""
        schema = {
            "type": "object",
            "required": ["table"],
            "properties": {
                "table": {"type": "string", "enum": ["sales", "stock"]},
                "rows": {"type": "integer", "description": "How many rows (all when empty)"},
            },
        }
        answer = await ctx.ask_notebook_user("Which table should be exported?", schema)
        return str(answer.action)

    @server.resource("data://cities", mime_type="application/json", description="The city table", tags={"geo"})
    def cities() -> list[dict[str, Any]]:
        return CITIES

    @server.resource("data://cities/{country}")
    def cities_in(country: str) -> list[dict[str, Any]]:
        """One country's cities."""
        return [c for c in CITIES if c["country"] == country]

    @server.resource("chart://population", mime_type="image/png", description="Population by city")
    def chart() -> bytes:
        buffer = io.BytesIO()
        PILImage.new("RGB", (120, 60), "steelblue").save(buffer, format="PNG")
        return buffer.getvalue()

    @server.prompt(title="Review a table", tags={"geo"})
    def review_table(table: str, focus: Literal["quality", "bias", "gaps"] = "quality") -> list[Any]:
        """Ask for a review of one of the notebook's tables."""
        from jupyter_mcp.tools import Message

        return [Message(f"Please review the table {table} for {focus}."), Message("Reading it now.", role="assistant")]


@contextmanager
def client_thread(server: NotebookServer) -> Iterator[Callable[[str, dict[str, Any]], None]]:
    """Real client calls (in-memory transport, 2025 era) from a thread, as an outside client makes them.

    Two sessions of one client are open meanwhile (the panel lists the client once). Calls still
    waiting when the block ends must have been answered by then.
    """
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    calls: asyncio.Queue[tuple[str, dict[str, Any]] | None] = asyncio.Queue()
    ready = threading.Event()
    info = mt.Implementation(name="desk-agent", version="1.4")

    async def sessions() -> None:
        async with (
            Client(server.lowlevel, mode="legacy", client_info=info) as first,
            Client(server.lowlevel, mode="legacy", client_info=info),
        ):
            ready.set()
            running = []
            while (item := await calls.get()) is not None:
                running.append(asyncio.ensure_future(first.call_tool(*item)))
            await asyncio.gather(*running)

    done = asyncio.run_coroutine_threadsafe(sessions(), loop)
    ready.wait(30)

    def call(tool: str, arguments: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(calls.put_nowait, (tool, arguments))

    try:
        yield call
    finally:
        loop.call_soon_threadsafe(calls.put_nowait, None)
        done.result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def fake_task_calls(server: NotebookServer) -> None:
    """A task in progress and a cancelled one, as the history records them (reaching them for real takes
    a tasks-aware 2026 client and seconds of waiting; the browser tests in JupyterLab do that)."""
    history = server.history
    history.call_started(CallStarted("task-1", "find_items", {"query": "lamp"}, TASK_CLIENT, time.time(), "client"))
    history.call_task("task-1", TaskCreated("t-7f3a", time.time()))
    history.call_progress("task-1", ProgressEvent(3, 8, "epoch 3, loss 0.41", time.time()))
    history.call_started(CallStarted("task-2", "find_items", {"query": "desk"}, TASK_CLIENT, time.time(), "client"))
    history.call_task("task-2", TaskCreated("t-91bc", time.time()))
    history.call_input("task-2", InputWait({"confirm": "elicitation/create"}, time.time()))
    history.call_finished("task-2", CallFinished("cancelled", 4.2, None, "ToolError: the call was cancelled", None))


def build_gallery(server: NotebookServer) -> dict[str, dict[str, Any]]:
    """Every view's synced state, by name."""
    register(server)
    call = server.call_in_background
    call("find_items", {"query": "t", "limit": 2}).result(30)
    call("find_items", {"query": "none"}).result(30)
    call("find_items", {"query": "a long query that will not fit in the column", "limit": 3, "sort": "price"}).result(
        30
    )
    fake_task_calls(server)
    server.read_in_background("data://cities/Norway").result(30)
    views: dict[str, Any] = {}
    with client_thread(server) as client_call:
        client_call("reset_sales", {"region": "north"})
        until(lambda: server.pending, "the waiting call")
        client_call("reset_sales", {"region": "south"})
        until(lambda: len(server.pending) == 2, "the second waiting call")
        server.pending[1].deny("quarter not closed yet")
        until(lambda: len(server.pending) == 1, "the denial")
        client_call("export_table", {})
        until(lambda: server.questions, "the question")
        views["tool-card"] = ToolCard(server, server.tools["find_items"])
        views["approval-card"] = ToolCard(server, server.tools["reset_sales"])
        views["question-card"] = ToolCard(server, server.tools["export_table"])
        views["resource-card"] = ResourceCard(server, server.resources["data://cities"])
        views["chart-card"] = ResourceCard(server, server.resources["chart://population"])
        views["template-card"] = ResourceCard(server, server.resources["data://cities/{country}"])
        views["prompt-card"] = PromptCard(server, server.prompts["review_table"])
        until(lambda: views["resource-card"].shown and views["chart-card"].shown, "the resource previews")
        until(lambda: views["prompt-card"].shown is None, "the prompt card")  # it needs an argument: nothing yet
        views["prompt-card"].try_it.run({"table": "cities", "focus": "gaps"}).result(30)
        views["tool-card"].try_it.run({"query": "t"}).result(30)
        panel = ServerPanel(server)
        until(lambda: len(panel.clients) == 1, "the client (two sessions, one row)")
        views["panel"] = panel
        failed = next(r for r in server.history if r.error and "no items" in r.error)
        panel.history.select(failed.id)
        panel.limit_client("desk-agent", True)
        assert [(c["name"], c["sessions"], c["read_only"]) for c in panel.clients] == [("desk-agent", 2, True)]
        for view in views.values():
            view._live.throttle.flush()
        states = {name: view.get_state() for name, view in views.items()}
        for pending in server.pending:
            pending.allow()
        for question in server.questions:
            question.decline()
    for view in views.values():
        view.close()
    states["channel-panel"] = channel_panel()
    return {name: {k: v for k, v in state.items() if not k.startswith("_")} for name, state in states.items()}


def channel_panel() -> dict[str, Any]:
    """The panel of a kernel that opens no port (``transport="kernel"``), once the page said where it is."""
    server = NotebookServer(transport="kernel")
    server.notebook_path = "/home/ann/reports/q1 sales.ipynb"
    try:
        register(server)
        panel = ServerPanel(server)
        panel.connection.probe.heard("https://lab.example.org", "/home/ann", "/user/ann/")
        panel.refresh()
        state: dict[str, Any] = panel.get_state()
        panel.close()
        return state
    finally:
        server.stop()
