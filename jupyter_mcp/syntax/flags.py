"""The ``%%mcp_tool`` / ``%mcp_tool`` flags: each sets one ``ToolOptions`` key.

A value flag's help is that key's sentence in ``OPTION_HELP``; a switch sets a fixed value (the
annotation switches merge into ``annotations``). Keys without a flag are listed in ``PYTHON_ONLY``.
The kernel's magics and ``export`` build their parsers from ``FLAGS``, so both read a line alike.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from jupyter_mcp.tools.options import OPTION_HELP, ToolOptions

PYTHON_ONLY = frozenset({"name", "meta", "icons", "output_schema"})
"""Options given from Python only (``name`` is the magic's NAME argument or ``--name``)."""


def _comma_set(text: str) -> set[str]:
    return {part.strip() for part in text.split(",") if part.strip()}


@dataclass(frozen=True)
class Flag:
    """``--flag`` sets ``key``: to the given text (parsed by ``parse``) or, for a switch, to ``value``."""

    flag: str
    key: str
    value: Any = None
    parse: Callable[[str], Any] | None = None
    help: str | None = None

    @property
    def dest(self) -> str:
        return self.flag.removeprefix("--").replace("-", "_")

    def argparse_options(self) -> dict[str, Any]:
        """Keyword arguments for ``add_argument(self.flag, ...)``."""
        text = self.help or OPTION_HELP[self.key]
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
)


def add_flags(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add every ``FLAGS`` entry to ``parser``; returns it."""
    for flag in FLAGS:
        parser.add_argument(flag.flag, **flag.argparse_options())
    return parser


def tool_options(args: Any) -> ToolOptions:
    """Parsed magic flags -> ``Tool.from_function`` keyword arguments (only what was given)."""
    options: dict[str, Any] = {}
    for flag in FLAGS:
        flag.apply(getattr(args, flag.dest), options)
    return cast(ToolOptions, options)
