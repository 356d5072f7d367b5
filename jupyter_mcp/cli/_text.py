"""Text for the terminal: module docstrings as ``--help`` shows them."""

from __future__ import annotations


def help_text(doc: str | None) -> str:
    """``doc`` without reST literal markup (````x```` reads as ``x`` on a terminal)."""
    return (doc or "").replace("``", "")
