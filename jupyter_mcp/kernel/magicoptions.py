"""The ``%%mcp_tool`` / ``%mcp_tool`` flags: each sets one ``ToolOptions`` key.

A value flag's help is that key's sentence in ``OPTION_HELP``; a switch sets a fixed value (the
annotation switches merge into ``annotations``). Keys without a flag are listed in ``PYTHON_ONLY``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from IPython.core.magic_arguments import argument

from jupyter_mcp.tools.options import OPTION_HELP, ToolOptions

PYTHON_ONLY = frozenset({"name", "meta", "icons", "output_schema"})
"""Options given from Python only (``name`` is the magic's NAME argument or ``--name``)."""


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

    def argument(self) -> Callable[[Any], Any]:
        text = self.help or OPTION_HELP[self.key]
        if self.bare is not None:
            return argument(self.flag, nargs="?", const=self.bare, type=self.parse or str, help=text)  # type: ignore[no-untyped-call]
        if self.value is None:
            return argument(self.flag, type=self.parse or str, help=text)  # type: ignore[no-untyped-call]
        return argument(self.flag, action="store_true", help=text)  # type: ignore[no-untyped-call]

    def apply(self, given: Any, options: dict[str, Any]) -> None:
        if self.value is None:
            if given is not None:
                options[self.key] = given
        elif given and isinstance(self.value, dict):
            options.setdefault(self.key, {}).update(self.value)
        elif given:
            options[self.key] = self.value


FLAGS = (
    Flag("--title", "title"),
    Flag("--description", "description"),
    Flag("--tags", "tags", parse=_comma_set, help="Comma-separated tags, for enabling and disabling groups."),
    Flag("--read-only", "annotations", {"readOnlyHint": True}, help="readOnlyHint: the tool changes nothing."),
    Flag("--destructive", "annotations", {"destructiveHint": True}, help="destructiveHint: changes cannot be undone."),
    Flag(
        "--idempotent",
        "annotations",
        {"idempotentHint": True},
        help="idempotentHint: repeating a call changes nothing more.",
    ),
    Flag("--closed-world", "annotations", {"openWorldHint": False}, help="openWorldHint false: no external systems."),
    Flag("--timeout", "timeout", parse=float),
    Flag("--strict", "strict", True),
    Flag("--main-thread", "run_on", "main", help="Run on the kernel's main thread, between cells."),
    Flag("--disabled", "enabled", False, help="Register the tool disabled."),
    Flag(
        "--task",
        "task",
        bare="optional",
        help="Long calls may become tasks for clients that support them (--task=required: only as a task).",
    ),
    Flag("--headers", "headers", parse=_header_pairs, help="Parameters sent as HTTP headers too: region=Region,..."),
)


def with_tool_flags(function: Callable[..., Any]) -> Callable[..., Any]:
    """Add every ``FLAGS`` entry to a magic's argument parser (decorator, under ``@magic_arguments``)."""
    for flag in reversed(FLAGS):
        function = flag.argument()(function)
    return function


def tool_options(args: Any) -> ToolOptions:
    """Parsed magic flags -> ``Tool.from_function`` keyword arguments (only what was given)."""
    options: dict[str, Any] = {}
    for flag in FLAGS:
        flag.apply(getattr(args, flag.dest), options)
    return cast(ToolOptions, options)
