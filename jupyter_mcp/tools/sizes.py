"""Byte sizes as users write them (``500000``, ``"500kB"``, ``"2MB"``): the result budget's setting."""

from __future__ import annotations

import re
from typing import Any

from jupyter_mcp.tools.errors import ToolDefinitionError

DEFAULT_RESULT_BUDGET = 500_000
"""Bytes of a result's JSON: half the SDK clients' 1 MiB event limit, leaving room for the envelope."""
MIN_RESULT_BUDGET = 4_096
"""Below this a preview and its link no longer fit."""

BudgetOption = int | str | None
"""``500_000``, ``"500kB"``, ``"2MB"``, ``"1MiB"``; ``None`` (per tool) follows the server."""

_UNITS = {"": 1, "b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3, "kib": 1024, "mib": 1024**2, "gib": 1024**3}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$", re.IGNORECASE)


def parse_budget(value: BudgetOption, where: str) -> int | None:
    """``value`` as a number of bytes (``None`` stays ``None``); ``ToolDefinitionError`` in one sentence."""
    if value is None:
        return None
    size = parse_size(value)
    if size is None or size < MIN_RESULT_BUDGET:
        raise ToolDefinitionError(
            f"{where}: result_budget must be a size of at least {MIN_RESULT_BUDGET:,} bytes "
            f"(like 500000, '500kB' or '2MB'), got {value!r}"
        )
    return size


def parse_size(value: Any) -> int | None:
    """``value`` (``500000``, ``"500kB"``, ``"2MB"``, ``"1MiB"``) as a number of bytes; ``None`` if it is no size."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, str):
        return None
    match = _SIZE.match(value)
    if match is None or match.group(2).lower() not in _UNITS:
        return None
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])
