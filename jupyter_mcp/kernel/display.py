"""What a cell shows for a tool, resource or prompt: its card, as a magic's output or when displayed.

Every view also carries a text/HTML snapshot (``_repr_mimebundle_``) for nbconvert, GitHub
previews and front ends without widgets. The server panel has one way in: ``server.panel()``.
"""

from __future__ import annotations

from typing import Any

from jupyter_mcp.kernel.server import NotebookServer, get_server
from jupyter_mcp.tools.components.prompts import Prompt
from jupyter_mcp.tools.components.resources import Resource, ResourceTemplate
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.widgets import PromptCard, ResourceCard, ToolCard

Card = ToolCard | ResourceCard | PromptCard


def card(server: NotebookServer, component: Tool | Resource | ResourceTemplate | Prompt) -> Card:
    """The output of a ``%%mcp_tool``, ``%%mcp_resource`` or ``%%mcp_prompt`` cell (and of one displayed)."""
    install_formatter()
    if isinstance(component, Tool):
        return ToolCard(server, component)
    if isinstance(component, Prompt):
        return PromptCard(server, component)
    return ResourceCard(server, component)


def install_formatter(shell: Any = None) -> None:
    """Show ``server.tools["x"]`` (and resources, prompts) as their cards in this IPython shell; idempotent."""
    if shell is None:
        from IPython import get_ipython

        shell = get_ipython()
    if shell is None:
        return
    formatter = shell.display_formatter.mimebundle_formatter
    for kind in (Tool, Resource, ResourceTemplate, Prompt):
        formatter.for_type(kind, _bundle)


def _bundle(component: Any, include: Any = None, exclude: Any = None) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
    return card(get_server(), component)._repr_mimebundle_(include=include, exclude=exclude)
