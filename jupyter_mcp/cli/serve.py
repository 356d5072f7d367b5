"""``jupyter-mcp serve NOTEBOOK.ipynb``: run a notebook headless and serve the tools it defines.

Starts a kernel (ipykernel on the Python running jupyter-mcp, so it has jupyter_mcp, unless
--kernel names a kernelspec), runs the notebook top to bottom (or only cells tagged ``mcp`` with
--tagged), then serves its %%mcp_tool tools: over stdio (for a client that starts this command) or over
streamable HTTP (URL and token printed on stderr). A cell that raises stops startup with its
cell number and a non-zero exit. Kernel output goes to stderr or --log, never to stdout.

Nobody sits at a served notebook, so nobody can approve calls of tools that ask for approval
(--confirm, confirm=True, the server's confirm setting): their calls are refused at once, and
serve names them on stderr at startup. --no-confirm runs them unasked instead.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from jupyter_mcp.cli import token_option
from jupyter_mcp.cli._text import help_text
from jupyter_mcp.cli.errors import CLIError

if TYPE_CHECKING:
    from jupyter_mcp.cli.headless import HeadlessKernel
    from jupyter_mcp.cli.notebook import Notebook
    from jupyter_mcp.discovery import ServerInfo


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        parents=[common],
        help="run a notebook headless and serve its tools (stdio or HTTP)",
        description=help_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("notebook", metavar="NOTEBOOK.ipynb", type=Path)
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio", help="default: stdio")
    parser.add_argument("--host", help="HTTP: interface to bind (default 127.0.0.1; others need the token anyway)")
    parser.add_argument("--port", type=_port, help="HTTP: port to bind (default: a free one)")
    token_option.add(parser, "HTTP: bearer token clients must send (default: $JUPYTER_MCP_TOKEN, else a random one)")
    parser.add_argument(
        "--kernel", metavar="NAME", help="kernelspec to start (default: ipykernel on the Python running jupyter-mcp)"
    )
    parser.add_argument("--cwd", type=Path, metavar="DIR", help="kernel working directory (default: the notebook's)")
    parser.add_argument("--tagged", action="store_true", help="run only the cells tagged 'mcp'")
    parser.add_argument("--log", type=Path, metavar="FILE", help="append kernel output here instead of stderr")
    parser.add_argument(
        "--no-confirm",
        action="store_true",
        help="run tools that ask for approval without asking (default: refuse their calls, as nobody can approve)",
    )
    parser.set_defaults(run=run)


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number (0-65535): {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    _check_installed(args.kernel)
    from jupyter_mcp.cli import notebook as notebooks

    _check_options(args)
    notebook = notebooks.load(args.notebook.resolve(), tagged=args.tagged)
    cwd = (args.cwd or notebook.path.parent).resolve()
    if not cwd.is_dir():
        raise CLIError(f"--cwd: not a directory: {cwd}")
    stdout = _claim_stdout() if args.transport == "stdio" else None
    log = _open_log(args.log)
    try:
        return asyncio.run(_serve(args, notebook, cwd, log, stdout))
    finally:
        if log is not sys.stderr:
            log.close()


def _check_installed(kernel_name: str | None) -> None:
    """The notebook extra: jupyter_client and nbformat here, and the kernel side when the kernel is ours."""
    from jupyter_mcp._extras import KERNEL_MODULES, require

    modules = ("jupyter_client", "nbformat", *(KERNEL_MODULES if kernel_name is None else ()))
    try:
        require("serve", modules)
    except ModuleNotFoundError as exc:
        raise CLIError(str(exc)) from None


def _check_options(args: argparse.Namespace) -> None:
    if args.transport == "stdio":
        given = [f"--{name}" for name in ("host", "port", "token") if getattr(args, name) is not None]
        if given:
            raise CLIError(f"{', '.join(given)} only apply to --transport http")
    else:
        token_option.given_or_env(args.token)  # a bad $JUPYTER_MCP_TOKEN stops here, not in the kernel
        if args.port:
            _check_port_free(args.host or "127.0.0.1", args.port)


def _check_port_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CLIError(f"cannot bind {host}:{port}: {exc.strerror or exc}") from None


def _claim_stdout() -> BinaryIO:
    from jupyter_mcp.cli.stdio import claim_stdout

    return claim_stdout()


def _open_log(path: Path | None) -> TextIO:
    if path is None:
        return sys.stderr
    try:
        return path.open("a", encoding="utf-8")
    except OSError as exc:
        raise CLIError(f"--log: cannot open {path}: {exc.strerror or exc}") from None


async def _serve(args: argparse.Namespace, notebook: Notebook, cwd: Path, log: TextIO, stdout: BinaryIO | None) -> int:
    from jupyter_mcp.cli.headless import HeadlessKernel

    kernel = HeadlessKernel(args.kernel, cwd, _kernel_env(args, notebook), log)
    _say(f"kernel: {kernel.describe()}")
    saved = notebook.kernel_name
    if args.kernel is None and saved not in (None, "python3"):
        _say(f"  (the notebook was saved with kernel {saved!r}; --kernel {saved} starts that one)")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    work = asyncio.ensure_future(_start_and_serve(kernel, notebook, args, stdout))
    stopper = asyncio.ensure_future(stop.wait())
    try:
        done, _ = await asyncio.wait({work, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if work in done:
            return work.result()
        work.cancel()
        await asyncio.gather(work, return_exceptions=True)
        _say("stopping: shutting the kernel down")
        return 0
    finally:
        stopper.cancel()
        await kernel.shutdown()


def _kernel_env(args: argparse.Namespace, notebook: Notebook) -> dict[str, str]:
    env = {**os.environ, "JPY_SESSION_NAME": str(notebook.path)}
    if args.port is not None:
        env["JUPYTER_MCP_PORT"] = str(args.port)
    if args.token is not None:
        env["JUPYTER_MCP_TOKEN"] = args.token
    return env


async def _start_and_serve(kernel: HeadlessKernel, notebook: Notebook, args: argparse.Namespace, stdout: Any) -> int:
    await kernel.start()
    await _execute(kernel, notebook, args.host, args.no_confirm)
    info = _served(kernel, notebook, args.tagged)
    from jupyter_mcp.kernel.headless import tools_needing_approval

    _tell_unattended(await kernel.call(tools_needing_approval), args.no_confirm)
    kernel.follow_output()
    if stdout is None:
        _announce(info, notebook)
        await kernel.died()
    else:
        await _bridge(kernel, stdout)
        return 0
    raise CLIError("the kernel died; its tools are gone")


async def _execute(kernel: HeadlessKernel, notebook: Notebook, host: str | None, no_confirm: bool) -> None:
    from jupyter_mcp.cli.headless import plain
    from jupyter_mcp.kernel.headless import prepare_headless

    loads_itself = any("load_ext jupyter_mcp" in cell.source for cell in notebook.cells)
    try:
        await kernel.call(
            prepare_headless, load=not loads_itself, host=host, unattended="run" if no_confirm else "refuse"
        )
    except CLIError as exc:
        raise CLIError(f"could not load jupyter_mcp in the kernel: {exc}") from None
    for cell in notebook.cells:
        failure = await kernel.run(cell.source)
        if failure is not None:
            error = f"{failure.get('ename', 'Error')}: {plain(str(failure.get('evalue', '')))}"
            raise CLIError(f"cell {cell.number} of {notebook.path.name} raised {error}\n    {cell.first_line}")


def _served(kernel: HeadlessKernel, notebook: Notebook, tagged: bool) -> ServerInfo:
    from jupyter_mcp import discovery

    info = discovery.find(kernel.kernel_id)
    if info is None or not (info.tools or info.resources or info.prompts):
        which = "its cells tagged 'mcp' ran" if tagged else "it ran"
        raise CLIError(
            f"{notebook.path.name}: {which}, but no %%mcp_tool, %%mcp_resource or %%mcp_prompt cell registered "
            "anything; nothing to serve"
        )
    return info


def _tell_unattended(names: list[str], no_confirm: bool) -> None:
    """One line on the tools that ask for approval: nobody can give it here."""
    if not names:
        return
    listed = ", ".join(names)
    if no_confirm:
        _say(f"--no-confirm: {listed} ask for approval in a notebook; here they run unasked")
    else:
        _say(
            f"nobody can approve calls here, so calls of {listed} (they ask for approval) are refused at once; "
            "serve --no-confirm runs them unasked"
        )


def _announce(info: ServerInfo, notebook: Notebook) -> None:
    names = ", ".join(info.tool_names)
    _say(f"serving {len(info.tools)} tool(s) from {notebook.path} (kernel {info.kernel_id[:8]}): {names}")
    if info.resources or info.prompts:
        _say(f"  and {len(info.resources)} resource(s), {len(info.prompts)} prompt(s)")
    _say(f"  URL:    {info.url}")
    _say(f"  Header: Authorization: Bearer {info.token}")
    _say("Stop with Ctrl-C.")


async def _bridge(kernel: HeadlessKernel, stdout: BinaryIO) -> None:
    """Serve the stdio client until it closes stdin (or the kernel dies)."""
    from jupyter_mcp.cli.bridge import DiscoveryLocator, run_stdio
    from jupyter_mcp.cli.targets import TargetSpec

    locator = DiscoveryLocator(TargetSpec("kernel", kernel.kernel_id))
    await kernel.until_dead(run_stdio(locator, stdout))


def _say(text: str) -> None:
    print(f"[jupyter-mcp] {text}", file=sys.stderr, flush=True)
