"""What every served component shares: its kind, and the marker of parameters the server fills in."""

from __future__ import annotations

from typing import Literal

Kind = Literal["tool", "resource", "prompt"]
"""The three kinds of component a server holds; history records and registry changes say which."""


class Injected:
    """Base of the parameter types the server fills in for a call (``Context``); never in a schema."""
