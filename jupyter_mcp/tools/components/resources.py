"""Resources and resource templates: a function read again on every ``resources/read``.

A URI without ``{...}`` is a ``Resource``; one with RFC 6570 expressions is a ``ResourceTemplate``
whose variables are the function's parameters, coerced to their annotations (``{id}`` read as
``"123"`` arrives as ``123`` for ``id: int``). ``{path*}`` (FastMCP's wildcard) and ``{+path}``
span several segments; ``{?a,b}`` are optional query parameters. Matched values that would climb
out of a directory (``..``), name an absolute path or hold a NUL byte are refused.

Example::

    server = ToolServer("demo")

    @server.resource("data://cities/{country}{?limit}", mime_type="application/json")
    def cities(country: str, limit: int = 10) -> list[dict]:
        '''The cities of one country.'''
        return table[table.country == country].head(limit).to_dict("records")
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Unpack

import mcp_types as mt
from mcp.shared.path_security import contains_path_traversal, is_absolute_path
from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate
from pydantic import ValidationError

from jupyter_mcp.shapes.status import RunOn
from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.components.component import Component, common_fields
from jupyter_mcp.tools.components.function import BoundCall, ParsedFunction, parse_function
from jupyter_mcp.tools.components.options import (
    RESOURCE_OPTION_HELP,
    Completer,
    ResourceOptions,
    check_option_keys,
)
from jupyter_mcp.tools.components.registry import Registry
from jupyter_mcp.tools.components.resource_contents import ResourceContents, mime_for_annotation, to_contents
from jupyter_mcp.tools.errors import ToolArgumentsError, ToolDefinitionError

_WILDCARD = re.compile(r"\{([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\*\}")
"""``{name*}`` with no operator: FastMCP's multi-segment wildcard, matched as RFC 6570's ``{+name}``."""


@dataclass(eq=False, kw_only=True)
class _Readable(Component):
    """What resources and templates add to a component: a MIME type, hints for clients, contents."""

    kind: ClassVar[Kind] = "resource"

    mime_type: str | None = None
    annotations: mt.Annotations | None = None

    run_on: ClassVar[RunOn] = "worker"
    timeout: ClassVar[float | None] = None
    is_template: ClassVar[bool]

    def _listed(self) -> dict[str, Any]:
        """What a listing entry says besides the URI (or URI template)."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "mime_type": self.mime_type,
            "icons": self.icons,
            "annotations": self.annotations,
            "meta": self.listing_meta(),
        }

    def bind(self, values: Mapping[str, Any], injected: Mapping[str, Any]) -> BoundCall:
        """Coerce matched URI values to the function's annotations; ``ToolArgumentsError`` names each bad one."""
        return self.validated(values, injected)

    def contents(self, value: Any, uri: str) -> list[ResourceContents]:
        """The ``contents`` of a read of ``uri`` that returned ``value``."""
        return to_contents(value, uri, self.mime_type)


@dataclass(eq=False, kw_only=True)
class Resource(_Readable):
    """A fixed URI; its function runs on every read."""

    uri: str
    is_template: ClassVar[bool] = False

    @property
    def key(self) -> str:
        return self.uri

    def to_mcp(self) -> mt.Resource:
        """The ``resources/list`` entry."""
        return mt.Resource(uri=self.uri, **self._listed())


@dataclass(eq=False, kw_only=True)
class ResourceTemplate(_Readable):
    """An RFC 6570 URI template; its variables are the function's parameters."""

    uri_template: str
    matcher: UriTemplate
    completers: dict[str, Completer] = field(default_factory=dict)
    is_template: ClassVar[bool] = True

    @property
    def key(self) -> str:
        return self.uri_template

    @property
    def variables(self) -> list[str]:
        return self.matcher.variable_names

    def match(self, uri: str) -> dict[str, str | list[str]] | None:
        """The template's values in ``uri`` (``None`` if it does not match); refuses path escapes."""
        values = self.matcher.match(uri)
        if values is not None:
            _refuse_escapes(self.uri_template, values)
        return values

    def expand(self, values: Mapping[str, str]) -> str:
        """The URI these values read (empty values of optional parameters are left out)."""
        return self.matcher.expand({name: value for name, value in values.items() if value != ""})

    def to_mcp(self) -> mt.ResourceTemplate:
        """The ``resources/templates/list`` entry."""
        return mt.ResourceTemplate(uri_template=self.uri_template, **self._listed())


AnyResource = Resource | ResourceTemplate


def resource_from_function(fn: Callable[..., Any], uri: str, **options: Unpack[ResourceOptions]) -> AnyResource:
    """A ``Resource`` (plain URI) or ``ResourceTemplate`` (URI with ``{...}``) reading ``fn``.

    Raises ``ToolDefinitionError`` saying what does not fit: an unknown option, a malformed template,
    a template variable the function does not take, a required parameter the URI does not give.
    """
    check_option_keys(options, RESOURCE_OPTION_HELP, "resource")
    if not isinstance(uri, str) or ":" not in uri:
        raise ToolDefinitionError(f"resource URI must look like scheme://path (e.g. data://cities); got {uri!r}")
    parsed = parse_function(fn, name=options.get("name"), noun="resource")
    common = _common(parsed, options)
    if not _is_template(uri):
        _check_static(parsed, uri)
        if options.get("completer"):
            raise ToolDefinitionError(f"resource {uri!r} has no parameters to complete; completer= needs a template")
        return Resource(uri=uri, **common)
    matcher = _parse_template(uri)
    label = f"resource template {uri!r}"
    _check_template(parsed, matcher, label)
    completers = _completers(parsed, options.get("completer"), matcher.variable_names, label)
    return ResourceTemplate(uri_template=uri, matcher=matcher, completers=completers, **common)


def _completers(
    parsed: ParsedFunction, given: Mapping[str, Completer] | None, variables: list[str], label: str
) -> dict[str, Completer]:
    from jupyter_mcp.tools.components.completions import completers_for

    return completers_for(parsed, given, variables, label)


def _common(parsed: ParsedFunction, options: ResourceOptions) -> dict[str, Any]:
    return {
        **common_fields(parsed, options),
        "mime_type": options.get("mime_type") or mime_for_annotation(parsed.return_annotation),
        "annotations": _annotations(options.get("annotations")),
    }


def _annotations(value: mt.Annotations | Mapping[str, Any] | None) -> mt.Annotations | None:
    if value is None or isinstance(value, mt.Annotations):
        return value
    try:
        return mt.Annotations.model_validate(dict(value))
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in error["loc"])
        raise ToolDefinitionError(f"resource annotations: {where}: {error['msg']}") from None


def template_variables(uri: str) -> tuple[list[str], list[str]]:
    """A URI's template variables: ``(path variables, optional query variables)``; both empty for a plain URI."""
    if not _is_template(uri):
        return [], []
    matcher = _parse_template(uri)
    query = matcher.query_variable_names
    return [v for v in matcher.variable_names if v not in query], [v for v in matcher.variable_names if v in query]


def _is_template(uri: str) -> bool:
    """Any brace makes a template (a malformed one is then an error, not a plain URI)."""
    return "{" in uri or "}" in uri


def _parse_template(uri: str) -> UriTemplate:
    try:
        return UriTemplate.parse(_WILDCARD.sub(r"{+\1}", uri))
    except InvalidUriTemplate as exc:
        raise ToolDefinitionError(f"resource template {uri!r} is not a valid RFC 6570 URI template: {exc}") from None


def _required(parsed: ParsedFunction) -> list[str]:
    return [str(name) for name in parsed.input_schema.get("required", [])]


def _check_static(parsed: ParsedFunction, uri: str) -> None:
    required = _required(parsed)
    if required:
        example = uri.rstrip("/") + "".join(f"/{{{name}}}" for name in required)
        raise ToolDefinitionError(
            f"resource {uri!r}: {parsed.name}() needs {', '.join(required)}, but a plain URI passes no values; "
            f"use a template such as {example!r}"
        )


def _check_template(parsed: ParsedFunction, matcher: UriTemplate, label: str) -> None:
    taken = [param.name for param in parsed.parameters]
    for name in matcher.variable_names:
        if name not in taken:
            raise ToolDefinitionError(
                f"{label} has {{{name}}}, but {parsed.name}() has no parameter {name!r} "
                f"(its parameters: {', '.join(taken) or 'none'})"
            )
    query = matcher.query_variable_names
    for name in _required(parsed):
        if name in query:
            raise ToolDefinitionError(f"{label}: query parameter {name!r} is optional in a URI, so it needs a default")
        if name not in matcher.variable_names:
            raise ToolDefinitionError(
                f"{label}: {parsed.name}() needs {name!r}, which the template does not give; "
                f"add {{{name}}} to the URI or give {name!r} a default"
            )


def _refuse_escapes(template: str, values: Mapping[str, str | list[str]]) -> None:
    for name, value in values.items():
        for item in value if isinstance(value, list) else [value]:
            if "\0" in item or contains_path_traversal(item) or is_absolute_path(item):
                raise ToolArgumentsError(
                    f"Invalid arguments for resource {template!r}:\n- {name}: {item!r} is refused: "
                    "values may not contain '..' segments, absolute paths or NUL bytes"
                )


@dataclass(frozen=True)
class Found:
    """What answers a URI: the resource or template, and the values matched in the URI."""

    resource: AnyResource
    values: dict[str, str | list[str]]


class ResourceRegistry(Registry[AnyResource]):
    """Resources by URI and templates by URI template."""

    kind: ClassVar[Kind] = "resource"

    def find(self, uri: str) -> Found | None:
        """The visible resource with this exact URI, else the first visible template matching it.

        A template that matches with a refused value raises ``ToolArgumentsError`` rather than
        falling through to a later, possibly more permissive, template.
        """
        exact = self.get(uri)
        if isinstance(exact, Resource):
            return Found(exact, {})
        for item in self.visible():
            if isinstance(item, ResourceTemplate):
                values = item.match(uri)
                if values is not None:
                    return Found(item, values)
        return None
