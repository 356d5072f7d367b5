"""%%mcp_resource, %mcp_resource VAR, %%mcp_prompt in a real kernel, used by real clients in both eras."""

from __future__ import annotations

import json
import uuid
from typing import Any

import anyio
import mcp_types as mt
import pytest
from mcp.shared.exceptions import MCPDeprecationWarning

from jupyter_mcp import discovery
from tests.conftest import MODES, http_client
from tests.harness import Kernel
from tests.kernel.conftest import endpoint
from tests.kernel.test_magics import run_in_cell, usage_error

CITIES = """
import pandas as pd
df = pd.DataFrame({"city": ["Paris", "Lyon", "Rome"], "country": ["fr", "fr", "it"], "people": [2.1, 0.5, 2.8]})
"""


def client_for(kernel: Kernel, mode: str, **options: Any) -> Any:
    url, token = endpoint(kernel)
    return http_client(url, token, mode=mode, **options)


def texts(result: mt.ReadResourceResult) -> list[str]:
    return [c.text for c in result.contents if isinstance(c, mt.TextResourceContents)]


@pytest.mark.parametrize("mode", MODES)
def test_function_cells_templates_and_variables_are_read_live(kernel: Kernel, mode: str) -> None:
    kernel.run(CITIES)
    kernel.run(
        """
        %%mcp_resource data://cities --mime-type application/json --description "The city table" --tags data
        def cities():
            return df.to_dict("records")
        """
    )
    kernel.run(
        '''
        %%mcp_resource data://cities/{country}{?limit}
        def cities_in(country: str, limit: int = 10) -> list[dict]:
            """The cities of one country."""
            return df[df.country == country].head(limit).to_dict("records")
        '''
    )
    kernel.run("%mcp_resource df --uri data://sales --mime-type text/csv")

    async def scenario() -> None:
        async with client_for(kernel, mode) as client:
            listed = {r.uri: r for r in (await client.list_resources()).resources}
            assert set(listed) == {"data://cities", "data://sales"}
            assert (listed["data://cities"].description, listed["data://sales"].mime_type) == (
                "The city table",
                "text/csv",
            )
            (template,) = (await client.list_resource_templates()).resource_templates
            assert (template.uri_template, template.name) == ("data://cities/{country}{?limit}", "cities_in")
            assert json.loads(texts(await client.read_resource("data://cities"))[0])[2]["city"] == "Rome"
            fr = json.loads(texts(await client.read_resource("data://cities/fr?limit=1"))[0])
            assert [row["city"] for row in fr] == ["Paris"]
            assert texts(await client.read_resource("data://sales"))[0].splitlines()[0] == "city,country,people"

    anyio.run(scenario)
    kernel.run("df = df[df.country == 'it']")  # the variable changes: the next read sees it

    async def reread() -> list[str]:
        async with client_for(kernel, mode) as client:
            return texts(await client.read_resource("data://sales"))

    assert anyio.run(reread) == ["city,country,people\nRome,it,2.8\n"]


def test_cells_without_a_function_are_read_as_their_last_expression(kernel: Kernel) -> None:
    kernel.run(CITIES)
    kernel.run('%%mcp_resource data://summary --mime-type text/markdown\nf"**{len(df)}** cities"')
    kernel.run("%%mcp_resource data://greeting/{name}{?punctuation}\nf\"Hello {name}{punctuation or '!'}\"")
    out = kernel.run(
        "a = await server.read_resource('data://summary')\n"
        "b = await server.read_resource('data://greeting/Ada?punctuation=.')\n"
        "print(a.contents[0].text, '|', b.contents[0].text)\n"
        "print('summary' in globals(), 'greeting' in globals())"
    )
    assert out.stdout.splitlines() == ["**3** cities | Hello Ada.", "False False"]
    names = kernel.value("sorted(r.name for r in server.resources.values())")
    assert names == ["greeting", "summary"]


@pytest.mark.parametrize("mode", MODES)
def test_prompt_cells_render_and_complete(kernel: Kernel, mode: str) -> None:
    kernel.run(
        '''
        %%mcp_prompt --title "Review a table"
        from typing import Literal
        def review_table(table: str, focus: Literal["quality", "bias"] = "quality") -> str:
            """Ask for a review of one of the notebook's tables."""
            return f"Review {table} for {focus}."
        '''
    )
    kernel.run('%%mcp_prompt haiku(topic: str)\n"""A haiku."""\nf"Write a haiku about {topic}."')

    async def scenario() -> None:
        async with client_for(kernel, mode) as client:
            prompts = {p.name: p for p in (await client.list_prompts()).prompts}
            assert set(prompts) == {"review_table", "haiku"}
            assert prompts["review_table"].title == "Review a table"
            got = await client.get_prompt("review_table", {"table": "sales", "focus": "bias"})
            assert got.messages[0].content.text == "Review sales for bias."  # type: ignore[union-attr]
            haiku = await client.get_prompt("haiku", {"topic": "tables"})
            assert haiku.messages[0].content.text == "Write a haiku about tables."  # type: ignore[union-attr]
            ref = mt.PromptReference(type="ref/prompt", name="review_table")
            assert (await client.complete(ref, {"name": "focus", "value": "q"})).completion.values == ["quality"]

    anyio.run(scenario)


def test_rerunning_a_resource_cell_tells_subscribers(kernel: Kernel) -> None:
    cell = str(uuid.uuid4())
    run_in_cell(kernel, "%%mcp_resource data://answer\ndef answer() -> int:\n    return 41", cell)
    heard: list[tuple[str, str | None]] = []

    async def on_message(message: Any) -> None:
        method = getattr(message, "method", None)
        if method is not None:
            heard.append((method, getattr(getattr(message, "params", None), "uri", None)))

    async def legacy() -> None:
        async with client_for(kernel, "legacy", message_handler=on_message) as client:
            await client.subscribe_resource("data://answer")  # type: ignore[deprecated]
            run_in_cell(kernel, "%%mcp_resource data://answer\ndef answer() -> int:\n    return 42", cell)
            with anyio.fail_after(10):
                while ("notifications/resources/updated", "data://answer") not in heard:
                    await anyio.sleep(0.02)
            assert texts(await client.read_resource("data://answer")) == ["42"]

    async def modern() -> None:
        async with client_for(kernel, "auto") as client:
            async with client.listen(resource_subscriptions=["data://answer"]) as subscription:
                kernel.run("server.notify_resource_updated('data://answer')")
                with anyio.fail_after(10):
                    event = await subscription.__anext__()
            assert getattr(event, "uri", None) == "data://answer"

    with pytest.warns(MCPDeprecationWarning):  # the SDK marks resources/subscribe deprecated from 2026-07-28 on
        anyio.run(legacy)
    anyio.run(modern)
    assert kernel.value("sorted(server.resources)") == ["data://answer"]


def test_history_list_and_commands_cover_every_kind(kernel: Kernel) -> None:
    kernel.run("%%mcp_tool\ndef ping() -> str:\n    'Ping.'\n    return 'pong'")
    kernel.run("%%mcp_resource data://motd\ndef motd() -> str:\n    'Message of the day.'\n    return 'hi'")
    kernel.run("%%mcp_prompt\ndef greet(name: str) -> str:\n    'Greet someone.'\n    return f'Greet {name}'")
    assert kernel.run("%mcp list").stdout.splitlines() == [
        "tools:",
        "  ping: Ping.",
        "resources:",
        "  data://motd: Message of the day.",
        "prompts:",
        "  greet: Greet someone.",
    ]
    kernel.run("r = await server.read_resource('data://motd')\np = await server.get_prompt('greet', {'name': 'Ada'})")
    history = kernel.run("%mcp history").stdout
    assert "resource read data://motd" in history
    assert "prompt greet(name='Ada')" in history
    # The resource's card read it once to show its preview; then the cell's read and get.
    assert kernel.value("[(r.kind, r.tool, r.source) for r in server.history]") == [
        ("resource", "data://motd", "notebook"),
        ("resource", "data://motd", "notebook"),
        ("prompt", "greet", "notebook"),
    ]
    kernel.run("%mcp disable motd")  # a resource by name or by URI
    assert "data://motd  (disabled)" in kernel.run("%mcp list").stdout
    kernel.run("%mcp enable data://motd")
    assert kernel.run("%mcp remove greet").stdout == "removed prompt 'greet'\n"
    info = discovery.find(kernel.value("server.kernel_id"))
    assert info is not None
    assert [(r.uri, r.name, r.template) for r in info.resources] == [("data://motd", "motd", False)]
    assert info.prompts == []


def test_resource_misuse_is_a_one_line_usage_error(kernel: Kernel) -> None:
    assert "the following arguments are required: uri" in usage_error(kernel.execute("%%mcp_resource\n1"))
    assert "must look like scheme://path" in usage_error(kernel.execute("%%mcp_resource cities\n1"))
    assert "has {region}, but f() has no parameter 'region'" in usage_error(
        kernel.execute("%%mcp_resource data://{region}\ndef f(country: str) -> str:\n    return country")
    )
    assert "cannot find 'nothing'" in usage_error(kernel.execute("%mcp_resource nothing --uri data://x"))
    assert "the following arguments are required: --uri" in usage_error(kernel.execute("%mcp_resource x"))
    assert "not a valid RFC 6570 URI template" in usage_error(kernel.execute("%%mcp_resource data://{oops\n1"))
    assert "nothing named 'ghost'" in usage_error(kernel.execute("%mcp remove ghost"))
    assert kernel.value("len(server.resources)") == 0
