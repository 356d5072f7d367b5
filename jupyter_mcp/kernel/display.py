"""What a cell shows for a tool: its card, as a magic's output or as a displayed ``Tool``.

Every view also carries a text/HTML snapshot (``_repr_mimebundle_``) for nbconvert, GitHub
previews and front ends without widgets. The server panel has one way in: ``server.panel()``.
"""

from __future__ import annotations

from typing import Any

from jupyter_mcp.kernel.server import NotebookServer, get_server
from jupyter_mcp.tools.tool import Tool
from jupyter_mcp.widgets import ToolCard


def tool_card(server: NotebookServer, tool: Tool) -> ToolCard:
    """The output of a ``%%mcp_tool`` cell (and of a ``Tool`` displayed in a cell)."""
    install_formatter()
    return ToolCard(server, tool)


def install_formatter(shell: Any = None) -> None:
    """Show ``server.tools["x"]`` (a ``Tool``) as its card in this IPython shell; idempotent."""
    if shell is None:
        from IPython import get_ipython

        shell = get_ipython()
    if shell is None:
        return
    formatter = shell.display_formatter.mimebundle_formatter
    formatter.for_type(Tool, _tool_bundle)


def _tool_bundle(tool: Tool, include: Any = None, exclude: Any = None) -> dict[str, Any]:
    bundle: dict[str, Any] = ToolCard(get_server(), tool)._repr_mimebundle_(include=include, exclude=exclude)
    return bundle
