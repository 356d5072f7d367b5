"""``ToolOptions`` is the one list of tool options: the API, the docs and the magic's flags use it."""

from __future__ import annotations

import argparse
from typing import Any, get_type_hints

import pytest
from IPython.core.error import UsageError
from IPython.core.magic_arguments import magic_arguments

from jupyter_mcp.syntax.flags import PROMPT_FLAGS, RESOURCE_FLAGS, TOOL_FLAGS, FlagSet
from jupyter_mcp.tools import PromptOptions, ResourceOptions, Tool, ToolDefinitionError, ToolOptions, ToolServer
from jupyter_mcp.tools.components.options import (
    COMMON_HELP,
    OPTION_HELP,
    PROMPT_OPTION_HELP,
    RESOURCE_OPTION_HELP,
    CommonOptions,
)
from tests.tools import seed_tools as seeds
from tests.tools.components.test_function import SEED_SNAPSHOT


def add(a: int, b: int) -> int:
    """Add."""
    return a + b


KINDS = [
    (ToolOptions, OPTION_HELP, TOOL_FLAGS),
    (ResourceOptions, RESOURCE_OPTION_HELP, RESOURCE_FLAGS),
    (PromptOptions, PROMPT_OPTION_HELP, PROMPT_FLAGS),
]


@pytest.mark.parametrize(("options", "help_table", "flags"), KINDS)
def test_every_option_has_one_sentence_of_help(options: type, help_table: dict[str, str], flags: FlagSet) -> None:
    assert list(help_table) == list(get_type_hints(options))
    assert flags.help is help_table


@pytest.mark.parametrize(("options", "help_table", "flags"), KINDS)
def test_every_kind_extends_the_common_options(options: type, help_table: dict[str, str], flags: FlagSet) -> None:
    common = set(get_type_hints(CommonOptions))
    assert {"name", "title", "description", "tags", "meta", "icons", "enabled"} == common == set(COMMON_HELP)
    assert common < set(get_type_hints(options))
    assert all(help_table[key] == COMMON_HELP[key] for key in common)


@pytest.mark.parametrize(("options", "help_table", "flags"), KINDS)
def test_every_option_is_a_magic_flag_or_python_only(options: type, help_table: dict[str, str], flags: FlagSet) -> None:
    flagged = {flag.key for flag in flags.flags}
    assert flagged | flags.python_only == set(help_table)
    assert not flagged & flags.python_only


def parser(flags: FlagSet = TOOL_FLAGS) -> argparse.ArgumentParser:
    @magic_arguments()
    @flags
    def magic(line: str) -> None:
        """A magic with the flags."""

    return magic.parser  # type: ignore[attr-defined, no-any-return]


def parse(argv: list[str], flags: FlagSet = TOOL_FLAGS) -> argparse.Namespace:
    return parser(flags).parse_args(argv)


def test_magic_flags_become_the_same_keyword_arguments() -> None:
    argv = ["--title", "Add", "--tags", "math, fast,", "--read-only", "--closed-world", "--timeout", "2.5"]
    argv += ["--strict", "--main-thread", "--disabled"]
    assert TOOL_FLAGS.options(parse(argv)) == {
        "title": "Add",
        "tags": {"math", "fast"},
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
        "timeout": 2.5,
        "strict": True,
        "run_on": "main",
        "enabled": False,
    }
    assert TOOL_FLAGS.options(parse([])) == {}
    argv = ["--name", "sales", "--mime-type", "text/csv", "--tags", "data", "--disabled"]
    assert RESOURCE_FLAGS.options(parse(argv, RESOURCE_FLAGS)) == {
        "name": "sales",
        "mime_type": "text/csv",
        "tags": {"data"},
        "enabled": False,
    }
    assert PROMPT_FLAGS.options(parse(["--title", "Review"], PROMPT_FLAGS)) == {"title": "Review"}


def test_task_and_header_flags() -> None:
    assert TOOL_FLAGS.options(parse(["--task"])) == {"task": "optional"}
    assert TOOL_FLAGS.options(parse(["--task=required"])) == {"task": "required"}
    assert TOOL_FLAGS.options(parse(["--headers", "region=Region, priority=Priority"])) == {
        "headers": {"region": "Region", "priority": "Priority"}
    }
    with pytest.raises(UsageError, match="expected PARAMETER=Header pairs separated by commas, got 'region'"):
        parse(["--headers", "region"])


def test_task_support_and_parameter_headers_reach_the_tool() -> None:
    assert Tool.from_function(add, task=True).task == "optional"
    assert Tool.from_function(add, task="required").task == "required"
    assert Tool.from_function(add).task is None
    tool = Tool.from_function(add, headers={"a": "First"})
    assert tool.to_mcp().input_schema["properties"]["a"]["x-mcp-header"] == "First"
    assert "x-mcp-header" not in tool.to_mcp().input_schema["properties"]["b"]


@pytest.mark.parametrize(("options", "help_table", "flags"), KINDS)
def test_value_flags_say_the_option_help(options: type, help_table: dict[str, str], flags: FlagSet) -> None:
    text = " ".join(parser(flags).format_help().split())
    for flag in flags.flags:
        if flag.value is None and flag.help is None:
            assert f"{flag.flag} {flag.dest.upper()} {help_table[flag.key]}" in text


def test_options_reach_the_tool_the_same_way_from_every_entry() -> None:
    options: ToolOptions = {"title": "Add", "tags": {"math"}, "timeout": 3.0, "strict": True}
    server = ToolServer("t")
    via_server = server.add_tool(add, **options)
    direct = Tool.from_function(add, **options)
    for tool in (via_server, direct):
        assert (tool.title, tool.tags, tool.timeout, tool.strict) == ("Add", frozenset({"math"}), 3.0, True)


def test_an_unknown_option_names_the_closest_one() -> None:
    with pytest.raises(ToolDefinitionError, match=r"unknown tool option 'tittle' \(did you mean 'title'\?\)"):
        Tool.from_function(add, tittle="x")  # type: ignore[call-arg]
    with pytest.raises(ToolDefinitionError, match="unknown tool option 'zzz'; known: name, title"):
        ToolServer("t").tool(name="a", zzz=1)(add)  # type: ignore[call-overload]


def test_options_override_everything() -> None:
    tool = Tool.from_function(
        seeds.add,
        name="plus",
        title="Plus",
        description="Sum.",
        tags=["math"],
        annotations={"readOnlyHint": True, "title": "Plus!"},
        meta={"v": 1},
        icons=[{"src": "https://example.com/i.png", "mimeType": "image/png"}],
        timeout=2.5,
        output_schema={
            "type": "object",
            "properties": {"result": {"type": "number"}},
            "x-jupyter-mcp-wrap-result": True,
        },
        enabled=False,
        strict=True,
        run_on="main",
    )
    advertised = tool.to_mcp().model_dump(by_alias=True, exclude_none=True, mode="json")
    assert advertised == {
        "name": "plus",
        "title": "Plus",
        "description": "Sum.",
        "inputSchema": SEED_SNAPSHOT["add"]["inputSchema"],
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "number"}},
            "x-jupyter-mcp-wrap-result": True,
        },
        "icons": [{"src": "https://example.com/i.png", "mimeType": "image/png"}],
        "annotations": {"title": "Plus!", "readOnlyHint": True},
        "_meta": {"v": 1, "jupyter-mcp/tags": ["math"]},
    }
    assert (tool.timeout, tool.enabled, tool.strict, tool.run_on) == (2.5, False, True, "main")
    assert Tool.from_function(seeds.add, output_schema=False).output_schema is None


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"timeout": 0}, "timeout must be a positive number"),
        ({"run_on": "gpu"}, "run_on must be 'worker' or 'main'"),
        ({"output_schema": {"type": "array"}}, "output_schema must describe an object"),
        ({"output_schema": {"type": "object", "properties": 3}}, "not a valid JSON schema"),
        ({"annotations": {"readonly": True}}, "unknown tool annotation"),
        ({"task": "sometimes"}, "task must be True, False, 'optional' or 'required'"),
        ({"headers": {"c": "C"}}, r"headers names 'c', not a parameter \(it has 'a', 'b'\)"),
        ({"headers": {"a": "Bad Header"}}, "is not an RFC 9110 token"),
        ({"headers": {"a": "X", "b": "x"}}, "duplicates property"),
    ],
)
def test_bad_options_are_specific_errors(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises((ToolDefinitionError, ValueError), match=fragment):
        Tool.from_function(seeds.add, **options)
