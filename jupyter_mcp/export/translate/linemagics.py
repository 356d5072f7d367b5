"""Line magics in exported code: jupyter_mcp's own become server calls or are dropped with a comment.

Each entry of ``LINE_MAGICS`` takes the magic's argument text and returns a ``Translation``, or
raises ``Untranslatable`` with the reason. A magic without an entry is reported. ``%mcp_resource``
(``server.resource``) joins the table when resources reach the magics.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from jupyter_mcp.export.translate.literals import literal
from jupyter_mcp.export.translate.registration import SERVER, add_call, exported_tool_options
from jupyter_mcp.syntax.flags import add_flags, tool_options


class Untranslatable(ValueError):
    """The magic has no meaning outside a notebook (or its arguments do not parse); the message says why."""


@dataclass(frozen=True)
class Translation:
    """``code`` replaces the magic (``None``: dropped); ``note`` becomes a comment above it and a note in the report."""

    code: str | None
    note: str | None = None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise Untranslatable(f"{self.prog}: {message}")


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise Untranslatable(f"cannot parse the arguments: {exc}") from None


def _load_ext(line: str) -> Translation:
    if _words(line) != ["jupyter_mcp"]:
        raise Untranslatable("loads an IPython extension, which a plain Python server cannot")
    return Translation(None, "%load_ext jupyter_mcp: the notebook's magics; the server needs none")


def _mcp_tool(line: str) -> Translation:
    parser = add_flags(_Parser(prog="%mcp_tool", add_help=False))
    parser.add_argument("function")
    parser.add_argument("--name")
    args = parser.parse_args(_words(line))
    options, note = exported_tool_options(tool_options(args))
    if args.name:
        options = {"name": args.name, **options}
    return Translation(add_call("tool", args.function, options), note)


def _matplotlib(line: str) -> Translation:
    return Translation(None, f"%matplotlib {line}: a display setting; a server draws figures off-screen".rstrip())


def _shown(what: str) -> Callable[[list[str]], Translation]:
    def dropped(words: list[str]) -> Translation:
        return Translation(None, f"{' '.join(['%mcp', *words])}: {what}; the server does not need it")

    return dropped


def _named(words: list[str], usage: str) -> str:
    if len(words) != 2:
        raise Untranslatable(f"usage: %mcp {usage}")
    return words[1]


def _enable(words: list[str]) -> Translation:
    return Translation(f"{SERVER}.enable(names={{{literal(_named(words, 'enable NAME'))}}})")


def _disable(words: list[str]) -> Translation:
    return Translation(f"{SERVER}.disable(names={{{literal(_named(words, 'disable NAME'))}}})")


def _remove(words: list[str]) -> Translation:
    return Translation(f"{SERVER}.remove_tool({literal(_named(words, 'remove NAME'))})")


MCP_COMMANDS: dict[str, Callable[[list[str]], Translation]] = {
    "": _shown("shows the server panel"),
    "start": _shown("starts the kernel's server (the exported one starts with its command: --transport, --port)"),
    "stop": _shown("stops the kernel's server"),
    "restart": _shown("restarts the kernel's server"),
    "list": _shown("prints the tools"),
    "remove": _remove,
    "enable": _enable,
    "disable": _disable,
    "history": _shown("prints the call history"),
    "config": _shown("prints a client config (the export's README has one)"),
    "clients": _shown("prints the connected clients"),
    "log": _shown("prints the server log"),
    "pause": _shown("pauses the tools for the notebook user (a server has none; it serves until stopped)"),
    "resume": _shown("resumes the paused tools"),
    "pending": _shown("prints the calls waiting for the notebook user's approval"),
    "keep": _shown("keeps calls as tests (they are in tests/)"),
    "export": _shown("exports the notebook (this is the export)"),
    "name": _shown("sets the notebook's prefix at its Jupyter server's /mcp (a server serves its own names)"),
}
"""Every ``%mcp`` command (``kernel/magics.py``), as the export treats it."""


def _mcp(line: str) -> Translation:
    words = _words(line)
    command = MCP_COMMANDS.get(words[0] if words else "")
    if command is None:
        raise Untranslatable(f"%mcp {words[0]} has no meaning outside the notebook")
    return command(words)


LINE_MAGICS: dict[str, Callable[[str], Translation]] = {
    "load_ext": _load_ext,
    "reload_ext": _load_ext,
    "mcp_tool": _mcp_tool,
    "mcp": _mcp,
    "matplotlib": _matplotlib,
}


def translate_line_magic(name: str, line: str) -> Translation:
    """What ``%name line`` becomes in the exported server; ``Untranslatable`` if it has no equivalent."""
    translate = LINE_MAGICS.get(name)
    if name.startswith("%"):
        raise Untranslatable(f"%{name} is a cell magic, which works only on the first line of its cell")
    if translate is None:
        raise Untranslatable(f"%{name} is an IPython magic; a plain Python server has no equivalent")
    return translate(line)
