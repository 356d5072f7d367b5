"""Completions (``completion/complete``) for prompt arguments and resource template parameters.

An argument annotated with a ``Literal``, an ``Enum`` or ``bool`` completes from its values with no
code; any argument may instead have a completer the user gives (``completer={"arg": fn}``), called
as ``fn(value)`` or ``fn(value, arguments)`` (the other arguments already filled in), sync or async.
"""

from __future__ import annotations

import enum
import inspect
import typing
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, Literal, get_args, get_origin

import anyio.to_thread
import mcp_types as mt

from jupyter_mcp.tools.components.function import ParsedFunction
from jupyter_mcp.tools.components.options import Completer
from jupyter_mcp.tools.errors import ToolDefinitionError, ToolError

MAX_VALUES = 100
"""The spec's limit on values in one completion result."""


def completers_for(
    parsed: ParsedFunction, given: Mapping[str, Completer] | None, arguments: Iterable[str], label: str
) -> dict[str, Completer]:
    """Automatic completers (Literal/Enum/bool annotations) for ``arguments``, overridden by ``given``.

    Raises ``ToolDefinitionError`` when ``given`` names an argument that is not one of ``arguments``
    or holds something that is not callable.
    """
    names = list(arguments)
    found: dict[str, Completer] = {}
    fields = parsed.arguments_model.model_fields
    for param in parsed.parameters:
        if param.name in names:
            choices = choices_of(fields[param.field_name].annotation)
            if choices:
                found[param.name] = Choices(choices)
    for name, completer in (given or {}).items():
        if name not in names:
            raise ToolDefinitionError(
                f"{label}: completer for {name!r}, which is not one of its arguments ({', '.join(names) or 'none'})"
            )
        if not callable(completer):
            raise ToolDefinitionError(f"{label}: the completer for {name!r} is not callable")
        found[name] = completer
    return found


def choices_of(annotation: Any) -> list[str]:
    """The values a ``Literal``, ``Enum`` or ``bool`` annotation (possibly optional) allows, as text."""
    if get_origin(annotation) is typing.Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) is Literal:
        return [str(value.value if isinstance(value, enum.Enum) else value) for value in get_args(annotation)]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [str(member.value) for member in annotation]
    if annotation is bool:
        return ["true", "false"]
    members = [a for a in get_args(annotation) if a is not type(None)]
    if get_origin(annotation) in (typing.Union, getattr(__import__("types"), "UnionType", None)) and len(members) == 1:
        return choices_of(members[0])
    return []


class Choices:
    """The automatic completer: the allowed values that start with what was typed (ignoring case)."""

    def __init__(self, choices: list[str]) -> None:
        self.choices = choices

    def __call__(self, value: str) -> list[str]:
        folded = value.casefold()
        return [choice for choice in self.choices if choice.casefold().startswith(folded)]


async def complete(
    completers: Mapping[str, Completer], argument: str, value: str, context: Mapping[str, str], label: str
) -> mt.Completion:
    """Run the completer for ``argument`` (none: no suggestions); a failing completer is a ``ToolError``."""
    completer = completers.get(argument)
    if completer is None:
        return mt.Completion(values=[])
    try:
        values = await _call(completer, value, dict(context))
        suggestions = [str(item) for item in values]
    except Exception as exc:
        raise ToolError(f"the completer for {argument!r} of {label} failed: {type(exc).__name__}: {exc}") from exc
    return mt.Completion(
        values=suggestions[:MAX_VALUES], total=len(suggestions), has_more=len(suggestions) > MAX_VALUES
    )


async def _call(completer: Completer, value: str, context: dict[str, str]) -> Iterable[Any]:
    if isinstance(completer, Choices):
        return completer(value)
    call: Callable[[], Any] = (
        partial(completer, value, context) if _takes_context(completer) else partial(completer, value)
    )
    if inspect.iscoroutinefunction(completer):
        result = await call()
    else:
        # User code may be slow (a database, a file listing): keep it off the serving loop.
        result = await anyio.to_thread.run_sync(call)
        if inspect.isawaitable(result):
            result = await result
    return typing.cast(Iterable[Any], result)


def _takes_context(completer: Completer) -> bool:
    try:
        parameters = inspect.signature(completer).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in parameters)
