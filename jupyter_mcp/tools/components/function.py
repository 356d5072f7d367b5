"""Parse a Python function into what an MCP tool (or prompt, or resource) needs: input model, schemas, description.

Parsing is separate from the ``Tool`` that calls the function (as in FastMCP): this module
knows signatures, annotations and docstrings, nothing about MCP sessions.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, get_args, get_origin

import docstring_parser
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PydanticSchemaGenerationError,
    PydanticUserError,
    TypeAdapter,
    create_model,
)
from pydantic.fields import FieldInfo

from jupyter_mcp.tools.components.base import Injected
from jupyter_mcp.tools.components.schema import prune_auto_titles
from jupyter_mcp.tools.errors import ToolDefinitionError

WRAP_RESULT_KEY = "x-jupyter-mcp-wrap-result"

_RESERVED_FIELD_NAMES = frozenset(dir(BaseModel))


@dataclass(frozen=True)
class Parameter:
    """One argument a client passes: its schema field and how the function takes it."""

    name: str
    field_name: str
    positional_only: bool


@dataclass(frozen=True)
class BoundCall:
    """Validated arguments ready to pass to the function."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any]


@dataclass(frozen=True)
class ParsedFunction:
    """Everything the tool layer derives from a function, computed once at registration."""

    fn: Callable[..., Any]
    name: str
    description: str | None
    parameters: tuple[Parameter, ...]
    arguments_model: type[BaseModel]
    input_schema: dict[str, Any]
    injected: dict[str, type]
    output_schema: dict[str, Any] | None
    return_adapter: TypeAdapter[Any] | None
    wrap_result: bool
    is_async: bool
    return_annotation: Any = inspect.Signature.empty


def parse_function(fn: Callable[..., Any], *, name: str | None = None, noun: str = "tool") -> ParsedFunction:
    """Build a ``ParsedFunction`` from ``fn``; raises ``ToolDefinitionError`` with the reason.

    ``noun`` names what ``fn`` becomes in those messages ("tool", "prompt", "resource").
    """
    tool_name = name or _function_name(fn, noun)
    label = f"{noun} {tool_name!r}"
    signature = _signature(fn, label)
    hints = _type_hints(fn, label)
    docstring = docstring_parser.parse(inspect.getdoc(fn) or "")
    doc_params = {p.arg_name.lstrip("*"): p.description for p in docstring.params if p.description}
    fields: dict[str, Any] = {}
    parameters: list[Parameter] = []
    injected: dict[str, type] = {}
    for index, param in enumerate(signature.parameters.values()):
        _refuse_variadic(param, label)
        annotation = hints.get(param.name, param.annotation)
        kind = injected_kind(annotation)
        if kind is not None:
            injected[param.name] = kind
            continue
        field_name = _field_name(param.name, index)
        fields[field_name] = _field(param, annotation, doc_params.get(param.name), field_name)
        positional = param.kind is inspect.Parameter.POSITIONAL_ONLY
        parameters.append(Parameter(param.name, field_name, positional))
    model = _arguments_model(tool_name, label, fields)
    input_schema = _input_schema(model, label)
    return_annotation = hints.get("return", signature.return_annotation)
    try:
        output_schema, adapter, wrap = output_schema_for(return_annotation)
    except PydanticUserError as exc:
        raise ToolDefinitionError(f"{label}: return annotation: {_first_line(exc)}") from exc
    return ParsedFunction(
        fn=fn,
        name=tool_name,
        description=_description(docstring),
        parameters=tuple(parameters),
        arguments_model=model,
        input_schema=input_schema,
        injected=injected,
        output_schema=output_schema,
        return_adapter=adapter,
        wrap_result=wrap,
        is_async=is_async_callable(fn),
        return_annotation=return_annotation,
    )


def bound_call(parsed: ParsedFunction, validated: BaseModel, injected: Mapping[str, Any]) -> BoundCall:
    """The call ``parsed.fn`` gets: validated values by parameter, plus the injected ones (``Context``)."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for param in parsed.parameters:
        value = getattr(validated, param.field_name)
        if param.positional_only:
            args.append(value)
        else:
            kwargs[param.name] = value
    kwargs.update({name: injected[name] for name in parsed.injected if name in injected})
    return BoundCall(tuple(args), kwargs)


def is_async_callable(fn: Callable[..., Any]) -> bool:
    while isinstance(fn, functools.partial):
        fn = fn.func
    call = getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
    return inspect.iscoroutinefunction(fn) or (
        not inspect.isfunction(fn) and not inspect.ismethod(fn) and inspect.iscoroutinefunction(call)
    )


def _function_name(fn: Callable[..., Any], noun: str) -> str:
    name = getattr(fn, "__name__", None)
    if not name or name == "<lambda>":
        raise ToolDefinitionError(f"a lambda or nameless callable needs an explicit name= to become a {noun}")
    return str(name)


def _signature(fn: Callable[..., Any], label: str) -> inspect.Signature:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise ToolDefinitionError(f"{label}: cannot read the signature of {fn!r}: {exc}") from exc


def _type_hints(fn: Callable[..., Any], label: str) -> dict[str, Any]:
    target = fn.func if isinstance(fn, functools.partial) else fn
    if not (inspect.isfunction(target) or inspect.ismethod(target)):
        target = getattr(target, "__call__", target)  # noqa: B004
    try:
        return typing.get_type_hints(target, include_extras=True)
    except NameError as exc:
        raise ToolDefinitionError(
            f"{label}: an annotation names something undefined ({exc}); "
            f"define or import it before registering the {label.split(maxsplit=1)[0]}"
        ) from exc
    except TypeError:
        return {}


def _refuse_variadic(param: inspect.Parameter, label: str) -> None:
    if param.kind is inspect.Parameter.VAR_POSITIONAL:
        raise ToolDefinitionError(
            f"{label}: parameter '*{param.name}' is not allowed: it needs a fixed set of "
            f"named parameters to build their input schema. Use a list parameter instead, "
            f"e.g. '{param.name}: list[str]'."
        )
    if param.kind is inspect.Parameter.VAR_KEYWORD:
        raise ToolDefinitionError(
            f"{label}: parameter '**{param.name}' is not allowed: it needs a fixed set of "
            f"named parameters to build their input schema. Use a dict parameter instead, "
            f"e.g. '{param.name}: dict[str, Any]'."
        )


def injected_kind(annotation: Any) -> type | None:
    """The injected class (an ``Injected`` such as ``Context``) this annotation asks for, else ``None``."""
    candidates = [annotation]
    if get_origin(annotation) is Annotated:
        candidates = [get_args(annotation)[0]]
    if get_origin(candidates[0]) in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        candidates = [a for a in get_args(candidates[0]) if a is not type(None)]
    for candidate in candidates:
        if isinstance(candidate, type) and issubclass(candidate, Injected):
            return candidate
    return None


def _field_name(param_name: str, index: int) -> str:
    # pydantic refuses fields that shadow BaseModel attributes or start with "_"; alias those.
    if param_name.startswith("_") or param_name in _RESERVED_FIELD_NAMES:
        return f"p{index}_{param_name.lstrip('_')}"
    return param_name


def _field(param: inspect.Parameter, annotation: Any, doc: str | None, field_name: str) -> tuple[Any, FieldInfo]:
    if annotation is inspect.Parameter.empty:
        annotation = Any
    annotation, explicit = _split_description(annotation)
    default = param.default
    if isinstance(default, FieldInfo):
        info = default
    else:
        info = Field() if default is inspect.Parameter.empty else Field(default=default)
    if info.description is None and explicit is None and doc and not _annotated_description(annotation):
        info = _merge(info, Field(description=doc))
    if explicit is not None:
        info = _merge(info, Field(description=explicit))
    if field_name != param.name:
        info = _merge(info, Field(alias=param.name))
    return annotation, info


def _split_description(annotation: Any) -> tuple[Any, str | None]:
    """Turn ``Annotated[x, "text"]`` into ``(Annotated[x, ...rest], "text")``."""
    if get_origin(annotation) is not Annotated:
        return annotation, None
    base, *extras = get_args(annotation)
    texts = [e for e in extras if isinstance(e, str)]
    rest = [e for e in extras if not isinstance(e, str)]
    rebuilt = Annotated[(base, *rest)] if rest else base
    return rebuilt, (texts[-1] if texts else None)


def _annotated_description(annotation: Any) -> bool:
    if get_origin(annotation) is not Annotated:
        return False
    return any(isinstance(e, FieldInfo) and e.description for e in get_args(annotation)[1:])


def _merge(base: FieldInfo, extra: FieldInfo) -> FieldInfo:
    return FieldInfo.merge_field_infos(base, extra)


def _arguments_model(tool_name: str, label: str, fields: dict[str, Any]) -> type[BaseModel]:
    # extra="forbid": a misspelled or invented argument is an error the caller sees, never silently
    # dropped; it also advertises ``"additionalProperties": false`` in the input schema.
    config = ConfigDict(populate_by_name=False, extra="forbid", arbitrary_types_allowed=False)
    try:
        return create_model(f"{_camel(tool_name)}Arguments", __config__=config, **fields)
    except PydanticSchemaGenerationError as exc:
        raise ToolDefinitionError(f"{label}: {_schema_problem(fields) or exc}") from exc
    except PydanticUserError as exc:
        raise ToolDefinitionError(f"{label}: {_first_line(exc)}") from exc


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0]


def _input_schema(model: type[BaseModel], label: str) -> dict[str, Any]:
    try:
        schema = model.model_json_schema()
    except PydanticSchemaGenerationError as exc:
        raise ToolDefinitionError(f"{label}: a parameter type has no JSON schema: {exc}") from exc
    schema = prune_auto_titles(schema)
    schema.setdefault("properties", {})
    return schema


def _schema_problem(fields: dict[str, Any]) -> str | None:
    for name, (annotation, _info) in fields.items():
        try:
            TypeAdapter(annotation).json_schema()
        except (PydanticSchemaGenerationError, TypeError):
            label = getattr(annotation, "__name__", repr(annotation))
            return (
                f"parameter {name!r} has type {label}, which clients cannot send as JSON; "
                "use a JSON-compatible type (str, int, list, dict, a pydantic model, ...)"
            )
    return None


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_")) or "Tool"


def _description(doc: docstring_parser.Docstring) -> str | None:
    parts = [doc.short_description, doc.long_description]
    text = "\n\n".join(p.strip() for p in parts if p and p.strip())
    return text or None


# ---- output -------------------------------------------------------------------------------------


def output_schema_for(annotation: Any) -> tuple[dict[str, Any] | None, TypeAdapter[Any] | None, bool]:
    """Output schema, the adapter that serializes results, and whether results are wrapped."""
    if annotation is inspect.Signature.empty or annotation is None or annotation is type(None):
        return None, None, False
    if annotation is Any or _is_content_annotation(annotation):
        return None, None, False
    try:
        adapter: TypeAdapter[Any] = TypeAdapter(annotation)
        schema = adapter.json_schema(mode="serialization")
    except PydanticSchemaGenerationError:
        return None, None, False  # e.g. -> DataFrame: converted to content, no schema to promise
    except PydanticUserError:
        raise
    except (TypeError, ValueError):
        return None, None, False
    if _is_object_schema(schema):
        return schema, adapter, False
    wrapped = {
        "type": "object",
        "properties": {"result": _without_defs(schema)},
        "required": ["result"],
        WRAP_RESULT_KEY: True,
    }
    if "$defs" in schema:
        wrapped["$defs"] = schema["$defs"]
    return wrapped, adapter, True


def _is_object_schema(schema: dict[str, Any]) -> bool:
    if schema.get("type") == "object":
        return True
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = schema.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {})
        return bool(target.get("type") == "object")
    return False


def _without_defs(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k != "$defs"}


def _is_content_annotation(annotation: Any) -> bool:
    """Return types that are content, not data: they get no output schema."""
    from jupyter_mcp.tools.components.returns import Audio, File, Image, ToolResult

    content_types: tuple[type, ...] = (Image, Audio, File, ToolResult)
    args = get_args(annotation)
    if get_origin(annotation) in (list, tuple, typing.Union) or type(annotation).__name__ == "UnionType":
        return any(_is_content_annotation(a) for a in args if a is not type(None))
    if not isinstance(annotation, type):
        return False
    if issubclass(annotation, content_types):
        return True
    module = getattr(annotation, "__module__", "")
    return module.startswith("mcp_types") and annotation.__name__.endswith(("Content", "Resource", "ResourceLink"))
