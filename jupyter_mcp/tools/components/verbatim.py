"""``VerbatimSchema``: an input schema given by the user, advertised exactly as written.

``@tool(input_schema={...})`` keeps ``$schema``, ``$defs``, ``$anchor``, composition and
conditional keywords untouched (JSON Schema 2020-12, SEP-1613/SEP-2106), while every call is still
checked against it and then bound to the function's parameters as usual.

``jsonschema`` is imported only where a schema given by hand is checked (here, an ``output_schema``
override, an approval's answer, an over-budget preview), as the SDK does: importing it builds
rfc3987-syntax's grammars when that is installed (Jupyter's own stack installs it), about 1.5 s of
CPU that ``%load_ext jupyter_mcp`` would otherwise pay before any tool exists.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jupyter_mcp.tools.components.function import ParsedFunction
from jupyter_mcp.tools.errors import ToolArgumentsError, ToolDefinitionError

if TYPE_CHECKING:
    import jsonschema


@dataclass(frozen=True, eq=False)
class VerbatimSchema:
    schema: dict[str, Any]
    validator: jsonschema.protocols.Validator

    @classmethod
    def for_function(cls, parsed: ParsedFunction, given: Mapping[str, Any]) -> VerbatimSchema:
        """Check ``given`` is an object schema whose properties the function takes; raises ``ToolDefinitionError``."""
        schema = copy.deepcopy(dict(given))
        where = f"tool {parsed.name!r}: input_schema"
        if schema.get("type") != "object":
            raise ToolDefinitionError(f'{where} must describe an object ("type": "object")')
        import jsonschema

        try:
            validator_cls = jsonschema.validators.validator_for(schema)
            validator_cls.check_schema(schema)
        except jsonschema.exceptions.SchemaError as exc:
            raise ToolDefinitionError(f"{where} is not a valid JSON schema: {exc.message}") from None
        _check_parameters(parsed, schema, where)
        return cls(schema, validator_cls(schema))

    def check(self, tool_name: str, arguments: Mapping[str, Any]) -> None:
        """Raise ``ToolArgumentsError`` listing every place ``arguments`` break the schema."""
        errors = sorted(self.validator.iter_errors(dict(arguments)), key=lambda e: list(e.absolute_path))
        if not errors:
            return
        lines = [f"Invalid arguments for tool {tool_name!r}:"]
        for error in errors:
            where = ".".join(str(part) for part in error.absolute_path) or "(arguments)"
            lines.append(f"- {where}: {error.message}")
        raise ToolArgumentsError("\n".join(lines))


def _check_parameters(parsed: ParsedFunction, schema: dict[str, Any], where: str) -> None:
    taken = {param.name for param in parsed.parameters}
    properties = schema.get("properties", {})
    unknown = sorted(set(properties) - taken)
    if unknown:
        raise ToolDefinitionError(
            f"{where} has properties the function does not take: {', '.join(unknown)} "
            f"(its parameters: {', '.join(sorted(taken)) or 'none'})"
        )
    required = set(parsed.input_schema.get("required", []))
    missing = sorted(required - set(schema.get("required", [])))
    if missing:
        raise ToolDefinitionError(
            f"{where} must list the function's required parameters in its top-level 'required': {', '.join(missing)}"
        )
