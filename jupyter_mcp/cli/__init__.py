"""``jupyter-mcp list | connect | serve | config`` (Jupyter also runs it as ``jupyter mcp ...``).

Each command is a module with ``add_parser(subparsers)``; heavy imports happen inside the
command, so ``jupyter-mcp list`` starts fast.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from jupyter_mcp._version import __version__
from jupyter_mcp.cli import config, connect, listing, serve, token_option
from jupyter_mcp.cli.errors import CLIError

__all__ = ["CLIError", "main"]

_COMMANDS = (listing, connect, serve, config)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jupyter-mcp",
        description="Use a Jupyter notebook's %%mcp_tool tools from MCP clients.",
    )
    parser.add_argument("--version", action="version", version=f"jupyter-mcp {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    verbosity = common.add_mutually_exclusive_group()
    verbosity.add_argument("-v", "--verbose", action="store_true", help="log more to stderr")
    verbosity.add_argument("-q", "--quiet", action="store_true", help="log only problems to stderr")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for command in _COMMANDS:
        command.add_parser(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (``CLIError`` becomes a one-line message)."""
    args = build_parser().parse_args(token_option.join_values(sys.argv[1:] if argv is None else argv))
    _configure_logging(args.verbose, args.quiet)
    try:
        status: int = args.run(args)
    except CLIError as exc:
        print(f"jupyter-mcp: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        return 130
    return status


def _configure_logging(verbose: bool, quiet: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("[jupyter-mcp] %(message)s"))
    logger = logging.getLogger("jupyter_mcp")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO)
    logger.propagate = False
