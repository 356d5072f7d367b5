"""The flags of ``%%mcp_tool``, ``%%mcp_resource`` and ``%%mcp_prompt``: each sets one option key.

A value flag's help is that key's sentence in the kind's option help (``OPTION_HELP``,
``RESOURCE_OPTION_HELP``, ``PROMPT_OPTION_HELP``); a switch sets a fixed value (the annotation
switches merge into ``annotations``). Keys without a flag are listed in each set's ``python_only``.
The kernel's magics and ``export`` build their parsers from these sets, so both read a line alike.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from jupyter_mcp.tools.components.options import OPTION_HELP, PROMPT_OPTION_HELP, RESOURCE_OPTION_HELP, ToolOptions


def _comma_set(text: str) -> set[str]:
    return {part.strip() for part in text.split(",") if part.strip()}


def _header_pairs(text: str) -> dict[str, str]:
    """``region=Region,priority=Priority`` -> ``{"region": "Region", "priority": "Priority"}``."""
    pairs = [part.strip() for part in text.split(",") if part.strip()]
    parsed = dict(part.partition("=")[::2] for part in pairs)
    if not pairs or any("=" not in part for part in pairs) or not all(k and v for k, v in parsed.items()):
        raise argparse.ArgumentTypeError(f"expected PARAMETER=Header pairs separated by commas, got {text!r}")
    return {key.strip(): value.strip() for key, value in parsed.items()}


@dataclass(frozen=True)
class Flag:
    """``--flag`` sets ``key``: to the given text (parsed by ``parse``) or, for a switch, to ``value``.

    A flag with a ``bare`` value takes its text optionally: ``--task`` means ``bare``.
    """

    flag: str
    key: str
    value: Any = None
    parse: Callable[[str], Any] | None = None
    help: str | None = None
    bare: Any = None

    @property
    def dest(self) -> str:
        return self.flag.removeprefix("--").replace("-", "_")

    def argparse_options(self, help_table: Mapping[str, str]) -> dict[str, Any]:
        """Keyword arguments for ``add_argument(self.flag, ...)``."""
        text = self.help or help_table[self.key]
        if self.bare is not None:
            return {"nargs": "?", "const": self.bare, "type": self.parse or str, "help": text}
        if self.value is None:
            return {"type": self.parse or str, "help": text}
        return {"action": "store_true", "help": text}

    def apply(self, given: Any, options: dict[str, Any]) -> None:
        if self.value is None:
            if given is not None:
                options[self.key] = given
        elif given and isinstance(self.value, dict):
            options.setdefault(self.key, {}).update(self.value)
        elif given:
            options[self.key] = self.value


@dataclass(frozen=True)
class FlagSet:
    """The flags of one kind's magic, the help they say, and the options given from Python only."""

    flags: tuple[Flag, ...]
    help: Mapping[str, str]
    python_only: frozenset[str]

    def __call__(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Add every flag to a magic's argument parser (decorator, under IPython's ``@magic_arguments``)."""
        from IPython.core.magic_arguments import argument  # only magics decorate; export uses add_to

        for flag in reversed(self.flags):
            function = argument(flag.flag, **flag.argparse_options(self.help))(function)  # type: ignore[no-untyped-call]
        return function

    def add_to(self, parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        """Add every flag to a plain ``argparse`` parser; returns it."""
        for flag in self.flags:
            parser.add_argument(flag.flag, **flag.argparse_options(self.help))
        return parser

    def options(self, args: Any) -> dict[str, Any]:
        """Parsed magic flags -> the kind's keyword arguments (only what was given)."""
        options: dict[str, Any] = {}
        for flag in self.flags:
            flag.apply(getattr(args, flag.dest), options)
        return options


COMMON_FLAGS = (
    Flag("--title", "title"),
    Flag("--description", "description"),
    Flag("--tags", "tags", parse=_comma_set, help="Comma-separated tags, for enabling and disabling groups."),
    Flag("--disabled", "enabled", False, help="Register it disabled."),
)

TOOL_FLAGS = FlagSet(
    (
        *COMMON_FLAGS[:3],
        Flag("--read-only", "annotations", {"readOnlyHint": True}, help="readOnlyHint: the tool changes nothing."),
        Flag(
            "--destructive", "annotations", {"destructiveHint": True}, help="destructiveHint: changes cannot be undone."
        ),
        Flag(
            "--idempotent",
            "annotations",
            {"idempotentHint": True},
            help="idempotentHint: repeating a call changes nothing more.",
        ),
        Flag(
            "--closed-world", "annotations", {"openWorldHint": False}, help="openWorldHint false: no external systems."
        ),
        Flag("--timeout", "timeout", parse=float),
        Flag("--strict", "strict", True),
        Flag("--main-thread", "run_on", "main", help="Run on the kernel's main thread, between cells."),
        Flag("--result-budget", "result_budget"),
        Flag("--confirm", "confirm", True, help="Each client call waits for the notebook user to allow it."),
        COMMON_FLAGS[3],
        Flag(
            "--task",
            "task",
            bare="optional",
            help="Long calls may become tasks for clients that support them (--task=required: only as a task).",
        ),
        Flag(
            "--headers", "headers", parse=_header_pairs, help="Parameters sent as HTTP headers too: region=Region,..."
        ),
        Flag("--no-app", "app", False, help="No MCP App card for this tool in clients that render apps."),
    ),
    OPTION_HELP,
    frozenset({"name", "meta", "icons", "output_schema", "input_schema"}),
)
"""``%%mcp_tool`` / ``%mcp_tool`` (``name`` is the magic's NAME argument or ``--name``)."""

RESOURCE_FLAGS = FlagSet(
    (Flag("--name", "name"), Flag("--mime-type", "mime_type"), *COMMON_FLAGS),
    RESOURCE_OPTION_HELP,
    frozenset({"meta", "icons", "annotations", "completer"}),
)
"""``%%mcp_resource`` / ``%mcp_resource``."""

PROMPT_FLAGS = FlagSet(COMMON_FLAGS, PROMPT_OPTION_HELP, frozenset({"name", "meta", "icons", "completer"}))
"""``%%mcp_prompt`` / ``%mcp_prompt`` (``name`` is the magic's NAME argument)."""


def add_flags(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The tool flags on ``parser`` (what ``export`` reads a ``%%mcp_tool`` line with)."""
    return TOOL_FLAGS.add_to(parser)


def tool_options(args: Any) -> ToolOptions:
    """Parsed tool flags -> ``Tool.from_function`` keyword arguments (only what was given)."""
    return cast(ToolOptions, TOOL_FLAGS.options(args))
