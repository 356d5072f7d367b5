"""``<jupyter url>/mcp``: every notebook's tools as one MCP server, with a real Jupyter server, real
kernels and real MCP clients in both eras."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx
import mcp_types as mt
import pytest

from tests.serverext.conftest import WHOAMI, Notebook, jupyter_client
from tests.tools.transports.http import test_lines as lines

PATHS = ("sales.ipynb", "ops/report.ipynb", "archive/sales.ipynb")
PREFIXES = {"sales.ipynb": "sales", "ops/report.ipynb": "report", "archive/sales.ipynb": "archive_sales"}
FORECAST = '''
%%mcp_tool
def forecast(months: int = 3) -> str:
    """Forecast sales."""
    return f"{NOTEBOOK}: {months} months"
'''


async def serving(jp_fetch: Any, jp_serverapp: Any, path: str) -> Notebook:
    return await Notebook(jp_fetch, jp_serverapp, path).serve(WHOAMI, FORECAST)


@pytest.fixture
async def three(jp_fetch: Any, jp_serverapp: Any) -> AsyncIterator[dict[str, Notebook]]:
    started = await asyncio.gather(*(serving(jp_fetch, jp_serverapp, path) for path in PATHS))
    try:
        yield {notebook.path: notebook for notebook in started}
    finally:
        for notebook in started:
            notebook.close()


def union_url(server_url: str, query: str = "") -> str:
    return f"{server_url}mcp{query}"


async def test_three_notebooks_with_the_same_tools_are_listed_apart_and_called_each_in_its_own_kernel(
    three: dict[str, Notebook], server_url: str, jupyter_token: str, mode: str
) -> None:
    async with jupyter_client(union_url(server_url), jupyter_token, mode=mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        expected = {f"{prefix}_{name}" for prefix in PREFIXES.values() for name in ("whoami", "forecast")}
        assert set(tools) == expected
        for path, prefix in PREFIXES.items():
            answer = await client.call_tool(f"{prefix}_whoami", {})
            assert answer.structured_content == {"result": path}
            answer = await client.call_tool(f"{prefix}_forecast", {"months": 2})
            assert answer.structured_content == {"result": f"{path}: 2 months"}
            assert tools[f"{prefix}_whoami"].description == f"Say which notebook answers.\n\nFrom the notebook {path}."
            assert tools[f"{prefix}_whoami"].annotations is not None
            assert tools[f"{prefix}_whoami"].annotations.read_only_hint is True
    for path, notebook in three.items():
        assert await notebook.value("len(server.history)") == 2, path


async def test_a_fourth_notebook_a_rerun_cell_and_a_restart_reach_a_connected_client(
    three: dict[str, Notebook], jp_fetch: Any, jp_serverapp: Any, server_url: str, jupyter_token: str, mode: str
) -> None:
    changes = Changes(mode)
    async with jupyter_client(union_url(server_url), jupyter_token, mode=mode, message_handler=changes.heard) as client:
        assert "report_whoami" in {tool.name for tool in (await client.list_tools()).tools}
        async with changes.watching(client):
            await changes.quiet()
            fourth = await serving(jp_fetch, jp_serverapp, "team/plan.ipynb")
            try:
                await changes.arrived()
                await changes.quiet()
                assert {"plan_whoami", "plan_forecast"} <= await names(client)

                await three["sales.ipynb"].run(FORECAST.replace("months: int = 3", "months: int = 6"))
                await changes.arrived()
                await changes.quiet()
                (tool,) = [t for t in (await client.list_tools()).tools if t.name == "sales_forecast"]
                assert tool.input_schema["properties"]["months"]["default"] == 6

                await three["ops/report.ipynb"].restart()
                await changes.arrived()
                await changes.quiet()
                assert not {"report_whoami", "report_forecast"} & await names(client)

                await three["ops/report.ipynb"].load()
                await three["ops/report.ipynb"].run("NOTEBOOK = 'ops/report.ipynb (restarted)'")
                await three["ops/report.ipynb"].run(WHOAMI)
                await changes.arrived()
                await changes.quiet()
                assert "report_whoami" in await names(client)  # the same name after the restart
                answer = await client.call_tool("report_whoami", {})
                assert answer.structured_content == {"result": "ops/report.ipynb (restarted)"}
            finally:
                fourth.close()


async def names(client: Any) -> set[str]:
    return {tool.name for tool in (await client.list_tools()).tools}


class Changes:
    """Tool list changes a client hears: 2025-era notifications, or a 2026-era listen stream."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.count = 0
        self._subscription: Any = None

    async def heard(self, message: Any) -> None:
        if isinstance(message, mt.ToolListChangedNotification):
            self.count += 1

    def watching(self, client: Any) -> Any:
        return _Watching(self, client)

    async def quiet(self, seconds: float = 1.0) -> None:
        """Let the changes under way arrive (the union looks for new notebooks twice a second), then forget them."""
        if self._subscription is not None:
            with anyio.move_on_after(seconds):
                while True:
                    await self._subscription.__anext__()
        else:
            await anyio.sleep(seconds)
        self.count = 0

    async def arrived(self) -> None:
        """Wait for the next change (20 s at most)."""
        with anyio.fail_after(20):
            if self._subscription is not None:
                assert type(await self._subscription.__anext__()).__name__ == "ToolsListChanged"
                return
            while self.count == 0:
                await anyio.sleep(0.05)


class _Watching:
    def __init__(self, changes: Changes, client: Any) -> None:
        self.changes = changes
        self.client = client
        self._context: Any = None

    async def __aenter__(self) -> None:
        if self.changes.mode == "auto":
            self._context = self.client.listen(tools_list_changed=True)
            self.changes._subscription = await self._context.__aenter__()

    async def __aexit__(self, *exc: object) -> None:
        if self._context is not None:
            await self._context.__aexit__(*exc)


async def test_a_notebook_names_its_own_prefix_and_clients_hear_of_it(
    jp_fetch: Any, jp_serverapp: Any, server_url: str, jupyter_token: str
) -> None:
    notebook = await serving(jp_fetch, jp_serverapp, "work/analysis.ipynb")
    try:
        assert {"analysis_whoami", "analysis_forecast"} <= await _names_at(server_url, jupyter_token)
        shown = await notebook.run("%mcp name forecasting")
        assert "forecasting_TOOL" in "".join(m["content"].get("text", "") for m in shown if m["msg_type"] == "stream")
        assert await notebook.value("server.settings.name") == "forecasting"
        async with jupyter_client(union_url(server_url), jupyter_token, mode="auto") as client:
            with anyio.fail_after(20):
                while "forecasting_whoami" not in {tool.name for tool in (await client.list_tools()).tools}:
                    await anyio.sleep(0.1)
            answer = await client.call_tool("forecasting_whoami", {})
            assert answer.structured_content == {"result": "work/analysis.ipynb"}
            assert "analysis_whoami" not in {tool.name for tool in (await client.list_tools()).tools}
        with pytest.raises(AssertionError, match=r"UsageError: %mcp name: .*'fore\.cast' cannot be a prefix"):
            await notebook.run("%mcp name fore.cast")
    finally:
        notebook.close()


async def _names_at(server_url: str, token: str) -> set[str]:
    async with jupyter_client(union_url(server_url), token, mode="auto") as client:
        return {tool.name for tool in (await client.list_tools()).tools}


ODD_CELL = '''
import mcp_types as mt
ODD = "next\\u0085line\\u2028sep\\u2029par"

@jupyter_mcp.tool
async def odd(ctx: jupyter_mcp.Context):
    """Reports progress, then answers (with a link, which the union renames), both with characters line
    readers break at."""
    await ctx.report_progress(1, 2, ODD)
    link = mt.ResourceLink(type="resource_link", uri="data://odd", name="odd")
    return jupyter_mcp.ToolResult(content=[mt.TextContent(type="text", text=ODD), link])
'''


async def test_the_unions_events_hold_no_raw_line_breaks_of_line_readers(
    jp_fetch: Any, jp_serverapp: Any, server_url: str, jupyter_token: str
) -> None:
    """The union writes its own events (each notebook's, renamed): U+0085, U+2028 and U+2029 go as escapes."""
    notebook = await Notebook(jp_fetch, jp_serverapp, "odd.ipynb").serve(ODD_CELL)
    base = {**lines.BASE, "Authorization": f"token {jupyter_token}"}
    call = lines._call("odd_odd", 1)
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": lines.INIT}
            opened = await http.post(union_url(server_url), json=init, headers=base)
            session = {**base, "Mcp-Session-Id": opened.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-11-25"}
            initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            await http.post(union_url(server_url), json=initialized, headers=session)
            legacy = await http.post(union_url(server_url), json=call, headers=session)
            modern_call = {**call, "params": {**call["params"], "_meta": {**lines.MODERN_META, "progressToken": "p"}}}
            modern_headers = {**base, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call"}
            modern = await http.post(
                union_url(server_url), json=modern_call, headers={**modern_headers, "Mcp-Name": "odd_odd"}
            )
    finally:
        notebook.close()
    for response in (legacy, modern):
        assert response.headers["content-type"].startswith("text/event-stream"), response.text
        answer = lines.assert_line_safe(response.content)[-1]
        assert answer["result"]["content"][0]["text"] == lines.ODD
