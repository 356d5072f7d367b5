"""``Component``: what tools, resources, resource templates and prompts share.

Each is a parsed function plus identity (``name``), presentation (``title``, ``description``,
``icons``, ``meta``), ``tags`` for enabling groups, and ``enabled``; each validates what a client
sends through its function's arguments model and lists its tags under ``_meta``. The subclasses add
what only they have (a tool's output schema and hints, a resource's URI, a prompt's messages).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import mcp_types as mt
from pydantic import ValidationError

from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.components.function import BoundCall, ParsedFunction, bound_call
from jupyter_mcp.tools.components.options import CommonOptions
from jupyter_mcp.tools.components.results import jsonable
from jupyter_mcp.tools.errors import ToolArgumentsError

TAGS_META_KEY = "jupyter-mcp/tags"


@dataclass(eq=False, kw_only=True)
class Component:
    """A function served as a tool, a resource (or template) or a prompt."""

    parsed: ParsedFunction
    name: str
    title: str | None = None
    description: str | None = None
    tags: frozenset[str] = frozenset()
    meta: dict[str, Any] | None = None
    icons: list[mt.Icon] | None = None
    enabled: bool = True

    kind: ClassVar[Kind]

    @property
    def key(self) -> str:
        """What the registry files it under: the name (a resource: its URI or URI template)."""
        return self.name

    @property
    def fn(self) -> Callable[..., Any]:
        return self.parsed.fn

    @property
    def is_async(self) -> bool:
        return self.parsed.is_async

    def listing_meta(self) -> dict[str, Any] | None:
        """The ``_meta`` of its listing: the given ``meta`` plus its tags."""
        meta = dict(self.meta or {})
        if self.tags:
            meta[TAGS_META_KEY] = sorted(self.tags)
        return meta or None

    def validated(self, data: Mapping[str, Any], injected: Mapping[str, Any], *, strict: bool = False) -> BoundCall:
        """The call of its function with ``data`` validated; ``ToolArgumentsError`` names each bad argument."""
        model = self.parsed.arguments_model
        try:
            if strict:  # through JSON, so that strict mode sees what the client sent ("10" stays a string)
                values = model.model_validate_json(json.dumps(jsonable(dict(data))), strict=True)
            else:
                values = model.model_validate(dict(data))
        except ValidationError as exc:
            names = [param.name for param in self.parsed.parameters]
            raise ToolArgumentsError(format_validation_error(self.key, exc, names, noun=self.kind)) from None
        return bound_call(self.parsed, values, injected)


def common_fields(parsed: ParsedFunction, options: CommonOptions) -> dict[str, Any]:
    """The ``Component`` fields ``options`` give (the docstring's text when no description is given)."""
    description, meta, icons = options.get("description"), options.get("meta"), options.get("icons")
    return {
        "parsed": parsed,
        "name": parsed.name,
        "title": options.get("title"),
        "description": description if description is not None else parsed.description,
        "tags": frozenset(options.get("tags") or ()),
        "meta": dict(meta) if meta else None,
        "icons": [_icon(i) for i in icons] if icons else None,
        "enabled": options.get("enabled", True),
    }


def format_validation_error(
    tool_name: str, exc: ValidationError, parameters: Sequence[str] = (), *, noun: str = "tool"
) -> str:
    """``Invalid arguments for tool 'x':`` then one line per bad parameter with what was expected.

    An argument the tool does not take is named, with the closest real parameter when one is near.
    ``noun`` says what was called ("tool", "prompt", "resource").
    """
    lines = [f"Invalid arguments for {noun} {tool_name!r}:"]
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "(arguments)"
        if error["type"] == "extra_forbidden" and len(error["loc"]) == 1:
            lines.append(f"- {where}: {_unexpected(str(error['loc'][0]), parameters, noun)}")
            continue
        message = error["msg"]
        if error["type"] != "missing" and "input" in error:
            message += f" (got {_short(error['input'])})"
        lines.append(f"- {where}: {message}")
    return "\n".join(lines)


def _unexpected(name: str, parameters: Sequence[str], noun: str) -> str:
    if not parameters:
        return f"unexpected argument: this {noun} takes no arguments"
    close = difflib.get_close_matches(name, parameters, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unexpected argument ({hint}this {noun} takes {', '.join(map(repr, parameters))})"


def _short(value: Any, limit: int = 80) -> str:
    rendered = repr(value)
    return rendered if len(rendered) <= limit else rendered[: limit - 3] + "..."


def _icon(value: mt.Icon | Mapping[str, Any]) -> mt.Icon:
    return value if isinstance(value, mt.Icon) else mt.Icon.model_validate(dict(value))
