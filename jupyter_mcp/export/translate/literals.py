"""Python literals for generated code: JSON-like values written the way a person would (double quotes, sets sorted)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

WIDTH = 100


def literal(value: Any, indent: int = 0) -> str:
    """``value`` as Python source, on one line when it fits in ``WIDTH`` after ``indent``, else one item a line."""
    flat = _flat(value)
    if indent + len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    inner = " " * (indent + 4)
    if isinstance(value, dict):
        items = [f"{inner}{_flat(k)}: {literal(v, indent + 4)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{inner}{literal(v, indent + 4)}," for v in value]
    return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"


def _flat(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_flat(k)}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(_flat(v) for v in sorted(value)) + "}" if value else "set()"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flat(v) for v in value) + "]"
    raise TypeError(f"no literal for {type(value).__name__}")


def keywords(options: Mapping[str, Any]) -> str:
    """``name="x", tags={"a"}`` for a call's keyword arguments."""
    return ", ".join(f"{key}={literal(value)}" for key, value in options.items())
