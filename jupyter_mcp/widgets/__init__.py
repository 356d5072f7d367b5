"""Notebook views of a ``ServerHost``: tool, resource and prompt cards, and the server panel.

Python sends data, never HTML: each view is an anywidget whose synced traits are the shapes in
``shapes.py``, drawn in the browser by the component set in ``labextension/src/ui`` (bundled into
``static/widgets.js``). Views observe the registries and the call history and refresh at most 10
times a second; the server never depends on them.
"""

from __future__ import annotations

from jupyter_mcp.widgets.card import PromptCard, ResourceCard, ToolCard
from jupyter_mcp.widgets.panel import ServerPanel
from jupyter_mcp.widgets.tryit import TryIt, TryTarget

__all__ = ["PromptCard", "ResourceCard", "ServerPanel", "ToolCard", "TryIt", "TryTarget"]
