"""Plain-text formatting shared by the panels and their text fallbacks: durations, times, arguments."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from jupyter_mcp.tools.calls import events

STATUS_ICONS = {
    "running": "⏳",
    "waiting": "✋",
    "ok": "✓",
    "error": "✗",
    "timeout": "⏱",
    "cancelled": "⊘",
    "expired": "⌛",
}


def format_duration(seconds: float | None) -> str:
    """``0.0031`` -> ``"3.1 ms"``; ``None`` (still running) -> ``"…"``."""
    if seconds is None:
        return "…"
    if seconds < 0.001:
        return f"{seconds * 1000:.2f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest} s"


def format_clock(timestamp: float) -> str:
    """Local wall-clock time of day, ``HH:MM:SS``."""
    return time.strftime("%H:%M:%S", time.localtime(timestamp))


def short_arguments(arguments: Mapping[str, Any], limit: int = 60) -> str:
    """``a=1, text='hi'``, cut to ``limit`` characters with an ellipsis."""
    text = ", ".join(f"{name}={_short_value(value)}" for name, value in arguments.items())
    return clip(text, limit)


def _short_value(value: Any) -> str:
    if isinstance(value, dict | list):
        return clip(json.dumps(value, ensure_ascii=False, default=str), 24)
    return clip(repr(value), 24)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in ``…`` when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def first_line(text: str | None) -> str:
    return text.strip().splitlines()[0] if text and text.strip() else ""


def era_of(protocol_version: str | None) -> str:
    """The protocol era (see ``jupyter_mcp.tools.calls.events.era_of``), or ``""`` when unknown."""
    return events.era_of(protocol_version) if protocol_version else ""


def format_count(value: int, noun: str) -> str:
    """``1 call``, ``3 calls``, ``1,200 calls``."""
    return f"{value:,} {noun}{'' if value == 1 else 's'}"
