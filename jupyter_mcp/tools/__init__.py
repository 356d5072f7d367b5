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

from jupyter_mcp.tools.calls.context import CallScope, Context
from jupyter_mcp.tools.calls.events import (
    BaseCallObserver,
    CallFinished,
    CallObserver,
    CallStarted,
    ClientInfo,
    LateResult,
    LogEvent,
    ProgressEvent,
)
from jupyter_mcp.tools.calls.executors import Executor, WorkerExecutor
from jupyter_mcp.tools.calls.history import CallHistory, CallRecord
from jupyter_mcp.tools.calls.path import CallPath, ExecutionHook
from jupyter_mcp.tools.components.content import Audio, File, Image, ToolResult
from jupyter_mcp.tools.components.options import CommonOptions, PromptOptions, ResourceOptions, ToolOptions
from jupyter_mcp.tools.components.prompts import Message, Prompt, PromptRegistry
from jupyter_mcp.tools.components.registry import DuplicateToolError, Registry, RegistryChange, ToolRegistry
from jupyter_mcp.tools.components.resources import Resource, ResourceRegistry, ResourceTemplate, resource_from_function
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.errors import PromptError, ResourceError, ToolDefinitionError, ToolError
from jupyter_mcp.tools.protocol.sessions import ConnectedClient
from jupyter_mcp.tools.runner import run
from jupyter_mcp.tools.server import ToolServer

__all__ = [
    "Audio",
    "BaseCallObserver",
    "CallFinished",
    "CallHistory",
    "CallObserver",
    "CallPath",
    "CallRecord",
    "CallScope",
    "CallStarted",
    "ClientInfo",
    "CommonOptions",
    "ConnectedClient",
    "Context",
    "DuplicateToolError",
    "ExecutionHook",
    "Executor",
    "File",
    "Image",
    "LateResult",
    "LogEvent",
    "Message",
    "ProgressEvent",
    "Prompt",
    "PromptError",
    "PromptOptions",
    "PromptRegistry",
    "Registry",
    "RegistryChange",
    "Resource",
    "ResourceError",
    "ResourceOptions",
    "ResourceRegistry",
    "ResourceTemplate",
    "Tool",
    "ToolDefinitionError",
    "ToolError",
    "ToolOptions",
    "ToolRegistry",
    "ToolResult",
    "ToolServer",
    "WorkerExecutor",
    "resource_from_function",
    "run",
]
