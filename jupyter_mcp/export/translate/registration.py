"""The code that registers a component on the exported ``server``: ``@server.tool(...)``, ``server.add_tool(fn, ...)``.

One place writes these for every kind, so resources (``server.resource``) and prompts
(``server.prompt``) reuse it when their magics are translated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jupyter_mcp.export.translate.literals import keywords, literal

SERVER = "server"
"""The exported module's ``ToolServer``; the notebook's ``jupyter_mcp.get_server()`` becomes this name."""

MAIN_THREAD_NOTE = "--main-thread dropped: a server has no cells to wait for, so the tool runs on a worker thread"
CONFIRM_NOTE = (
    "--confirm dropped: a server has no notebook user to allow its calls, so they run unasked "
    "(as under jupyter-mcp serve --no-confirm)"
)


def decorator(kind: str, options: Mapping[str, Any], *args: Any) -> str:
    """``@server.tool`` bare, or with its positional ``args`` and keyword ``options``."""
    given = ", ".join([*(literal(a) for a in args), *([keywords(options)] if options else [])])
    return f"@{SERVER}.{kind}({given})" if given else f"@{SERVER}.{kind}"


def add_call(kind: str, target: str, options: Mapping[str, Any]) -> str:
    """``server.add_tool(fn, name="x")``: register an existing object."""
    rest = f", {keywords(options)}" if options else ""
    return f"{SERVER}.add_{kind}({target}{rest})"


def exported_tool_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The options as the exported server takes them, and a note on any dropped (``run_on="main"``, ``confirm``)."""
    kept = {key: value for key, value in options.items() if key not in ("run_on", "confirm")}
    notes = [MAIN_THREAD_NOTE] if options.get("run_on") == "main" else []
    notes += [CONFIRM_NOTE] if options.get("confirm") else []
    return kept, "; ".join(notes) or None
