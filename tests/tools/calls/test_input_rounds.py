"""A tool asks its client for input: the same code in both protocol eras, over real HTTP clients.

2025 era: server-to-client requests during the call. 2026 era: ``input_required`` rounds, the
call suspended between them, ``requestState`` sealed, good once, expiring.
"""

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as mt
import pytest
from mcp import Client
from mcp.client import ClientRequestContext
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools import CallHistory, Context, ToolServer
from tests.conftest import http_client, served

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


async def answer_name(context: ClientRequestContext, params: mt.ElicitRequestParams) -> mt.ElicitResult:
    return mt.ElicitResult(action="accept", content={"name": "Ada"})


async def answer_sample(context: ClientRequestContext, params: mt.CreateMessageRequestParams) -> mt.CreateMessageResult:
    return mt.CreateMessageResult(role="assistant", content=mt.TextContent(type="text", text="Paris"), model="m")


async def answer_roots(context: ClientRequestContext) -> mt.ListRootsResult:
    return mt.ListRootsResult(roots=[mt.Root(uri="file:///work", name="work")])


CALLBACKS: dict[str, Any] = {
    "elicitation_callback": answer_name,
    "sampling_callback": answer_sample,
    "list_roots_callback": answer_roots,
}


def asking_server(**options: Any) -> ToolServer:
    server = ToolServer("asking", **options)

    @server.tool
    async def greet(ctx: Context) -> str:
        """Asks a name."""
        answer = await ctx.elicit("Your name?", NAME, key="user_name")
        return f"Hello, {(answer.content or {})['name']}!"

    @server.tool
    def greet_sync(ctx: Context) -> str:
        """Asks a name from a worker thread, then the LLM and the roots."""
        answer = ctx.elicit("Your name?", NAME)
        capital = ctx.sample("Capital of France?", max_tokens=10)
        roots = ctx.list_roots()
        return f"Hello, {(answer.content or {})['name']}! {capital.content.text} {roots.roots[0].name}"  # type: ignore[union-attr]

    @server.tool
    async def survey(ctx: Context) -> str:
        """Asks three things at once."""
        name, capital, roots = await asyncio.gather(
            ctx.elicit("Your name?", NAME, key="user_name"),
            ctx.sample("Capital of France?", max_tokens=10, key="capital"),
            ctx.list_roots(key="roots"),
        )
        return f"{(name.content or {})['name']} {capital.content.text} {len(roots.roots)}"  # type: ignore[union-attr]

    @server.tool
    async def two_steps(ctx: Context) -> str:
        """Asks twice, one after the other."""
        first = await ctx.elicit("First?", NAME, key="first")
        second = await ctx.elicit("Second?", NAME, key="second")
        return f"{(first.content or {})['name']} then {(second.content or {})['name']}"

    @server.prompt
    async def briefing(topic: str, ctx: Context) -> str:
        """Asks who the briefing is for."""
        answer = await ctx.elicit("Who is it for?", NAME, key="user_name")
        return f"Brief {(answer.content or {})['name']} on {topic}."

    return server


@pytest.fixture
def server_history() -> Iterator[tuple[ToolServer, CallHistory, str]]:
    server = asking_server(input_timeout=0.5)
    history = CallHistory()
    server.add_call_observer(history)
    with served(server) as url:
        yield server, history, url


@asynccontextmanager
async def client_at(url: str, mode: str, **options: Any) -> AsyncIterator[Client]:
    async with http_client(url, "test-token", mode=mode, **options) as client:
        yield client


@pytest.mark.parametrize("tool", ["greet", "greet_sync", "survey", "two_steps"])
async def test_the_same_tool_asks_in_both_eras(
    server_history: tuple[ToolServer, CallHistory, str], mode: str, tool: str
) -> None:
    _, history, url = server_history
    async with client_at(url, mode, **CALLBACKS) as client:
        result = await client.call_tool(tool, {})
    assert result.is_error is False, result.content
    assert "Ada" in result.content[0].text  # type: ignore[union-attr]
    record = history[-1]
    assert (record.status, record.waiting, record.era) == ("ok", {}, "2026" if mode == "auto" else "2025")


async def test_a_prompt_asks_in_both_eras(server_history: tuple[ToolServer, CallHistory, str], mode: str) -> None:
    _, history, url = server_history
    async with client_at(url, mode, **CALLBACKS) as client:
        result = await client.get_prompt("briefing", {"topic": "tasks"})
    assert result.messages[0].content.text == "Brief Ada on tasks."  # type: ignore[union-attr]
    record = history[-1]
    assert (record.kind, record.status, record.waiting) == ("prompt", "ok", {})


async def test_a_prompt_round_is_bound_to_its_prompt_and_good_once(
    server_history: tuple[ToolServer, CallHistory, str],
) -> None:
    _, history, url = server_history
    async with client_at(url, "auto", **CALLBACKS) as client:
        session = client.session
        first = await session.get_prompt("briefing", {"topic": "tasks"}, allow_input_required=True)
        assert isinstance(first, mt.InputRequiredResult)
        assert {k: r.method for k, r in (first.input_requests or {}).items()} == {"user_name": "elicitation/create"}
        assert (history[-1].kind, history[-1].status) == ("prompt", "waiting")
        answer = {"user_name": mt.ElicitResult(action="accept", content={"name": "Grace"})}
        with pytest.raises(MCPError):  # a tool cannot resume the prompt's round
            await session.call_tool("greet", {}, input_responses=answer, request_state=first.request_state)
        done = await session.get_prompt(
            "briefing", {"topic": "tasks"}, input_responses=answer, request_state=first.request_state
        )
        assert done.messages[0].content.text == "Brief Grace on tasks."  # type: ignore[union-attr]
        with pytest.raises(MCPError) as replayed:
            await session.get_prompt(
                "briefing", {"topic": "tasks"}, input_responses=answer, request_state=first.request_state
            )
    assert replayed.value.error.code == -32602
    assert history[-1].status == "ok"


async def test_requests_awaited_together_go_out_in_one_round(
    server_history: tuple[ToolServer, CallHistory, str],
) -> None:
    _, history, url = server_history
    async with client_at(url, "auto", **CALLBACKS) as client:
        first = await client.session.call_tool("survey", {}, allow_input_required=True)
        assert isinstance(first, mt.InputRequiredResult)
        assert first.input_requests is not None
        assert {k: r.method for k, r in first.input_requests.items()} == {
            "user_name": "elicitation/create",
            "capital": "sampling/createMessage",
            "roots": "roots/list",
        }
        assert history[-1].status == "waiting"
        assert history[-1].waiting == {k: r.method for k, r in first.input_requests.items()}
        answers: mt.InputResponses = {
            "user_name": mt.ElicitResult(action="accept", content={"name": "Ada"}),
            "capital": await answer_sample(None, None),  # type: ignore[arg-type]
            "roots": await answer_roots(None),  # type: ignore[arg-type]
        }
        done = await client.session.call_tool("survey", {}, input_responses=answers, request_state=first.request_state)
    assert isinstance(done, mt.CallToolResult)
    assert done.content[0].text == "Ada Paris 1"  # type: ignore[union-attr]
    assert history[-1].status == "ok"


async def test_rounds_follow_one_another_each_state_good_once(
    server_history: tuple[ToolServer, CallHistory, str],
) -> None:
    _, _, url = server_history
    async with client_at(url, "auto", **CALLBACKS) as client:
        session = client.session
        first = await session.call_tool("two_steps", {}, allow_input_required=True)
        assert isinstance(first, mt.InputRequiredResult)
        assert list(first.input_requests or {}) == ["first"]
        answer = {"first": mt.ElicitResult(action="accept", content={"name": "Ada"})}
        second = await session.call_tool(
            "two_steps", {}, input_responses=answer, request_state=first.request_state, allow_input_required=True
        )
        assert isinstance(second, mt.InputRequiredResult)
        assert list(second.input_requests or {}) == ["second"]
        assert second.request_state != first.request_state
        with pytest.raises(MCPError) as replayed:
            await session.call_tool("two_steps", {}, input_responses=answer, request_state=first.request_state)
        assert (replayed.value.error.code, replayed.value.error.message) == (-32602, "Invalid or expired requestState")
        answer = {"second": mt.ElicitResult(action="accept", content={"name": "Grace"})}
        done = await session.call_tool("two_steps", {}, input_responses=answer, request_state=second.request_state)
    assert done.content[0].text == "Ada then Grace"  # type: ignore[union-attr]


async def test_a_tampered_state_is_refused(server_history: tuple[ToolServer, CallHistory, str]) -> None:
    _, _, url = server_history
    async with client_at(url, "auto", **CALLBACKS) as client:
        first = await client.session.call_tool("greet", {}, allow_input_required=True)
        assert isinstance(first, mt.InputRequiredResult)
        assert first.request_state is not None
        answer = {"user_name": mt.ElicitResult(action="accept", content={"name": "Mallory"})}
        for state in (first.request_state + "-TAMPERED", first.request_state[:-4] + "AAAA", "forged"):
            with pytest.raises(MCPError) as refused:
                await client.session.call_tool("greet", {}, input_responses=answer, request_state=state)
            assert refused.value.error.code == -32602
        # The state is bound to the tool and its arguments too.
        with pytest.raises(MCPError):
            await client.session.call_tool("two_steps", {}, input_responses=answer, request_state=first.request_state)
        done = await client.session.call_tool("greet", {}, input_responses=answer, request_state=first.request_state)
    assert done.content[0].text == "Hello, Mallory!"  # type: ignore[union-attr]


async def test_a_wrong_answer_is_refused_and_the_call_stays_resumable(
    server_history: tuple[ToolServer, CallHistory, str],
) -> None:
    _, _, url = server_history
    async with client_at(url, "auto", **CALLBACKS) as client:
        first = await client.session.call_tool("greet", {}, allow_input_required=True)
        assert isinstance(first, mt.InputRequiredResult)
        wrong: mt.InputResponses = {"user_name": await answer_roots(None)}  # type: ignore[arg-type]
        with pytest.raises(MCPError) as refused:
            await client.session.call_tool("greet", {}, input_responses=wrong, request_state=first.request_state)
        assert refused.value.error.code == -32602
        assert "inputResponses['user_name'] is not a valid answer to elicitation/create" in refused.value.error.message
        right = {"user_name": mt.ElicitResult(action="accept", content={"name": "Ada"})}
        done = await client.session.call_tool("greet", {}, input_responses=right, request_state=first.request_state)
    assert done.content[0].text == "Hello, Ada!"  # type: ignore[union-attr]


async def test_answers_in_the_first_request_need_no_round(server_history: tuple[ToolServer, CallHistory, str]) -> None:
    _, _, url = server_history
    async with client_at(url, "auto", **CALLBACKS) as client:
        answers = {
            "user_name": mt.ElicitResult(action="accept", content={"name": "Ada"}),
            "unrelated": mt.ElicitResult(action="decline"),
        }
        done = await client.session.call_tool("greet", {}, input_responses=answers)
    assert done.content[0].text == "Hello, Ada!"  # type: ignore[union-attr]


async def test_a_call_nobody_answers_expires(server_history: tuple[ToolServer, CallHistory, str]) -> None:
    server, history, url = server_history
    async with client_at(url, "auto", **CALLBACKS) as client:
        for tool in ("greet", "greet_sync"):
            first = await client.session.call_tool(tool, {}, allow_input_required=True)
            assert isinstance(first, mt.InputRequiredResult)
            record = history[-1]
            assert record.status == "waiting"
            with anyio.fail_after(5):
                while record.status == "waiting":
                    await anyio.sleep(0.05)
            assert record.status == "expired"
            assert len(server.rounds) == 0
            answer = {
                key: mt.ElicitResult(action="accept", content={"name": "Late"}) for key in first.input_requests or {}
            }
            with pytest.raises(MCPError, match="Invalid or expired requestState"):
                await client.session.call_tool(tool, {}, input_responses=answer, request_state=first.request_state)


async def test_an_undeclared_capability_fails_the_call_with_32021(
    server_history: tuple[ToolServer, CallHistory, str], mode: str
) -> None:
    _, history, url = server_history
    async with client_at(url, mode) as client:  # no callbacks: no elicitation, sampling or roots declared
        with pytest.raises(MCPError) as refused:
            await client.call_tool("greet", {})
    assert refused.value.error.code == mt.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert refused.value.error.data == {"requiredCapabilities": {"elicitation": {}}}
    assert history[-1].status == "error"
    assert "protocol error -32021" in (history[-1].error or "")


async def test_a_notebook_call_cannot_ask() -> None:
    result = await asking_server().call("greet", {})
    assert result.is_error is True
    assert result.content[0].text == "elicitation needs an MCP client; this call came from the notebook"  # type: ignore[union-attr]


async def test_in_process_clients_ask_too(mode: str) -> None:
    async with Client(asking_server().lowlevel, mode=mode, **CALLBACKS) as client:
        result = await client.call_tool("greet_sync", {})
    assert result.content[0].text == "Hello, Ada! Paris work"  # type: ignore[union-attr]


async def test_the_history_shows_the_call_waiting_in_both_eras(
    server_history: tuple[ToolServer, CallHistory, str], mode: str
) -> None:
    _, history, url = server_history
    seen: list[tuple[str, dict[str, str]]] = []

    async def watching(context: ClientRequestContext, params: mt.ElicitRequestParams) -> mt.ElicitResult:
        seen.append((history[-1].status, dict(history[-1].waiting)))
        return await answer_name(context, params)

    async with client_at(url, mode, elicitation_callback=watching) as client:
        await client.call_tool("greet", {})
    assert seen == [("waiting", {"user_name": "elicitation/create"})]
    assert (history[-1].status, history[-1].waiting) == ("ok", {})
