"""The tool layer: plain Python functions become MCP tools. No IPython, no Jupyter server.

Example::

    from jupyter_mcp.tools import ToolServer, run

    server = ToolServer("demo")

    @server.tool
    def add(a: int, b: int) -> int:
        '''Adds two integer numbers together.'''
        return a + b

    if __name__ == "__main__":
        run(server)  # stdio; --transport http [--host H] [--port P] [--token T]
"""

from jupyter_mcp.tools.calls import CallPath, ExecutionHook
from jupyter_mcp.tools.content import Audio, File, Image, ToolResult
from jupyter_mcp.tools.context import CallScope, Context
from jupyter_mcp.tools.errors import ToolDefinitionError, ToolError
from jupyter_mcp.tools.events import (
    BaseCallObserver,
    CallFinished,
    CallObserver,
    CallStarted,
    ClientInfo,
    LateResult,
    LogEvent,
    ProgressEvent,
)
from jupyter_mcp.tools.executors import Executor, WorkerExecutor
from jupyter_mcp.tools.history import CallHistory, CallRecord
from jupyter_mcp.tools.options import CommonOptions, ToolOptions
from jupyter_mcp.tools.registry import DuplicateToolError, RegistryChange, ToolRegistry
from jupyter_mcp.tools.runner import run
from jupyter_mcp.tools.server import ToolServer
from jupyter_mcp.tools.sessions import ConnectedClient
from jupyter_mcp.tools.tool import Tool

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
    "ProgressEvent",
    "RegistryChange",
    "Tool",
    "ToolDefinitionError",
    "ToolError",
    "ToolOptions",
    "ToolRegistry",
    "ToolResult",
    "ToolServer",
    "WorkerExecutor",
    "run",
]
