"""JSON schema transforms: inline ``$ref``s for clients that cannot follow them, drop noise titles."""

from __future__ import annotations

import copy
from typing import Any

_DEFS_PREFIX = "#/$defs/"


def dereference(schema: dict[str, Any]) -> dict[str, Any]:
    """Return ``schema`` with every ``$ref`` into ``$defs`` inlined.

    Recursive definitions cannot be inlined; their ``$ref``s stay and ``$defs`` keeps just
    those entries. The input is not modified.
    """
    defs: dict[str, Any] = schema.get("$defs", {})
    if not defs:
        return schema
    kept: set[str] = set()
    body = {k: v for k, v in schema.items() if k != "$defs"}
    result: dict[str, Any] = _inline(body, defs, (), kept)
    if kept:
        result["$defs"] = {name: _inline(defs[name], defs, (name,), kept) for name in sorted(kept)}
    return result


def _inline(node: Any, defs: dict[str, Any], stack: tuple[str, ...], kept: set[str]) -> Any:
    if isinstance(node, list):
        return [_inline(item, defs, stack, kept) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEFS_PREFIX):
        name = ref.removeprefix(_DEFS_PREFIX)
        if name in stack or name not in defs:
            kept.add(name)
            return dict(node)
        target = _inline(copy.deepcopy(defs[name]), defs, (*stack, name), kept)
        siblings = {k: _inline(v, defs, stack, kept) for k, v in node.items() if k != "$ref"}
        return {**target, **siblings}
    return {k: _inline(v, defs, stack, kept) for k, v in node.items()}


def prune_auto_titles(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop the titles pydantic invents for the arguments model and its properties.

    A title the user wrote (``Field(title=...)``) differs from the generated one and stays.
    """
    result = {k: v for k, v in schema.items() if k != "title"}
    properties = result.get("properties")
    if isinstance(properties, dict):
        result["properties"] = {name: _prune_title(name, prop) for name, prop in properties.items()}
    return result


def _prune_title(name: str, prop: Any) -> Any:
    if isinstance(prop, dict) and prop.get("title") == name.replace("_", " ").title():
        return {k: v for k, v in prop.items() if k != "title"}
    return prop
