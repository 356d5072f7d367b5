"""JSON schemas read back as Python: ``list[int]``, ``Literal['a', 'b']``, ``≥ 0``, parameter rows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from jupyter_mcp.tools.components.function import WRAP_RESULT_KEY

Schema = Mapping[str, Any]

_PRIMITIVES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
_FORMATS = {
    "date-time": "datetime",
    "date": "date",
    "time": "time",
    "duration": "timedelta",
    "uuid": "UUID",
    "binary": "bytes",
    "path": "Path",
}
_BOUNDS = (
    ("minimum", "≥ {}"),
    ("exclusiveMinimum", "> {}"),
    ("maximum", "≤ {}"),
    ("exclusiveMaximum", "< {}"),
    ("minLength", "length ≥ {}"),
    ("maxLength", "length ≤ {}"),
    ("minItems", "items ≥ {}"),
    ("maxItems", "items ≤ {}"),
    ("multipleOf", "multiple of {}"),
)


class ParameterRow(TypedDict):
    """One row of a tool card's input table."""

    name: str
    type: str
    required: bool
    default: str
    """The default as Python would write it; ``""`` when there is none."""
    constraints: list[str]
    description: str


def type_label(schema: Schema) -> str:
    """A readable Python-style type for ``schema``: ``list[int]``, ``str | None``, ``Literal['a']``."""
    if "enum" in schema:
        return str(schema["title"]) if "title" in schema else _literal(schema["enum"])
    if "const" in schema:
        return _literal([schema["const"]])
    union = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(union, list):
        return _union([type_label(option) for option in union])
    kind = schema.get("type")
    if isinstance(kind, list):
        return _union([type_label({**schema, "type": k}) for k in kind])
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    return _typed_label(kind, schema)


def _typed_label(kind: Any, schema: Schema) -> str:
    if kind == "array":
        return _array_label(schema)
    if kind == "object":
        return _object_label(schema)
    if kind == "string" and schema.get("format") in _FORMATS:
        return _FORMATS[schema["format"]]
    return _PRIMITIVES.get(str(kind), "Any")


def _array_label(schema: Schema) -> str:
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list):
        return f"tuple[{', '.join(type_label(item) for item in prefix)}]"
    items = schema.get("items")
    container = "set" if schema.get("uniqueItems") else "list"
    return f"{container}[{type_label(items)}]" if isinstance(items, Mapping) else container


def _object_label(schema: Schema) -> str:
    if "title" in schema:
        return str(schema["title"])
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping) and not schema.get("properties"):
        return f"dict[str, {type_label(extra)}]"
    return "dict"


def _literal(values: list[Any]) -> str:
    return f"Literal[{', '.join(repr(v) for v in values)}]"


def _union(labels: list[str]) -> str:
    # ``None`` last, as people write ``str | None``.
    ordered = [label for label in labels if label != "None"] + [label for label in labels if label == "None"]
    return " | ".join(dict.fromkeys(ordered))


def non_null(schema: Schema) -> tuple[Schema, bool]:
    """The schema without its ``null`` option, and whether ``null`` was allowed."""
    union = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(union, list):
        rest = [s for s in union if s.get("type") != "null"]
        if len(rest) < len(union) and len(rest) == 1:
            return {**{k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}, **rest[0]}, True
        return schema, len(rest) < len(union)
    kind = schema.get("type")
    if isinstance(kind, list) and "null" in kind:
        others = [k for k in kind if k != "null"]
        return {**schema, "type": others[0] if len(others) == 1 else others}, True
    return schema, False


def constraints(schema: Schema) -> list[str]:
    """Validation rules in short form: ``≥ 0``, ``length ≤ 10``, ``pattern ^a+$``, ``one of …``."""
    schema = non_null(schema)[0]
    # A tuple's length is already in its type.
    skipped = {"minItems", "maxItems"} if "prefixItems" in schema else set()
    rules = [template.format(schema[key]) for key, template in _BOUNDS if key in schema and key not in skipped]
    if "pattern" in schema:
        rules.append(f"pattern {schema['pattern']}")
    if "format" in schema and schema["format"] not in _FORMATS:
        rules.append(f"format {schema['format']}")
    if "enum" in schema and "title" in schema:
        rules.append("one of " + ", ".join(repr(v) for v in schema["enum"]))
    return rules


def parameter_rows(input_schema: Schema) -> list[ParameterRow]:
    """The tool's parameters in declaration order, ready for a table."""
    required = set(input_schema.get("required", ()))
    properties: Mapping[str, Schema] = input_schema.get("properties", {})
    return [_parameter_row(name, prop, name in required) for name, prop in properties.items()]


def _parameter_row(name: str, schema: Schema, required: bool) -> ParameterRow:
    return ParameterRow(
        name=name,
        type=type_label(schema),
        required=required,
        default=repr(schema["default"]) if "default" in schema else "",
        constraints=constraints(schema),
        description=str(schema.get("description", "")),
    )


def output_summary(output_schema: Schema | None) -> str:
    """What the tool returns, in one short line (``""`` when it declares no output schema)."""
    if output_schema is None:
        return ""
    properties: Mapping[str, Schema] = output_schema.get("properties", {})
    if output_schema.get(WRAP_RESULT_KEY) and "result" in properties:
        return type_label(properties["result"])
    if "title" in output_schema or not properties:
        return type_label(output_schema)
    fields = ", ".join(f"{name}: {type_label(prop)}" for name, prop in properties.items())
    return "{" + fields + "}"
