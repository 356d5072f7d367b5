"""How a call is written for people, the same way everywhere: ``find_items(query='t', limit=5)``.

Cards, the history panel, ``%mcp history``, an approval request in the notebook, the JupyterLab
sidebar and its notification all write calls with these functions (arguments as Python would write
them, since the tool is a Python function), so a call reads the same wherever it is shown.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

ARGUMENTS_LIMIT = 60
"""Characters of arguments a one-line row shows."""
VALUE_LIMIT = 24
"""Characters of one argument's value in such a row."""


def short_arguments(arguments: Mapping[str, Any], limit: int = ARGUMENTS_LIMIT) -> str:
    """``a=1, text='hi'``, cut to ``limit`` characters with an ellipsis."""
    text = ", ".join(f"{name}={_short_value(value)}" for name, value in arguments.items())
    return clip(text, limit)


def call_text(tool: str, arguments: Mapping[str, Any], limit: int = ARGUMENTS_LIMIT) -> str:
    """``reset_sales(region='north')``."""
    return f"{tool}({short_arguments(arguments, limit)})"


def _short_value(value: Any) -> str:
    if isinstance(value, dict | list):
        return clip(json.dumps(value, ensure_ascii=False, default=str), VALUE_LIMIT)
    return clip(repr(value), VALUE_LIMIT)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in ``…`` when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
