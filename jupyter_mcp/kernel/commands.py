"""The ``%mcp`` line magic's commands: ``%mcp NAME ARGS`` runs ``Commands._cmd_NAME(ARGS)``.

Each command's docstring is its usage line; ``%mcp?`` lists them in definition order.
"""

from __future__ import annotations

import argparse
import json
import shlex
from typing import Any, NoReturn

from IPython.core.error import UsageError

from jupyter_mcp.kernel.server import NotebookServer


def run_command(server: NotebookServer, line: str) -> Any:
    """``%mcp LINE``: the server panel for an empty line, else the named command's result."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"%mcp: {exc}") from None
    if not words:
        return server.panel()
    command, rest = words[0], words[1:]
    if command not in COMMANDS:
        raise UsageError(f"%mcp: unknown command {command!r}; use one of {', '.join(COMMANDS)}")
    return COMMANDS[command](Commands(server), rest)


class Commands:
    """The ``%mcp`` commands, run against one notebook server."""

    def __init__(self, server: NotebookServer) -> None:
        self.server = server

    def _cmd_start(self, rest: list[str]) -> None:
        """start [PORT]: serve (on PORT, if given)"""
        port = _one_int(rest, "start [PORT]") if rest else None
        try:
            self.server.start(port=port)
        except (PermissionError, OSError) as exc:
            raise UsageError(f"%mcp start: {exc}") from None
        print(f"MCP server running {_where(self.server)}")

    def _cmd_stop(self, rest: list[str]) -> None:
        """stop: stop serving (tools, resources and prompts stay registered)"""
        self.server.stop()
        print("MCP server stopped (everything stays registered; %mcp start serves it again)")

    def _cmd_restart(self, rest: list[str]) -> None:
        """restart: stop and serve again, same port and token"""
        self.server.restart()
        print(f"MCP server restarted: running {_where(self.server)}")

    def _cmd_list(self, rest: list[str]) -> None:
        """list: the registered tools, resources and prompts"""
        if not any(len(registry) for registry in self.server.registries):
            print("Nothing served yet: mark a function with %%mcp_tool, %%mcp_resource URI or %%mcp_prompt")
        for registry in self.server.registries:
            items = registry.all().values()
            if items:
                print(f"{registry.kind}s:")
            for item in items:
                state = "" if registry.is_visible(item) else "  (disabled)"
                first = item.description.splitlines()[0] if item.description else ""
                print(f"  {item.key}{state}: {first}")

    def _cmd_remove(self, rest: list[str]) -> None:
        """remove NAME: unregister a tool, prompt or resource (by name or URI)"""
        name = _one(rest, "remove NAME")
        for registry, keys in self._found(name):
            for key in keys:
                registry.remove(key)
                print(f"removed {registry.kind} {key!r}")

    def _cmd_enable(self, rest: list[str]) -> None:
        """enable NAME: list a disabled tool, prompt or resource again"""
        name = _one(rest, "enable NAME")
        self._found(name)
        self.server.enable(names={name})
        print(f"enabled {name!r}")

    def _cmd_disable(self, rest: list[str]) -> None:
        """disable NAME: hide a tool, prompt or resource from clients"""
        name = _one(rest, "disable NAME")
        self._found(name)
        self.server.disable(names={name})
        print(f"disabled {name!r}")

    def _cmd_history(self, rest: list[str]) -> None:
        """history [N]: the last N calls (20)"""
        from jupyter_mcp.tools.calls.history import format_record

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

    def _cmd_name(self, rest: list[str]) -> None:
        """name [PREFIX|--clear]: this notebook's prefix at <jupyter url>/mcp (PREFIX_tool); alone, show it"""
        if len(rest) > 1:
            raise UsageError("usage: %mcp name [PREFIX|--clear]")
        if rest:
            try:
                self.server.settings.name = "" if rest[0] == "--clear" else rest[0]
            except ValueError as exc:
                raise UsageError(f"%mcp name: {exc}") from None
        print(_prefix_line(self.server))

    def _cmd_clients(self, rest: list[str]) -> None:
        """clients: the connected clients"""
        clients = self.server.connected_clients()
        if not clients:
            print("No clients connected")
        for client in clients:
            print(f"{client['name']} {client['version']}  protocol {client['protocol_version']}  ({client['kind']})")

    def _cmd_pause(self, rest: list[str]) -> None:
        """pause: kill switch — refuse every client call, cancel the running async ones"""
        self.server.pause()
        print("All tools paused: client calls get a 'paused by the notebook user' error (%mcp resume serves again)")

    def _cmd_resume(self, rest: list[str]) -> None:
        """resume: serve client calls again after %mcp pause"""
        self.server.resume()
        print("Tools resumed: clients' calls are served again")

    def _cmd_pending(self, rest: list[str]) -> None:
        """pending: client calls waiting for your approval (server.pending[0].allow() answers one)"""
        waiting = self.server.pending
        if not waiting:
            print("No calls are waiting for approval")
        for index, pending in enumerate(waiting):
            arguments = json.dumps(pending.arguments, ensure_ascii=False)
            print(f"[{index}] {pending.tool}({arguments}) from {pending.client}")

    def _cmd_log(self, rest: list[str]) -> None:
        """log: the server's recent log lines"""
        from jupyter_mcp.kernel.serving.logs import ring

        print("\n".join(ring.lines) or "(no server log lines)")

    def _found(self, name: str) -> list[tuple[Any, set[str]]]:
        """Each registry with what ``name`` names in it (by key or name); a usage error if nothing is."""
        found = [(registry, registry.resolve({name})) for registry in self.server.registries]
        found = [(registry, keys) for registry, keys in found if keys]
        if not found:
            known = ", ".join(key for registry in self.server.registries for key in registry.all()) or "none"
            raise UsageError(f"%mcp: nothing named {name!r} (registered: {known})")
        return found


COMMANDS = {
    name.removeprefix("_cmd_"): function for name, function in vars(Commands).items() if name.startswith("_cmd_")
}
"""``%mcp`` commands by name, in definition order: each is a ``_cmd_NAME`` method."""
USAGE = "\n".join(f"    %mcp {(function.__doc__ or name).strip()}" for name, function in COMMANDS.items())
"""One usage line per command, for ``%mcp?``."""


def _prefix_line(server: NotebookServer) -> str:
    from jupyter_mcp.prefixes import stem_prefix, tool_name

    if server.settings.name:
        return f"At <jupyter url>/mcp this notebook's tools are named {tool_name(server.settings.name, 'TOOL')}"
    if server.notebook_path:
        stem = stem_prefix(server.notebook_path)
        return (
            f"At <jupyter url>/mcp this notebook's tools are named {tool_name(stem, 'TOOL')} (from its file name; "
            "another notebook of that name makes it longer). %mcp name PREFIX sets your own."
        )
    return "This kernel has no notebook: at <jupyter url>/mcp its tools are named kernel-<id>_TOOL"


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


def _where(server: NotebookServer) -> str:
    endpoint = server.endpoint()
    return endpoint.phrase() if endpoint is not None else "nowhere (it stopped)"


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
