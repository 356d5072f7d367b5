"""What the magics display: a tool card and the server status.

Rich output is an ipywidgets view (``jupyter_mcp.widgets``); every view also has a text/HTML
fallback for nbconvert, GitHub previews and front ends without widgets.
"""

from __future__ import annotations

import html
from typing import Any

from jupyter_mcp.kernel.server import NotebookServer
from jupyter_mcp.tools.tool import Tool


def tool_card(server: NotebookServer, tool: Tool) -> Any:
    """The output of a ``%%mcp_tool`` cell."""
    return ToolSummary(server, tool)


class ToolSummary:
    """One line saying the tool is live, with the server URL."""

    def __init__(self, server: NotebookServer, tool: Tool) -> None:
        self.server = server
        self.tool = tool

    def _status(self) -> str:
        current = self.server.tools.get(self.tool.name)
        if current is not self.tool:
            return "replaced by a newer cell run" if current is not None else "removed"
        return "live" if self.server.registry.is_visible(self.tool) else "disabled"

    def __repr__(self) -> str:
        params = ", ".join(self.tool.input_schema.get("properties", {}))
        return f"MCP tool '{self.tool.name}({params})' {self._status()} at {self.server.url}"

    def _repr_html_(self) -> str:
        params = ", ".join(html.escape(p) for p in self.tool.input_schema.get("properties", {}))
        description = html.escape((self.tool.description or "").splitlines()[0] if self.tool.description else "")
        return (
            f"<div class='jupyter-mcp-tool'><b>MCP tool</b> <code>{html.escape(self.tool.name)}({params})</code> "
            f"<i>{self._status()}</i> at <code>{html.escape(self.server.url or '')}</code>"
            f"<br><small>{description}</small></div>"
        )


class ServerStatus:
    """``%mcp``: where the server is, what it serves, who is connected."""

    def __init__(self, server: NotebookServer) -> None:
        self.server = server

    def __repr__(self) -> str:
        server = self.server
        lines = [f"MCP server: {server.url or 'not running'}"]
        lines.append(f"tools: {', '.join(server.tools) or 'none'}")
        clients = server.connected_clients()
        lines.append(f"clients: {', '.join(f'{c.name} {c.version}' for c in clients) or 'none'}")
        lines.append(f"calls: {server.history.total_calls}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return "<pre class='jupyter-mcp-status'>" + html.escape(repr(self)) + "</pre>"
