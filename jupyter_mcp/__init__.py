"""jupyter_mcp: a Jupyter notebook as a live MCP server of tools, resources and prompts.

``%load_ext jupyter_mcp`` registers the ``%%mcp_tool``, ``%%mcp_resource``, ``%%mcp_prompt`` and
``%mcp`` magics. Heavy modules (IPython, ipywidgets, jupyter_server) are imported only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jupyter_mcp._version import __version__

if TYPE_CHECKING:
    from jupyter_mcp.kernel.server import NotebookServer
    from jupyter_mcp.tools import (
        Audio,
        Context,
        File,
        Image,
        Message,
        PromptError,
        ResourceError,
        ToolError,
        ToolResult,
    )

__all__ = [
    "Audio",
    "Context",
    "File",
    "Image",
    "Message",
    "PromptError",
    "ResourceError",
    "ToolError",
    "ToolResult",
    "__version__",
    "get_server",
    "load_ipython_extension",
    "prompt",
    "resource",
    "tool",
    "unload_ipython_extension",
]

_TOOL_NAMES = {
    "Audio",
    "Context",
    "File",
    "Image",
    "Message",
    "PromptError",
    "ResourceError",
    "ToolError",
    "ToolResult",
}


def get_server() -> NotebookServer:
    """This kernel's ``NotebookServer`` (one per process), created on first use."""
    from jupyter_mcp.kernel.server import get_server as _get_server

    return _get_server()


def tool(*args: Any, **kwargs: Any) -> Any:
    """Shorthand for ``get_server().tool``: ``@jupyter_mcp.tool`` or ``@jupyter_mcp.tool(name=...)``."""
    return get_server().tool(*args, **kwargs)


def resource(uri: str, **kwargs: Any) -> Any:
    """Shorthand for ``get_server().resource``: ``@jupyter_mcp.resource("data://x", mime_type=...)``."""
    return get_server().resource(uri, **kwargs)


def prompt(*args: Any, **kwargs: Any) -> Any:
    """Shorthand for ``get_server().prompt``: ``@jupyter_mcp.prompt`` or ``@jupyter_mcp.prompt(name=...)``."""
    return get_server().prompt(*args, **kwargs)


def load_ipython_extension(ipython: Any) -> None:
    from jupyter_mcp.kernel.magics import load_extension

    load_extension(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    from jupyter_mcp.kernel.magics import unload_extension

    unload_extension(ipython)


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    return [{"module": "jupyter_mcp.serverext", "app": _server_app()}]


def _server_app() -> Any:
    from jupyter_mcp.serverext.app import MCPExtensionApp

    return MCPExtensionApp


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    return [{"src": "labextension", "dest": "jupyter-mcp"}]


def __getattr__(name: str) -> Any:
    if name in _TOOL_NAMES:
        from jupyter_mcp import tools

        return getattr(tools, name)
    raise AttributeError(f"module 'jupyter_mcp' has no attribute {name!r}")
