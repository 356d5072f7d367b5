"""``%%mcp_tool``, ``%%mcp_resource``, ``%%mcp_prompt``, their line forms, and ``%mcp``.

Each magic parses its line, then delegates to the server (``cells.py`` holds what they share).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments

from jupyter_mcp.kernel.cellfunc import SignatureError, split_signature
from jupyter_mcp.kernel.cells import (
    CellComponents,
    cell_function,
    defines_functions,
    identifier_from,
    parse,
    run_and_pick,
)
from jupyter_mcp.kernel.commands import USAGE, run_command
from jupyter_mcp.kernel.server import NotebookServer, get_server
from jupyter_mcp.syntax.flags import PROMPT_FLAGS, RESOURCE_FLAGS, TOOL_FLAGS
from jupyter_mcp.tools.components.prompts import Prompt
from jupyter_mcp.tools.components.resource_contents import to_contents
from jupyter_mcp.tools.components.resources import AnyResource, resource_from_function, template_variables
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.errors import ResourceError, ToolDefinitionError


@magics_class
class MCPMagics(Magics):
    """The notebook's MCP magics; registered by ``%load_ext jupyter_mcp``."""

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self._cells = CellComponents()

    @property
    def ip(self) -> Any:
        """The shell (never None once the magics are registered)."""
        assert self.shell is not None
        return self.shell

    @property
    def server(self) -> NotebookServer:
        return get_server()

    # ---- %%mcp_tool and %mcp_tool fn -------------------------------------------------------------

    @magic_arguments()
    @argument("name", nargs="?", help="Which function in the cell becomes the tool (default: the only one).")
    @TOOL_FLAGS
    @cell_magic
    def mcp_tool(self, line: str, cell: str) -> Any:
        """Make the function this cell defines an MCP tool, or (with a signature) the cell itself.

        %%mcp_tool [NAME] [options]          the function NAME (or the only one) defined here
        %%mcp_tool name(a: int) -> int       the cell body is the tool; its last expression returns
        """
        function, options = self._function_cell(self.mcp_tool, line, cell, "mcp_tool")
        return None if function is None else self._register_tool(function, options)

    @magic_arguments()
    @argument("function", help="An existing function (or bound method) in the namespace.")
    @argument("--name", help="Tool name (default: the function's name).")
    @TOOL_FLAGS
    @line_magic("mcp_tool")  # type: ignore[arg-type]  # IPython types the named form oddly
    def mcp_tool_line(self, line: str) -> Any:
        """Register an existing function as a tool: %mcp_tool fn [--name N] [options]"""
        args = parse(self.mcp_tool_line, line)
        options = TOOL_FLAGS.options(args) | ({"name": args.name} if args.name else {})
        return self._register_tool(self._existing(args.function), options)

    def _register_tool(self, function: Callable[..., Any], options: dict[str, Any]) -> Any:
        try:
            tool = Tool.from_function(function, **options)
        except ToolDefinitionError as exc:
            raise UsageError(str(exc)) from None
        self._cells.registered(self.ip, self.server, "tool", tool.key)
        return self._card(self.server.add_tool(tool))

    # ---- %%mcp_prompt and %mcp_prompt fn ---------------------------------------------------------

    @magic_arguments()
    @argument("name", nargs="?", help="Which function in the cell becomes the prompt (default: the only one).")
    @PROMPT_FLAGS
    @cell_magic
    def mcp_prompt(self, line: str, cell: str) -> Any:
        """Make the function this cell defines an MCP prompt, or (with a signature) the cell itself.

        %%mcp_prompt [NAME] [options]        the function NAME (or the only one) defined here
        %%mcp_prompt name(topic: str)        the cell body is the prompt; its last expression returns
        """
        function, options = self._function_cell(self.mcp_prompt, line, cell, "mcp_prompt")
        return None if function is None else self._register_prompt(function, options)

    @magic_arguments()
    @argument("function", help="An existing function in the namespace.")
    @argument("--name", help="Prompt name (default: the function's name).")
    @PROMPT_FLAGS
    @line_magic("mcp_prompt")  # type: ignore[arg-type]
    def mcp_prompt_line(self, line: str) -> Any:
        """Register an existing function as a prompt: %mcp_prompt fn [--name N] [options]"""
        args = parse(self.mcp_prompt_line, line)
        options = PROMPT_FLAGS.options(args) | ({"name": args.name} if args.name else {})
        return self._register_prompt(self._existing(args.function), options)

    def _register_prompt(self, function: Callable[..., Any], options: dict[str, Any]) -> Any:
        try:
            prompt = Prompt.from_function(function, **options)
        except ToolDefinitionError as exc:
            raise UsageError(str(exc)) from None
        self._cells.registered(self.ip, self.server, "prompt", prompt.key)
        return self._card(self.server.add_prompt(prompt))

    # ---- %%mcp_resource and %mcp_resource VAR ----------------------------------------------------

    @magic_arguments()
    @argument("uri", help="The resource's URI; with {...} (RFC 6570) a template whose values are parameters.")
    @argument("function", nargs="?", help="Which function in the cell is read (default: the only one).")
    @RESOURCE_FLAGS
    @cell_magic
    def mcp_resource(self, line: str, cell: str) -> Any:
        """Serve what this cell's function returns (or, with no function, the cell's value) at URI.

        %%mcp_resource URI [FUNCTION] [options]   the function FUNCTION (or the only one) defined here
        %%mcp_resource URI [options]              a cell without a function: its last expression is read
        """
        args = parse(self.mcp_resource, line)
        options = RESOURCE_FLAGS.options(args)
        if args.function is None and not defines_functions(self.ip, cell):
            name = options.get("name") or identifier_from(args.uri, "resource")
            function = cell_function(self.ip, _cell_signature(name, args.uri), cell, bind=False)
        else:
            picked = run_and_pick(self.ip, cell, args.function, "mcp_resource URI")
            if picked is None:
                return None  # the cell raised: IPython already showed the traceback
            function = picked
        return self._register_resource(function, args.uri, options)

    @magic_arguments()
    @argument("variable", help="A variable (read as it is at each read) or a function in the namespace.")
    @argument("--uri", required=True, help="The resource's URI (a function may have a template).")
    @RESOURCE_FLAGS
    @line_magic("mcp_resource")  # type: ignore[arg-type]
    def mcp_resource_line(self, line: str) -> Any:
        """Serve a notebook variable (its current value at every read) or a function: %mcp_resource VAR --uri URI"""
        args = parse(self.mcp_resource_line, line)
        options = RESOURCE_FLAGS.options(args)
        value = self._existing(args.variable, callable_only=False)
        if inspect.isfunction(value) or inspect.ismethod(value):
            return self._register_resource(value, args.uri, options)
        if "mime_type" not in options:
            options["mime_type"] = to_contents(value, args.uri, None)[0].mime_type
        return self._register_resource(_variable_reader(self.ip.user_ns, args.variable), args.uri, options)

    def _register_resource(self, function: Callable[..., Any], uri: str, options: dict[str, Any]) -> Any:
        try:
            resource = resource_from_function(function, uri, **options)
        except ToolDefinitionError as exc:
            raise UsageError(str(exc)) from None
        self._cells.registered(self.ip, self.server, "resource", resource.key)
        return self._card(self.server.add_resource(resource))

    # ---- shared ----------------------------------------------------------------------------------

    def _function_cell(
        self, magic: Any, line: str, cell: str, name: str
    ) -> tuple[Callable[..., Any] | None, dict[str, Any]]:
        """The function a tool or prompt cell defines (``None`` if the cell raised), and its options."""
        try:
            signature, option_text = split_signature(line)
        except SignatureError as exc:
            raise UsageError(str(exc)) from None
        args = parse(magic, option_text)
        options = {"tool": TOOL_FLAGS, "prompt": PROMPT_FLAGS}[name.removeprefix("mcp_")].options(args)
        if signature is None:
            return run_and_pick(self.ip, cell, args.name, name), options
        if args.name:
            raise UsageError("give either a signature or NAME, not both")
        return cell_function(self.ip, signature, cell), options

    def _existing(self, expression: str, *, callable_only: bool = True) -> Any:
        try:
            value = self.ip.ev(expression)
        except Exception as exc:
            raise UsageError(f"cannot find {expression!r}: {type(exc).__name__}: {exc}") from None
        if callable_only and not callable(value):
            raise UsageError(f"{expression!r} is not callable")
        return value

    def _card(self, component: Tool | AnyResource | Prompt) -> Any:
        from jupyter_mcp.kernel.display import card

        return card(self.server, component)

    # ---- %mcp ------------------------------------------------------------------------------------

    @line_magic
    def mcp(self, line: str) -> Any:
        """Show the server panel; with a command, run it (the commands are listed below)."""
        return run_command(self.server, line)


MCPMagics.mcp.__doc__ = f"{MCPMagics.mcp.__doc__}\n\n    %mcp           the server panel\n{USAGE}\n"


def _cell_signature(name: str, uri: str) -> str:
    """``name(a: str, b: str | None = None)``: a cell-as-resource takes its URI template's values as text."""
    try:
        path, query = template_variables(uri)
    except ToolDefinitionError as exc:
        raise UsageError(str(exc)) from None
    params = [f"{v}: str" for v in path] + [f"{v}: str | None = None" for v in query]
    return f"{name}({', '.join(params)})"


def _variable_reader(namespace: dict[str, Any], variable: str) -> Callable[[], Any]:
    def read() -> Any:
        if variable not in namespace:
            raise ResourceError(f"the notebook has no variable {variable!r} now")
        return namespace[variable]

    read.__name__ = variable
    read.__doc__ = f"The notebook variable {variable}, as it is when read."
    return read


def load_extension(ipython: Any) -> None:
    from jupyter_mcp.kernel.display import install_formatter

    ipython.register_magics(MCPMagics)
    install_formatter(ipython)  # a Tool, Resource or Prompt shown in a cell displays as its card


def unload_extension(ipython: Any) -> None:
    magics = ("mcp_tool", "mcp_resource", "mcp_prompt")
    for kind, names in (("cell", magics), ("line", (*magics, "mcp"))):
        for name in names:
            ipython.magics_manager.magics[kind].pop(name, None)
