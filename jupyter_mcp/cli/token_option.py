"""``--token``: any token, dash-led ones included, on the command line or in ``$JUPYTER_MCP_TOKEN``.

argparse reads a separate value that starts with "-" as an option (``--token -Xyz`` fails with
"expected one argument"), so ``main`` joins ``--token VALUE`` into ``--token=VALUE`` before
parsing; ``--token=VALUE`` needs nothing. The variable keeps the token out of the process's
arguments, which every user of the machine can read: client configs pass it that way.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from jupyter_mcp.cli.errors import CLIError
from jupyter_mcp.tokens import check_token, env_token

OPTION = "--token"


def join_values(argv: Sequence[str]) -> list[str]:
    """``argv`` with each ``--token VALUE`` as ``--token=VALUE`` (up to a ``--``, which ends options)."""
    joined: list[str] = []
    rest = iter(argv)
    for arg in rest:
        if arg == "--":
            return [*joined, arg, *rest]
        value = next(rest, None) if arg == OPTION else None
        joined.append(arg if value is None else f"{arg}={value}")
    return joined


def add(parser: argparse.ArgumentParser, help_text: str) -> None:
    """Add ``--token`` to ``parser``; ``help_text`` should name ``$JUPYTER_MCP_TOKEN`` as the default."""
    parser.add_argument(OPTION, type=_token, metavar="TOKEN", help=help_text)


def given_or_env(token: str | None) -> str | None:
    """The ``--token`` given, else ``$JUPYTER_MCP_TOKEN``; a bad variable is a usage error."""
    if token is not None:
        return token
    try:
        return env_token()
    except ValueError as exc:
        raise CLIError(str(exc)) from None


def _token(text: str) -> str:
    try:
        return check_token(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
