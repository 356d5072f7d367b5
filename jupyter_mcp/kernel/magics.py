"""``%%mcp_tool``, ``%mcp_tool`` and ``%mcp``: parse the line, then delegate to the server."""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Callable
from typing import Any, NoReturn

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments

from jupyter_mcp.kernel.cellfunc import (
    SignatureError,
    build_function,
    defined_functions,
    pick_function,
    split_signature,
)
from jupyter_mcp.kernel.magicoptions import tool_options, with_tool_flags
from jupyter_mcp.kernel.server import NotebookServer, get_server
from jupyter_mcp.tools.errors import ToolDefinitionError
from jupyter_mcp.tools.options import ToolOptions
from jupyter_mcp.tools.tool import Tool


@magics_class
class MCPMagics(Magics):
    """The notebook's MCP magics; registered by ``%load_ext jupyter_mcp``."""

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self._cell_tools: dict[str, str] = {}

    @property
    def ip(self) -> Any:
        """The shell (never None once the magics are registered)."""
        assert self.shell is not None
        return self.shell

    @property
    def server(self) -> NotebookServer:
        return get_server()

    # ---- %%mcp_tool ------------------------------------------------------------------------------

    @magic_arguments()
    @argument("name", nargs="?", help="Which function in the cell becomes the tool (default: the only one).")
    @with_tool_flags
    @cell_magic
    def mcp_tool(self, line: str, cell: str) -> Any:
        """Make the function this cell defines an MCP tool, or (with a signature) the cell itself.

        %%mcp_tool [NAME] [options]          the function NAME (or the only one) defined here
        %%mcp_tool name(a: int) -> int       the cell body is the tool; its last expression returns
        """
        try:
            signature, option_text = split_signature(line)
        except SignatureError as exc:
            raise UsageError(str(exc)) from None
        args = _parse(self.mcp_tool, option_text)
        options = tool_options(args)
        function: Callable[..., Any] | None
        if signature is not None:
            if args.name:
                raise UsageError("give either a signature or NAME, not both")
            function = self._cell_function(signature, cell)
        else:
            function = self._run_and_pick(cell, args.name)
            if function is None:
                return None  # the cell raised: IPython already showed the traceback
        return self._register(function, options)

    def _cell_function(self, signature: str, cell: str) -> Callable[..., Any]:
        source = self.ip.transform_cell(cell)
        filename = self.ip.compile.cache(source, self.ip.execution_count)
        try:
            return build_function(signature, source, self.ip.user_ns, filename)
        except SignatureError as exc:
            raise UsageError(str(exc)) from None

    def _run_and_pick(self, cell: str, name: str | None) -> Callable[..., Any] | None:
        result = self.ip.run_cell(cell, store_history=False)
        if not result.success:
            return None
        defined = defined_functions(self.ip.transform_cell(cell))
        if name is None:
            try:
                name = pick_function(defined, None)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        function = self.ip.user_ns.get(name)
        if not callable(function):
            raise UsageError(
                f"{name!r} is not a function defined by this cell (defined: {', '.join(defined) or 'none'})"
            )
        return function  # type: ignore[no-any-return]

    def _register(self, function: Callable[..., Any], options: ToolOptions) -> Any:
        try:
            tool = Tool.from_function(function, **options)
        except ToolDefinitionError as exc:
            raise UsageError(str(exc)) from None
        self._forget_renamed(tool.name)
        registered = self.server.add_tool(tool)
        from jupyter_mcp.kernel.display import tool_card

        return tool_card(self.server, registered)

    def _forget_renamed(self, name: str) -> None:
        """When a re-run cell now defines a different tool name, the old tool goes away."""
        cell_id = _current_cell_id(self.ip)
        if cell_id is None:
            return
        previous = self._cell_tools.get(cell_id)
        self._cell_tools[cell_id] = name
        if previous is not None and previous != name and previous in self.server.registry:
            self.server.remove_tool(previous)

    # ---- %mcp_tool fn ----------------------------------------------------------------------------

    @magic_arguments()
    @argument("function", help="An existing function (or bound method) in the namespace.")
    @argument("--name", help="Tool name (default: the function's name).")
    @with_tool_flags
    @line_magic("mcp_tool")  # type: ignore[arg-type]  # IPython types the named form oddly
    def mcp_tool_line(self, line: str) -> Any:
        """Register an existing function as a tool: %mcp_tool fn [--name N] [options]"""
        args = _parse(self.mcp_tool_line, line)
        try:
            function = self.ip.ev(args.function)
        except Exception as exc:
            raise UsageError(f"cannot find {args.function!r}: {type(exc).__name__}: {exc}") from None
        if not callable(function):
            raise UsageError(f"{args.function!r} is not callable")
        options = tool_options(args)
        if args.name:
            options["name"] = args.name
        return self._register(function, options)

    # ---- %mcp ------------------------------------------------------------------------------------

    @line_magic
    def mcp(self, line: str) -> Any:
        """Show the server panel; with a command, run it (the commands are listed below)."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise UsageError(f"%mcp: {exc}") from None
        if not words:
            return self.server.panel()
        command, rest = words[0], words[1:]
        handler = getattr(self, f"_cmd_{command}", None)
        if handler is None:
            raise UsageError(f"%mcp: unknown command {command!r}; use one of {', '.join(COMMANDS)}")
        return handler(rest)

    def _cmd_start(self, rest: list[str]) -> None:
        """start [PORT]: serve (on PORT, if given)"""
        port = _one_int(rest, "start [PORT]") if rest else None
        try:
            self.server.start(port=port)
        except (PermissionError, OSError) as exc:
            raise UsageError(f"%mcp start: {exc}") from None
        print(f"MCP server running at {self.server.url}")

    def _cmd_stop(self, rest: list[str]) -> None:
        """stop: stop serving (tools stay registered)"""
        self.server.stop()
        print("MCP server stopped (tools stay registered; %mcp start serves them again)")

    def _cmd_restart(self, rest: list[str]) -> None:
        """restart: stop and serve again, same port and token"""
        self.server.restart()
        print(f"MCP server restarted at {self.server.url}")

    def _cmd_list(self, rest: list[str]) -> None:
        """list: the registered tools"""
        tools = self.server.tools
        if not tools:
            print("No tools yet: mark a function with %%mcp_tool")
        for tool in tools.values():
            state = "" if self.server.registry.is_visible(tool) else "  (disabled)"
            print(f"{tool.name}{state}: {(tool.description or '').splitlines()[0] if tool.description else ''}")

    def _cmd_remove(self, rest: list[str]) -> None:
        """remove NAME: unregister a tool"""
        name = _one(rest, "remove NAME")
        self._known(name)
        self.server.remove_tool(name)
        print(f"removed {name!r}")

    def _cmd_enable(self, rest: list[str]) -> None:
        """enable NAME: list a disabled tool again"""
        name = _one(rest, "enable NAME")
        self._known(name)
        self.server.enable(names={name})
        print(f"enabled {name!r}")

    def _cmd_disable(self, rest: list[str]) -> None:
        """disable NAME: hide a tool from clients"""
        name = _one(rest, "disable NAME")
        self._known(name)
        self.server.disable(names={name})
        print(f"disabled {name!r}")

    def _cmd_history(self, rest: list[str]) -> None:
        """history [N]: the last N calls (20)"""
        from jupyter_mcp.tools.history import format_record

        count = _one_int(rest, "history [N]") if rest else 20
        records = list(self.server.history)[-count:]
        if not records:
            print("No calls yet")
        for record in records:
            print(format_record(record))

    def _cmd_keep(self, rest: list[str]) -> None:
        """keep [N ...|--clear]: keep calls (numbers from history) as tests for export; alone, list them"""
        from jupyter_mcp.kernel.exporting import kept_lines

        kept = self.server.kept
        if rest == ["--clear"]:
            kept.clear()
        numbers = _ints(rest, "keep [N ...|--clear]") if rest and rest != ["--clear"] else []
        for number in numbers:
            record = self.server.history.by_number(number)
            if record is None:
                raise UsageError(f"%mcp keep: no call #{number} in the history (%mcp history shows the numbers)")
            try:
                self.server.history.keep(record.id)
            except ValueError as exc:
                raise UsageError(f"%mcp keep: {exc}") from None
        where = f"saved in {kept.path}" if kept.path else f"in memory only: {kept.problem or 'no notebook file known'}"
        print("\n".join([f"{len(kept.calls)} call(s) kept as tests ({where})", *kept_lines(kept.calls)]))

    def _cmd_export(self, rest: list[str]) -> None:
        """export DIR [--tagged] [--dockerfile] [--name N]: the notebook as a standalone server project"""
        from jupyter_mcp.export import CheckError, ExportError

        args = _export_parser().parse_args(rest)
        try:
            result = self.server.export(args.directory, tagged=args.tagged, dockerfile=args.dockerfile, name=args.name)
        except (ExportError, CheckError, FileExistsError, ValueError) as exc:
            raise UsageError(f"%mcp export: {exc}") from None
        print(
            f"{result.summary()}\n  (from the saved notebook {self.server.kept.notebook}: save first to include edits)"
        )

    def _cmd_config(self, rest: list[str]) -> None:
        """config CLIENT: a client config for this kernel"""
        from jupyter_mcp.clientconfig import CLIENTS

        client = _one(rest, f"config {'|'.join(CLIENTS)}")
        if client not in CLIENTS:
            raise UsageError(f"%mcp config: unknown client {client!r}; use one of {', '.join(CLIENTS)}")
        config = self.server.client_config(client)
        print(config["command"] if client == "inspector" else json.dumps(config, indent=2))

    def _cmd_clients(self, rest: list[str]) -> None:
        """clients: the connected clients"""
        clients = self.server.connected_clients()
        if not clients:
            print("No clients connected")
        for client in clients:
            print(f"{client.name} {client.version}  protocol {client.protocol_version}  ({client.kind})")

    def _cmd_log(self, rest: list[str]) -> None:
        """log: the server's recent log lines"""
        from jupyter_mcp.kernel.logs import ring

        print("\n".join(ring.lines) or "(no server log lines)")

    def _known(self, name: str) -> None:
        if name not in self.server.registry:
            known = ", ".join(self.server.tools) or "none"
            raise UsageError(f"%mcp: no tool named {name!r} (registered: {known})")


COMMANDS = {
    name.removeprefix("_cmd_"): function for name, function in vars(MCPMagics).items() if name.startswith("_cmd_")
}
"""``%mcp`` commands by name, in definition order: each is a ``_cmd_NAME`` method."""
_usage = "\n".join(f"    %mcp {(function.__doc__ or name).strip()}" for name, function in COMMANDS.items())
MCPMagics.mcp.__doc__ = f"{MCPMagics.mcp.__doc__}\n\n    %mcp           the server panel\n{_usage}\n"


def _parse(magic: Any, text: str) -> Any:
    """Parse magic options with shell quoting (IPython's parse_argstring keeps the quotes)."""
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"cannot parse the options: {exc}") from None
    return magic.parser.parse_args(argv)


def _ints(rest: list[str], usage: str) -> list[int]:
    if not rest or not all(word.isdigit() for word in rest):
        raise UsageError(f"usage: %mcp {usage}")
    return [int(word) for word in rest]


class _ExportParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"%mcp export: {message}")


def _export_parser() -> argparse.ArgumentParser:
    parser = _ExportParser(prog="%mcp export", add_help=False)
    parser.add_argument("directory")
    parser.add_argument("--tagged", action="store_true")
    parser.add_argument("--dockerfile", action="store_true")
    parser.add_argument("--name")
    return parser


def _one(rest: list[str], usage: str) -> str:
    if len(rest) != 1:
        raise UsageError(f"usage: %mcp {usage}")
    return rest[0]


def _one_int(rest: list[str], usage: str) -> int:
    value = _one(rest, usage)
    try:
        return int(value)
    except ValueError:
        raise UsageError(f"usage: %mcp {usage} ({value!r} is not a number)") from None


def _current_cell_id(shell: Any) -> str | None:
    try:
        parent = shell.kernel.get_parent("shell")
    except (AttributeError, TypeError):
        return None
    metadata = parent.get("metadata", {}) if isinstance(parent, dict) else {}
    cell_id = metadata.get("cellId")
    return str(cell_id) if cell_id else None


def load_extension(ipython: Any) -> None:
    from jupyter_mcp.kernel.display import install_formatter

    ipython.register_magics(MCPMagics)
    install_formatter(ipython)  # a Tool shown in a cell (server.tools["x"]) displays as its card


def unload_extension(ipython: Any) -> None:
    for kind, names in (("cell", ("mcp_tool",)), ("line", ("mcp_tool", "mcp"))):
        for name in names:
            ipython.magics_manager.magics[kind].pop(name, None)
