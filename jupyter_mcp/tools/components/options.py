"""What a tool, a resource or a prompt can be given besides its function, defined once per kind.

``ToolServer.tool``, ``ToolServer.add_tool``, ``Tool.from_function`` and the ``%%mcp_tool`` magic
all take ``ToolOptions`` (the magic through flags derived from ``OPTION_HELP``); resources take
``ResourceOptions`` and prompts ``PromptOptions`` the same ways. ``CommonOptions`` holds what every
served component shares, so each kind extends it rather than repeats it.
"""

from __future__ import annotations

import difflib
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from typing import Any, Literal, TypedDict

import mcp_types as mt

from jupyter_mcp.shapes.status import RunOn
from jupyter_mcp.tools.errors import ToolDefinitionError
from jupyter_mcp.tools.settings import ServerSettings

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
    input_schema: Mapping[str, Any] | None
    result_budget: int | str | None
    confirm: bool | None
    task: bool | TaskSupport
    headers: Mapping[str, str] | None
    app: bool


Completer = Callable[..., "Iterable[str] | Awaitable[Iterable[str]]"]
"""``completer(value)`` or ``completer(value, arguments)``: suggestions for an argument being typed.

``arguments`` holds the other arguments the client already filled in (``{name: text}``).
"""


class ResourceOptions(CommonOptions, total=False):
    """``CommonOptions`` plus what a resource (or resource template) has."""

    mime_type: str | None
    annotations: mt.Annotations | Mapping[str, Any] | None
    completer: Mapping[str, Completer] | None


class PromptOptions(CommonOptions, total=False):
    """``CommonOptions`` plus what a prompt has."""

    completer: Mapping[str, Completer] | None


COMMON_HELP: dict[str, str] = {
    "name": "Name clients call it by (default: the function's name).",
    "title": "Human-readable title.",
    "description": "Description (default: the docstring's text).",
    "tags": "Tags, for enabling and disabling groups of tools, resources and prompts.",
    "meta": "Extra _meta for the listing.",
    "icons": "Icons clients may show.",
    "enabled": "False registers it hidden from listings.",
}

OPTION_HELP: dict[str, str] = {
    **COMMON_HELP,
    "annotations": "Behaviour hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint.",
    "timeout": "Seconds before the call fails with a timeout.",
    "output_schema": "JSON schema of structured results; None infers it from the return annotation, False omits it.",
    "strict": ServerSettings.help("strict") + " (default: the server's strict setting)",
    "run_on": "'worker' (a thread; the default) or 'main' (the kernel's main thread, between cells).",
    "input_schema": "A JSON schema advertised exactly as given ($schema, $defs kept) and checked on every call.",
    "result_budget": ServerSettings.help("result_budget") + " (default: the server's result_budget)",
    "confirm": "Each client call waits for the notebook user to allow it (None follows the server's confirm setting).",
    "task": "True or 'optional': a long call may become a task for clients that support tasks; 'required': only so.",
    "headers": "Parameters mirrored into HTTP headers (2026 era): {'region': 'Region'} sends Mcp-Param-Region.",
    "app": "False: no MCP App card for this tool, even for clients that render apps (see the server's apps setting).",
}
"""One sentence per tool option key: the API docs and the magic's ``--help`` both say this."""

_COMPLETER_HELP = "Completion functions by argument name: completer(value) or completer(value, arguments)."

RESOURCE_OPTION_HELP: dict[str, str] = {
    **COMMON_HELP,
    "mime_type": "MIME type of the contents (default: inferred from the return annotation or the value).",
    "annotations": "Hints for clients: audience (user, assistant), priority (0 to 1), lastModified.",
    "completer": _COMPLETER_HELP,
}
"""One sentence per resource option key."""

PROMPT_OPTION_HELP: dict[str, str] = {**COMMON_HELP, "completer": _COMPLETER_HELP}
"""One sentence per prompt option key."""


def check_option_keys(options: Mapping[str, Any], known: Mapping[str, str], noun: str) -> None:
    """Refuse a key ``known`` does not have, naming the closest one (``noun``: "tool", "resource", ...)."""
    for key in options:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f"; known: {', '.join(known)}"
            raise ToolDefinitionError(f"unknown {noun} option {key!r}{hint}")
