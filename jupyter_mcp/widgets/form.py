"""The try-it form's logic, without widgets: which input each parameter gets, and reading it back.

``field_specs(input_schema)`` maps each property to a ``FieldSpec``: ``text``, ``integer``,
``number``, ``checkbox``, ``dropdown`` (enums and ``Literal``), or ``json`` (objects, arrays,
unions — a JSON textarea). ``parse_field(spec, raw)`` turns what the user typed into an argument.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from jupyter_mcp.widgets.schema_text import Schema, constraints, non_null, type_label

FieldKind = Literal["text", "integer", "number", "checkbox", "dropdown", "json"]
ParseAs = Literal["value", "str", "int", "float", "json"]


class _Omit:
    def __repr__(self) -> str:
        return "OMIT"


OMIT: Any = _Omit()
"""``parse_field`` result for an optional field left empty: the argument is not sent (its default applies)."""


class FieldError(ValueError):
    """What the user typed cannot become this parameter's value; the message says why."""


@dataclass(frozen=True)
class FieldSpec:
    """One form input: its kind, how it starts, what choices it offers, how to read it back."""

    name: str
    kind: FieldKind
    parse_as: ParseAs
    """``value``: the input already holds the argument; else the text is read as str/int/float/JSON."""
    type_label: str
    required: bool
    nullable: bool = False
    initial: Any = None
    """The starting value in the input's own terms (text for text and JSON inputs)."""
    default: Any = OMIT
    """The schema's default; a field still holding it is not sent, so the tool's own default applies."""
    choices: tuple[tuple[str, Any], ...] = field(default=())
    """``(label, value)`` pairs for a dropdown; ``value`` may be ``OMIT``."""
    description: str = ""
    hint: str = ""


def field_specs(input_schema: Schema) -> list[FieldSpec]:
    """One ``FieldSpec`` per parameter, in declaration order."""
    required = set(input_schema.get("required", ()))
    properties: Mapping[str, Schema] = input_schema.get("properties", {})
    return [field_spec(name, schema, name in required) for name, schema in properties.items()]


def field_spec(name: str, schema: Schema, required: bool) -> FieldSpec:
    """The input for one parameter (``schema`` is its property schema, dereferenced)."""
    inner, nullable = non_null(schema)
    kind, parse_as = _kind(inner, nullable)
    return FieldSpec(
        name=name,
        kind=kind,
        parse_as=parse_as,
        type_label=type_label(schema),
        required=required,
        nullable=nullable,
        initial=_initial(kind, schema),
        default=schema.get("default", OMIT),
        choices=_choices(inner, schema, required, nullable) if kind == "dropdown" else (),
        description=str(schema.get("description", "")),
        hint=", ".join(constraints(schema)),
    )


def _kind(schema: Schema, nullable: bool) -> tuple[FieldKind, ParseAs]:
    kind = schema.get("type")
    if "enum" in schema or "const" in schema or (kind == "boolean" and nullable):
        return "dropdown", "value"
    if kind == "boolean":
        return "checkbox", "value"
    if kind in ("integer", "number"):
        parse_as: ParseAs = "int" if kind == "integer" else "float"
        # A number box cannot be empty, and empty is how a form says None.
        return ("text", parse_as) if nullable else (kind, "value")
    if kind == "string":
        return "text", "str"
    return "json", "json"


def _choices(inner: Schema, schema: Schema, required: bool, nullable: bool) -> tuple[tuple[str, Any], ...]:
    values = list(inner.get("enum", [inner["const"]] if "const" in inner else [True, False]))
    choices = [(repr(value), value) for value in values]
    if nullable:
        choices.append(("None", None))
    if not required and "default" not in schema:
        choices.insert(0, ("(not set)", OMIT))
    return tuple(choices)


def _initial(kind: FieldKind, schema: Schema) -> Any:
    has_default = "default" in schema
    default = schema.get("default")
    if kind == "dropdown":
        return default if has_default else OMIT
    if kind == "checkbox":
        return bool(default)
    if kind in ("integer", "number"):
        return default if default is not None else 0
    if kind == "json":
        return "" if default is None else json.dumps(default, ensure_ascii=False)
    return "" if default is None else str(default)


def parse_field(spec: FieldSpec, raw: Any) -> Any:
    """The argument value for ``raw`` (what the input holds); ``OMIT`` to leave it out.

    Raises ``FieldError`` when ``raw`` cannot be read (bad JSON, not a number, missing).
    """
    if spec.parse_as == "value":
        return raw
    text = str(raw).strip()
    if not text:
        return _empty(spec)
    if spec.parse_as == "json":
        return _parse_json(text)
    if spec.parse_as in ("int", "float"):
        return _parse_number(text, integer=spec.parse_as == "int")
    return str(raw)


def _empty(spec: FieldSpec) -> Any:
    if not spec.required:
        return OMIT
    if spec.nullable:
        return None
    if spec.parse_as == "str":
        return ""
    raise FieldError("required")


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FieldError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None


def _parse_number(text: str, *, integer: bool) -> float | int:
    try:
        return int(text) if integer else float(text)
    except ValueError:
        raise FieldError(f"not {'an integer' if integer else 'a number'}: {text!r}") from None


def collect(specs: list[FieldSpec], raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Arguments from every field, and the fields that could not be read with why."""
    arguments: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for spec in specs:
        try:
            value = parse_field(spec, raw[spec.name])
        except FieldError as exc:
            errors[spec.name] = str(exc)
            continue
        if value is not OMIT and not _is_default(spec, value):
            arguments[spec.name] = value
    return arguments, errors


def _is_default(spec: FieldSpec, value: Any) -> bool:
    # ``1 == True`` in Python; a default only matches a value of the same type.
    return spec.default is not OMIT and type(value) is type(spec.default) and value == spec.default
