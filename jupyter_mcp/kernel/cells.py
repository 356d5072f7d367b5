"""What the MCP cell magics share: reading their options, finding the cell's function, and remembering
which component each cell registered (so a re-run cell that now registers another name replaces it).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from typing import Any

from IPython.core.error import UsageError

from jupyter_mcp.kernel.cellfunc import SignatureError, build_function, defined_functions, pick_function
from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools.components.base import Kind


def parse(magic: Any, text: str) -> Any:
    """Parse magic options with shell quoting (IPython's parse_argstring keeps the quotes)."""
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"cannot parse the options: {exc}") from None
    return magic.parser.parse_args(argv)


def run_and_pick(shell: Any, cell: str, name: str | None, magic: str) -> Callable[..., Any] | None:
    """Run the cell, then the function it defined: ``name``, or its only public one (``None`` if it raised)."""
    result = shell.run_cell(cell, store_history=False)
    if not result.success:
        return None
    defined = defined_functions(shell.transform_cell(cell))
    if name is None:  # a named function may also be any callable the cell left in the namespace
        try:
            name = pick_function(defined, None, magic)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    function = shell.user_ns.get(name)
    if not callable(function):
        raise UsageError(f"{name!r} is not a function defined by this cell (defined: {', '.join(defined) or 'none'})")
    return function  # type: ignore[no-any-return]


def cell_function(shell: Any, signature: str, cell: str, *, bind: bool = True) -> Callable[..., Any]:
    """The cell's body as the function ``signature`` (its last expression returned).

    With ``bind=False`` the function is not put in the user's namespace (it still reads it).
    """
    source = shell.transform_cell(cell)
    filename = shell.compile.cache(source, shell.execution_count)
    try:
        return build_function(signature, source, shell.user_ns, filename, bind=bind)
    except SignatureError as exc:
        raise UsageError(str(exc)) from None


def defines_functions(shell: Any, cell: str) -> bool:
    return bool(defined_functions(shell.transform_cell(cell)))


def identifier_from(text: str, fallback: str) -> str:
    """A Python identifier from a URI's last plain segment (``data://cities/{c}`` -> ``cities``)."""
    plain = re.sub(r"\{[^}]*\}", " ", text.split("://", 1)[-1])
    words = [w for w in re.split(r"[^A-Za-z0-9_]+", plain) if w]
    name = words[-1] if words else fallback
    return f"_{name}" if name[0].isdigit() else name


class CellComponents:
    """Which component (kind and key) each cell registered last, by the front end's cell id."""

    def __init__(self) -> None:
        self._by_cell: dict[str, tuple[Kind, str]] = {}

    def registered(self, shell: Any, server: NotebookServer, kind: Kind, key: str) -> None:
        """Note that this cell now serves ``key``; what it served before under another key goes away."""
        cell_id = _current_cell_id(shell)
        if cell_id is None:
            return
        previous = self._by_cell.get(cell_id)
        self._by_cell[cell_id] = (kind, key)
        if previous is None or previous == (kind, key):
            return
        old_kind, old_key = previous
        registry = server.registry_of(old_kind)
        if old_key in registry:
            registry.remove(old_key)


def _current_cell_id(shell: Any) -> str | None:
    try:
        parent = shell.kernel.get_parent("shell")
    except (AttributeError, TypeError):
        return None
    metadata = parent.get("metadata", {}) if isinstance(parent, dict) else {}
    cell_id = metadata.get("cellId")
    return str(cell_id) if cell_id else None
