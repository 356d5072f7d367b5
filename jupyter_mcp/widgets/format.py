"""Plain-text formatting shared by the panels and their text fallbacks: durations, times, arguments."""

from __future__ import annotations

import time

from jupyter_mcp.tools.calls import events

STATUS_ICONS = {
    "running": "⏳",
    "waiting": "◔",
    "ok": "✓",
    "error": "✗",
    "timeout": "⏱",
    "cancelled": "⊘",
    "expired": "⌛",
    "refused": "⊘",
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


def first_line(text: str | None) -> str:
    return text.strip().splitlines()[0] if text and text.strip() else ""


def era_of(protocol_version: str | None) -> str:
    """The protocol era (see ``jupyter_mcp.tools.calls.events.era_of``), or ``""`` when unknown."""
    return events.era_of(protocol_version) if protocol_version else ""


def format_count(value: int, noun: str) -> str:
    """``1 call``, ``3 calls``, ``1,200 calls``."""
    return f"{value:,} {noun}{'' if value == 1 else 's'}"
