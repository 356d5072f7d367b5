"""ipywidgets 8 views of a ``ServerHost``: tool, resource and prompt cards, and the server panel.

Views only: they observe the registries and the call history, keep what they show in traitlets,
and refresh at most 10 times a second. The server never depends on them.
"""

from __future__ import annotations

from jupyter_mcp.widgets.card import ToolCard
from jupyter_mcp.widgets.history import HistoryView
from jupyter_mcp.widgets.panel import ServerPanel
from jupyter_mcp.widgets.prompt_card import PromptCard
from jupyter_mcp.widgets.resource_card import ResourceCard
from jupyter_mcp.widgets.tryit import TryItForm, TryTarget

__all__ = ["HistoryView", "PromptCard", "ResourceCard", "ServerPanel", "ToolCard", "TryItForm", "TryTarget"]
