"""``Tool``: a parsed function plus its options; validates arguments and converts results."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Unpack

import mcp_types as mt
from pydantic import ValidationError

from jupyter_mcp.shapes.status import RunOn
from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.components.component import Component, common_fields
from jupyter_mcp.tools.components.function import WRAP_RESULT_KEY, BoundCall, ParsedFunction, parse_function
from jupyter_mcp.tools.components.headers import with_param_headers
from jupyter_mcp.tools.components.options import INFER, OPTION_HELP, TaskSupport, ToolOptions, check_option_keys
from jupyter_mcp.tools.components.results import Converted, convert_tool_result, convert_unannotated, jsonable, text
from jupyter_mcp.tools.components.returns import ToolResult
from jupyter_mcp.tools.components.schema import dereference
from jupyter_mcp.tools.components.verbatim import VerbatimSchema
from jupyter_mcp.tools.errors import ToolDefinitionError, ToolOutputError
from jupyter_mcp.tools.sizes import parse_budget

if TYPE_CHECKING:
    import jsonschema

_ANNOTATION_KEYS = {
    "title": "title",
    "readOnlyHint": "read_only_hint",
    "destructiveHint": "destructive_hint",
    "idempotentHint": "idempotent_hint",
    "openWorldHint": "open_world_hint",
}


@dataclasses.dataclass(eq=False, kw_only=True)
class Tool(Component):
    """A function served as an MCP tool.

    Build one with ``Tool.from_function(fn, **options)``; a server or registry holds it.
    Schemas are computed once; ``to_mcp()`` is what ``tools/list`` advertises.
    """

    kind: ClassVar[Kind] = "tool"

    annotations: mt.ToolAnnotations | None = None
    timeout: float | None = None
    output_schema: dict[str, Any] | None = None
    wrap_result: bool = False
    strict: bool | None = None
    """``None`` follows the server's ``strict`` setting."""
    run_on: RunOn = "worker"
    verbatim: VerbatimSchema | None = None
    """The ``input_schema=`` given at registration: advertised as is, and checked on every call."""
    result_budget: int | None = None
    """Bytes a result may take as sent; ``None`` follows the server's budget (budget.py)."""
    confirm: bool | None = None
    """Whether client calls wait for the notebook user; ``None`` follows the server's ``confirm`` setting."""
    task: TaskSupport | None = None
    """Whether a call may become a task (the tasks extension): ``"optional"``, ``"required"`` or never."""
    param_headers: dict[str, str] | None = None
    """Parameter -> header name, mirrored by 2026-era clients as ``Mcp-Param-<name>``."""
    app: bool = True
    """Whether clients that render MCP Apps get this tool's card as its app (and the server's ``apps`` is on)."""

    @classmethod
    def from_function(cls, fn: Callable[..., Any], **options: Unpack[ToolOptions]) -> Tool:
        """Parse ``fn`` and apply the options (``ToolOptions``); raises ``ToolDefinitionError`` on bad input."""
        check_option_keys(options, OPTION_HELP, "tool")
        parsed = parse_function(fn, name=options.get("name"))
        given_schema = options.get("input_schema")
        schema, wrap = _resolve_output_schema(parsed, options.get("output_schema", INFER))
        timeout, run_on = options.get("timeout"), options.get("run_on", "worker")
        _check_options(parsed.name, timeout, run_on)
        verbatim = VerbatimSchema.for_function(parsed, given_schema) if given_schema is not None else None
        headers = options.get("headers")
        return cls(
            **common_fields(parsed, options),
            annotations=_annotations(options.get("annotations")),
            timeout=timeout,
            output_schema=schema,
            wrap_result=wrap,
            strict=options.get("strict"),
            run_on=run_on,
            confirm=options.get("confirm"),
            verbatim=verbatim,
            result_budget=parse_budget(options.get("result_budget"), f"tool {parsed.name!r}"),
            task=_task_support(parsed.name, options.get("task", False)),
            param_headers=_param_headers(parsed.name, verbatim.schema if verbatim else parsed.input_schema, headers),
            app=_app(parsed.name, options.get("app", True)),
        )

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """What clients are told to send: the ``input_schema=`` given, else the one built from the signature.

        Parameters named in ``headers=`` carry ``x-mcp-header``.
        """
        schema = self.verbatim.schema if self.verbatim is not None else self.parsed.input_schema
        return with_param_headers(self.name, schema, self.param_headers) if self.param_headers else schema

    def to_mcp(self, *, dereference_schemas: bool = True) -> mt.Tool:
        """The ``tools/list`` entry for this tool."""
        return self._mcp_deref if dereference_schemas else self._mcp_raw

    @cached_property
    def _mcp_deref(self) -> mt.Tool:
        return self._build_mcp(dereference)

    @cached_property
    def _mcp_raw(self) -> mt.Tool:
        return self._build_mcp(lambda s: s)

    def _build_mcp(self, transform: Callable[[dict[str, Any]], dict[str, Any]]) -> mt.Tool:
        return mt.Tool(
            name=self.name,
            title=self.title,
            description=self.description or "",
            input_schema=self.input_schema if self.verbatim is not None else transform(self.input_schema),
            output_schema=transform(self.output_schema) if self.output_schema is not None else None,
            icons=self.icons,
            annotations=self.annotations,
            meta=self.listing_meta(),
        )

    # ---- calling ---------------------------------------------------------------------------------

    def bind(self, arguments: Mapping[str, Any] | None, *, strict: bool, injected: Mapping[str, Any]) -> BoundCall:
        """Validate client arguments; raises ``ToolArgumentsError`` naming each bad parameter."""
        data = dict(arguments or {})
        if self.verbatim is not None:
            self.verbatim.check(self.name, data)
        return self.validated(data, injected, strict=strict)

    def convert(self, value: Any) -> Converted:
        """Turn a return value into content + structuredContent; ``ToolOutputError`` on mismatch."""
        if isinstance(value, ToolResult):
            return convert_tool_result(value)
        if self.output_schema is None:
            return convert_unannotated(value)
        data = self._structured_value(value)
        structured = {"result": data} if self.wrap_result else data
        if not isinstance(structured, dict):
            raise ToolOutputError(
                f"tool {self.name!r} returned {type(value).__name__}, but its output schema needs an object"
            )
        self._check_output_schema(structured)
        block = text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False))
        return Converted([block], structured)

    def _structured_value(self, value: Any) -> Any:
        adapter = self.parsed.return_adapter
        if adapter is None or self._schema_overridden:
            return jsonable(value)
        try:
            return adapter.dump_python(adapter.validate_python(value), mode="json")
        except ValidationError as exc:
            raise ToolOutputError(
                f"tool {self.name!r} returned a value that does not match its return annotation: {_first_error(exc)}"
            ) from None

    @cached_property
    def _schema_overridden(self) -> bool:
        return self.output_schema is not self.parsed.output_schema

    @cached_property
    def _output_validator(self) -> jsonschema.protocols.Validator | None:
        if not self._schema_overridden or self.output_schema is None:
            return None
        import jsonschema  # only a schema given by hand needs it (see verbatim.py)

        validator_cls = jsonschema.validators.validator_for(self.output_schema)
        return validator_cls(self.output_schema)

    def _check_output_schema(self, structured: dict[str, Any]) -> None:
        validator = self._output_validator
        if validator is None:
            return
        import jsonschema

        error = jsonschema.exceptions.best_match(validator.iter_errors(structured))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            raise ToolOutputError(
                f"tool {self.name!r} returned a value that does not match its output schema at {where}: {error.message}"
            )


def _first_error(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error["loc"])
    return f"{where}: {error['msg']}" if where else str(error["msg"])


def _resolve_output_schema(
    parsed: ParsedFunction, override: Mapping[str, Any] | Literal[False] | None
) -> tuple[dict[str, Any] | None, bool]:
    if override is INFER or override is None:
        return parsed.output_schema, parsed.wrap_result
    if override is False:
        return None, False
    schema = dict(override)
    if schema.get("type") != "object":
        raise ToolDefinitionError(
            f'tool {parsed.name!r}: output_schema must describe an object ("type": "object"); '
            f'to return a primitive, wrap it: {{"type": "object", "properties": {{"result": ...}}, '
            f'"{WRAP_RESULT_KEY}": true}}'
        )
    import jsonschema  # see verbatim.py

    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except jsonschema.exceptions.SchemaError as exc:
        message = f"tool {parsed.name!r}: output_schema is not a valid JSON schema: {exc.message}"
        raise ToolDefinitionError(message) from None
    return schema, bool(schema.get(WRAP_RESULT_KEY))


def _check_options(name: str, timeout: float | None, run_on: str) -> None:
    if timeout is not None and not timeout > 0:
        raise ToolDefinitionError(f"tool {name!r}: timeout must be a positive number of seconds, got {timeout!r}")
    if run_on not in ("worker", "main"):
        raise ToolDefinitionError(f"tool {name!r}: run_on must be 'worker' or 'main', got {run_on!r}")


def _task_support(name: str, value: bool | TaskSupport) -> TaskSupport | None:
    if value is True or value == "optional":
        return "optional"
    if value is False or value is None:
        return None
    if value == "required":
        return "required"
    raise ToolDefinitionError(f"tool {name!r}: task must be True, False, 'optional' or 'required', got {value!r}")


def _app(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ToolDefinitionError(f"tool {name!r}: app must be True or False, got {value!r}")
    return value


def _param_headers(name: str, schema: Mapping[str, Any], headers: Mapping[str, str] | None) -> dict[str, str] | None:
    if not headers:
        return None
    with_param_headers(name, schema, headers)  # refuses bad declarations now, not at listing
    return dict(headers)


def _annotations(value: mt.ToolAnnotations | Mapping[str, Any] | None) -> mt.ToolAnnotations | None:
    if value is None or isinstance(value, mt.ToolAnnotations):
        return value
    unknown = set(value) - set(_ANNOTATION_KEYS) - set(_ANNOTATION_KEYS.values())
    if unknown:
        raise ToolDefinitionError(f"unknown tool annotation(s) {sorted(unknown)}; known: {', '.join(_ANNOTATION_KEYS)}")
    return mt.ToolAnnotations.model_validate(dict(value))
