"""``jupyter-mcp connect [TARGET] | --url URL [--token T]``: a stdio MCP server for a kernel's tools.

Desktop clients start it from their config; it relays to the kernel's streamable HTTP server,
follows the notebook across kernel restarts, and answers with an explanatory tool error while
no kernel serves it. Without TARGET while several notebooks serve, it relays to their Jupyter
server's ``/mcp``: every notebook's tools at once, each name prefixed with its notebook's.
With --url, the token comes from --token or $JUPYTER_MCP_TOKEN (client configs use the
variable: a process's arguments are visible to every user of the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from typing import TYPE_CHECKING, Any, BinaryIO

from jupyter_mcp.cli import token_option
from jupyter_mcp.cli._text import help_text
from jupyter_mcp.cli.errors import CLIError

if TYPE_CHECKING:
    from jupyter_mcp.cli.bridge import Locator
    from jupyter_mcp.cli.targets import TargetSpec

logger = logging.getLogger(__name__)


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "connect",
        parents=[common],
        help="stdio MCP server that bridges to a notebook's tools (for Claude Desktop and other stdio clients)",
        description=help_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "target",
        nargs="?",
        metavar="TARGET",
        help="notebook path (.ipynb) or kernel id (a prefix is enough); omit when exactly one notebook serves tools",
    )
    parser.add_argument("--url", help="an explicit MCP endpoint instead of TARGET (e.g. a Jupyter server route)")
    token_option.add(parser, "bearer token for --url (default: $JUPYTER_MCP_TOKEN)")
    parser.add_argument(
        "--poll", type=_seconds, default=0.5, metavar="SECONDS", help="how often to look for a restarted kernel"
    )
    parser.set_defaults(run=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0.05 <= value <= 60:
        raise argparse.ArgumentTypeError("must be between 0.05 and 60 seconds")
    return value


def run(args: argparse.Namespace) -> int:
    locator = make_locator(args.target, args.url, args.token)
    from jupyter_mcp.cli.stdio import claim_stdout

    stdout = claim_stdout()
    asyncio.run(_serve(locator, stdout, args.poll))
    return 0


async def _serve(locator: Locator, stdout: BinaryIO, poll: float) -> None:
    from jupyter_mcp.cli.bridge import run_stdio

    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await run_stdio(locator, stdout, poll_interval=poll)


def make_locator(target: str | None, url: str | None, token: str | None) -> Locator:
    """The locator for the command line: a fixed ``--url``, or TARGET through the discovery files."""
    from jupyter_mcp.cli.bridge import DiscoveryLocator, FixedLocator

    if url is not None:
        if target:
            raise CLIError("give either TARGET or --url, not both")
        return FixedLocator(_checked_url(url), token_option.given_or_env(token))
    if token is not None:
        raise CLIError("--token goes with --url (a TARGET's token comes from its discovery file)")
    if not target:
        union = _every_notebook()
        if union is not None:
            return union
    return DiscoveryLocator(_startup_target(target))


def _every_notebook() -> Locator | None:
    """Several notebooks serve: their Jupyter server's ``/mcp``, if one runs them (else ``None``)."""
    from jupyter_mcp import discovery
    from jupyter_mcp.cli.bridge import FixedLocator
    from jupyter_mcp.cli.targets import union_of

    servers = discovery.read_all()
    if len(servers) < 2:
        return None
    jupyter = union_of({info.kernel_id for info in servers})
    if jupyter is None:
        return None
    logger.info("%d notebooks serve tools: bridging to all of them at %s", len(servers), jupyter.union_url)
    return FixedLocator(jupyter.union_url, jupyter.token)


def _checked_url(url: str) -> str:
    from jupyter_mcp._wire.origin import split_url

    try:
        split_url(url)
    except ValueError as exc:
        raise CLIError(f"--url: {exc}") from None
    return url


def _startup_target(text: str | None) -> TargetSpec:
    """TARGET checked against what is live now; a notebook may start later, a kernel id must exist."""
    from jupyter_mcp import discovery
    from jupyter_mcp.cli.targets import TargetSpec, label, matching, parse_target, select

    spec = parse_target(text)
    servers = discovery.read_all()
    if spec.kind == "notebook":
        if not matching(spec, servers):
            logger.warning("no kernel serves %s yet; waiting for one", spec.value)
        return spec
    info = select(spec, servers)
    logger.info("bridging to %s", label(info))
    if spec.kind == "only" and info.notebook_path:
        return TargetSpec("notebook", info.notebook_path)  # follow the notebook across kernel restarts
    return TargetSpec("kernel", info.kernel_id)
