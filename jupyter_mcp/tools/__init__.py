"""The tool layer: plain Python functions become MCP tools, resources and prompts.

No IPython, no Jupyter server. Example::

    from jupyter_mcp.tools import ToolServer, run

    server = ToolServer("demo")

    @server.tool
    def add(a: int, b: int) -> int:
        '''Adds two integer numbers together.'''
        return a + b

    @server.resource("data://greeting")
    def greeting() -> str:
        return "Hello"

    @server.prompt
    def review(topic: str) -> str:
        '''Ask for a review.'''
        return f"Please review {topic}."

    if __name__ == "__main__":
        run(server)  # stdio; --transport http [--host H] [--port P] [--token T]
"""

from jupyter_mcp.tools.calls.context import Context
from jupyter_mcp.tools.calls.history import CallHistory, CallRecord
from jupyter_mcp.tools.components.options import PromptOptions, ResourceOptions, ToolOptions
from jupyter_mcp.tools.components.prompts import Message, Prompt
from jupyter_mcp.tools.components.resources import Resource, ResourceTemplate
from jupyter_mcp.tools.components.returns import Audio, File, Image, ToolResult
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.errors import PromptError, ResourceError, ToolDefinitionError, ToolError
from jupyter_mcp.tools.runner import run
from jupyter_mcp.tools.server import ToolServer
from jupyter_mcp.tools.settings import ServerSettings

__all__ = [
    "Audio",
    "CallHistory",
    "CallRecord",
    "Context",
    "File",
    "Image",
    "Message",
    "Prompt",
    "PromptError",
    "PromptOptions",
    "Resource",
    "ResourceError",
    "ResourceOptions",
    "ResourceTemplate",
    "ServerSettings",
    "Tool",
    "ToolDefinitionError",
    "ToolError",
    "ToolOptions",
    "ToolResult",
    "ToolServer",
    "run",
]
