"""Prompts: a function whose return value becomes the messages of ``prompts/get``.

Arguments come from the signature (description from the docstring, as for tools). MCP sends every
argument as a string; like FastMCP, a parameter annotated with another type gets the string parsed
as JSON and validated (``"3"`` becomes ``3`` for ``n: int``; ``'["a"]'`` a list), and its listing
says so. A prompt returns a string (one user message), a ``Message``, or a list of them.

Example::

    @server.prompt
    def review_table(table: str, focus: Literal["quality", "bias"] = "quality") -> str:
        '''Ask for a review of one of the notebook's tables.'''
        return f"Review {table} for {focus}."
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Unpack

import mcp_types as mt

from jupyter_mcp.shapes.status import RunOn
from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.components.completions import completers_for
from jupyter_mcp.tools.components.component import Component, common_fields
from jupyter_mcp.tools.components.function import BoundCall, parse_function
from jupyter_mcp.tools.components.options import PROMPT_OPTION_HELP, Completer, PromptOptions, check_option_keys
from jupyter_mcp.tools.components.registry import Registry
from jupyter_mcp.tools.components.results import as_block, text, to_json_text
from jupyter_mcp.tools.components.returns import Audio, File, Image
from jupyter_mcp.tools.components.schema import dereference

Role = Literal["user", "assistant"]
_CONTENT = (mt.TextContent, mt.ImageContent, mt.AudioContent, mt.ResourceLink, mt.EmbeddedResource)


@dataclass
class Message:
    """One message of a prompt: text, an image, audio, a file or an embedded resource.

    Example::

        return [
            Message("Here is the chart:"),
            Message(Image(path="chart.png")),
            Message("It rose in March.", role="assistant"),
        ]
    """

    content: Any
    role: Role = "user"

    def to_mcp(self) -> mt.PromptMessage:
        return mt.PromptMessage(role=self.role, content=prompt_content(self.content))


PromptContent = mt.TextContent | mt.ImageContent | mt.AudioContent | mt.ResourceLink | mt.EmbeddedResource


def prompt_content(value: Any) -> PromptContent:
    """One content block for a message: text, MCP content, a helper, resource contents, or a rich value."""
    if isinstance(value, _CONTENT):
        return value
    if isinstance(value, Image | Audio | File):
        return value.to_content()
    if isinstance(value, mt.TextResourceContents | mt.BlobResourceContents):
        return mt.EmbeddedResource(type="resource", resource=value)
    blocks = as_block(value)
    if blocks is not None and len(blocks) == 1:
        return blocks[0]
    return text(to_json_text(value))


def to_messages(value: Any) -> list[mt.PromptMessage]:
    """The messages a prompt function's return value stands for."""
    if isinstance(value, mt.GetPromptResult):
        return list(value.messages)
    if isinstance(value, list | tuple):
        return [message for item in value for message in to_messages(item)]
    if isinstance(value, mt.PromptMessage):
        return [value]
    if isinstance(value, Message):
        return [value.to_mcp()]
    if isinstance(value, dict) and set(value) == {"role", "content"}:
        return [mt.PromptMessage.model_validate(value)]
    return [Message(value).to_mcp()]


@dataclass(eq=False, kw_only=True)
class Prompt(Component):
    """A function served as an MCP prompt. Build one with ``Prompt.from_function(fn, **options)``."""

    kind: ClassVar[Kind] = "prompt"

    completers: dict[str, Completer] = field(default_factory=dict)

    run_on: ClassVar[RunOn] = "worker"
    timeout: ClassVar[float | None] = None

    @classmethod
    def from_function(cls, fn: Callable[..., Any], **options: Unpack[PromptOptions]) -> Prompt:
        """Parse ``fn`` and apply the options (``PromptOptions``); raises ``ToolDefinitionError`` on bad input."""
        check_option_keys(options, PROMPT_OPTION_HELP, "prompt")
        parsed = parse_function(fn, name=options.get("name"), noun="prompt")
        arguments = [param.name for param in parsed.parameters]
        return cls(
            **common_fields(parsed, options),
            completers=completers_for(parsed, options.get("completer"), arguments, f"prompt {parsed.name!r}"),
        )

    @property
    def arguments(self) -> list[mt.PromptArgument]:
        """The arguments clients fill in, with what each expects."""
        schema = dereference(self.parsed.input_schema)
        required = set(schema.get("required", []))
        properties = schema.get("properties", {})
        return [
            mt.PromptArgument(
                name=param.name,
                description=_describe(properties.get(param.name, {})),
                required=param.name in required,
            )
            for param in self.parsed.parameters
        ]

    def to_mcp(self) -> mt.Prompt:
        """The ``prompts/list`` entry."""
        return mt.Prompt(
            name=self.name,
            title=self.title,
            description=self.description or "",
            arguments=self.arguments,
            icons=self.icons,
            meta=self.listing_meta(),
        )

    def bind(self, arguments: Mapping[str, Any] | None, injected: Mapping[str, Any]) -> BoundCall:
        """Parse and validate the string arguments; ``ToolArgumentsError`` names each bad one."""
        properties = dereference(self.parsed.input_schema).get("properties", {})
        data = {name: _parsed(value, properties.get(name, {})) for name, value in (arguments or {}).items()}
        return self.validated(data, injected)

    def messages(self, value: Any) -> list[mt.PromptMessage]:
        return to_messages(value)


def _accepts_text(schema: Mapping[str, Any]) -> bool:
    if schema.get("type") == "string" or isinstance(schema.get("const"), str) or not schema:
        return True
    return any(_accepts_text(option) for option in schema.get("anyOf", []) + schema.get("oneOf", []))


def _parsed(value: Any, schema: Mapping[str, Any]) -> Any:
    """A string argument for a non-string parameter is read as JSON when it is JSON."""
    if not isinstance(value, str) or _accepts_text(schema):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _describe(schema: Mapping[str, Any]) -> str | None:
    description = schema.get("description")
    if _accepts_text(schema):
        return description if isinstance(description, str) else None
    shape = {k: v for k, v in schema.items() if k not in ("description", "title", "default")}
    hint = f"Provide as a JSON string matching the following schema: {json.dumps(shape, ensure_ascii=False)}"
    return f"{description}\n\n{hint}" if isinstance(description, str) else hint


class PromptRegistry(Registry[Prompt]):
    """The prompts, by name."""

    kind: ClassVar[Kind] = "prompt"
