"""The ``%%mcp_tool`` / ``%mcp_tool`` flags as IPython magic arguments (the table is ``syntax.flags``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from IPython.core.magic_arguments import argument

from jupyter_mcp.syntax.flags import FLAGS, PYTHON_ONLY, Flag, tool_options

__all__ = ["FLAGS", "PYTHON_ONLY", "Flag", "tool_options", "with_tool_flags"]


def with_tool_flags(function: Callable[..., Any]) -> Callable[..., Any]:
    """Add every ``FLAGS`` entry to a magic's argument parser (decorator, under ``@magic_arguments``)."""
    for flag in reversed(FLAGS):
        function = argument(flag.flag, **flag.argparse_options())(function)  # type: ignore[no-untyped-call]
    return function
