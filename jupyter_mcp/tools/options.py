"""What a tool can be given besides its function, defined once.

``ToolServer.tool``, ``ToolServer.add_tool``, ``Tool.from_function`` and the ``%%mcp_tool`` magic
all take these keys (the magic through flags derived from ``OPTION_HELP``). ``CommonOptions`` holds
what every served component shares, so other kinds extend it rather than repeat it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Literal, TypedDict

import mcp_types as mt

RunOn = Literal["worker", "main"]
TaskSupport = Literal["optional", "required"]


class _Infer:
    def __repr__(self) -> str:
        return "INFER"


INFER: Any = _Infer()
"""Default for ``output_schema=``: derive it from the return annotation."""


class CommonOptions(TypedDict, total=False):
    """Options every served component has: identity, presentation, visibility."""

    name: str | None
    title: str | None
    description: str | None
    tags: Collection[str] | None
    meta: Mapping[str, Any] | None
    icons: list[mt.Icon] | list[Mapping[str, Any]] | None
    enabled: bool


class ToolOptions(CommonOptions, total=False):
    """``CommonOptions`` plus what only a tool has: hints, output, and how the call runs."""

    annotations: mt.ToolAnnotations | Mapping[str, Any] | None
    timeout: float | None
    output_schema: Mapping[str, Any] | Literal[False] | None
    strict: bool | None
    run_on: RunOn
    task: bool | TaskSupport
    headers: Mapping[str, str] | None


OPTION_HELP: dict[str, str] = {
    "name": "Name clients call it by (default: the function's name).",
    "title": "Human-readable title.",
    "description": "Description (default: the docstring's text).",
    "tags": "Tags, for enabling and disabling groups of tools.",
    "meta": "Extra _meta for the listing.",
    "icons": "Icons clients may show.",
    "enabled": "False registers it hidden from listings.",
    "annotations": "Behaviour hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint.",
    "timeout": "Seconds before the call fails with a timeout.",
    "output_schema": "JSON schema of structured results; None infers it from the return annotation, False omits it.",
    "strict": "Reject argument type mismatches instead of coercing ('10' -> 10).",
    "run_on": "'worker' (a thread; the default) or 'main' (the kernel's main thread, between cells).",
    "task": "True or 'optional': a long call may become a task for clients that support tasks; 'required': only so.",
    "headers": "Parameters mirrored into HTTP headers (2026 era): {'region': 'Region'} sends Mcp-Param-Region.",
}
"""One sentence per option key: the API docs and the magic's ``--help`` both say this."""
