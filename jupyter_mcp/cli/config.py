"""``jupyter-mcp config CLIENT [TARGET] [--install]``: the exact config an MCP client needs.

``claude`` prints a claude_desktop_config.json entry that starts ``jupyter-mcp connect`` (it
follows the notebook across kernel restarts); ``vscode`` and ``cursor`` print HTTP entries
with the live server's URL and token; ``inspector`` prints an MCP Inspector command line.
``--install`` merges the ``claude`` entry into Claude Desktop's config file; ``--mcpb`` writes it
as an MCP Bundle instead (Claude Desktop renders each tool's MCP App card only for installed bundles).
Without TARGET while several notebooks serve (or none yet), the config is for their Jupyter server's
``/mcp``: every notebook's tools at once, each name prefixed with its notebook's — one entry for all of them.
``--sign-in [URL]`` prints the config of a client that signs in with Jupyter instead (OAuth: the URL only,
no token; the client opens a browser where you allow it): for this machine's Jupyter server's ``/mcp``, or
for the route URL names (a hub's ``https://hub.example.org/user/NAME/mcp``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jupyter_mcp.cli._text import help_text
from jupyter_mcp.cli.errors import CLIError
from jupyter_mcp.clientconfig import (
    CLIENTS,
    UNION_NAME,
    Target,
    config_for,
    discovery_env,
    kernel_target,
    server_name,
    sign_in_config,
    stdio_command,
    url_target,
)

if TYPE_CHECKING:
    from jupyter_mcp.cli.targets import TargetSpec
    from jupyter_mcp.discovery import ServerInfo


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "config",
        parents=[common],
        help="print the config a client needs (claude, vscode, cursor, inspector)",
        description=help_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("client", choices=CLIENTS, metavar="CLIENT", help=f"one of: {', '.join(CLIENTS)}")
    parser.add_argument(
        "target",
        nargs="?",
        metavar="TARGET",
        help="notebook path (.ipynb) or kernel id; omit for the one that serves, or for every notebook of the "
        "Jupyter server when several do",
    )
    parser.add_argument("--name", help="server name in the client's config (default: the notebook's name)")
    parser.add_argument(
        "--command", help="claude: the jupyter-mcp executable to start (default: this one); printed by absolute path"
    )
    parser.add_argument(
        "--sign-in",
        nargs="?",
        const="",
        default=None,
        metavar="URL",
        help="the URL only: the client signs in with Jupyter in a browser (URL: an MCP route's, default this "
        "machine's Jupyter server's /mcp)",
    )
    parser.add_argument("--install", action="store_true", help="claude: merge the entry into Claude Desktop's config")
    parser.add_argument(
        "--mcpb",
        action="store_true",
        help="claude: write an MCP Bundle (.mcpb) to install with a double click (tools' MCP App cards need one)",
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="PATH", help="claude --mcpb: where to write it (default: NAME.mcpb here)"
    )
    parser.add_argument(
        "--config-file",
        type=Path,
        metavar="PATH",
        help="claude --install: the config file (default: $JUPYTER_MCP_CLAUDE_CONFIG, else Claude Desktop's)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.client != "claude" and (args.install or args.config_file or args.command or args.mcpb):
        raise CLIError("--install, --mcpb, --config-file and --command are for the claude client only")
    if args.config_file and not args.install:
        raise CLIError("--config-file goes with --install")
    if args.output and not args.mcpb:
        raise CLIError("--output goes with --mcpb")
    if args.mcpb and args.install:
        raise CLIError("--mcpb and --install are two ways to add the server: choose one")
    if args.sign_in is not None:
        if args.mcpb or args.command or (args.sign_in and args.target):
            raise CLIError("--sign-in takes one URL, and no --mcpb or --command (it names a route, nothing to start)")
        config = sign_in_config(args.client, args.name or UNION_NAME, sign_in_url(args.sign_in or args.target))
    else:
        target = build_target(args.client, args.target, args.name, args.command)
        config = config_for(args.client, target)
    if args.install:
        return _install(config, args.config_file)
    if args.mcpb:
        return _bundle(config, target.connect_target, args.output)
    print(config["command"] if args.client == "inspector" else json.dumps(config, indent=2))
    return 0


def build_target(client: str, text: str | None, name: str | None, command: str | None) -> Target:
    """The ``Target`` for TARGET: a live server, or (claude only) a notebook that may start later."""
    from jupyter_mcp.cli.targets import parse_target

    spec = parse_target(text)
    if spec.kind == "only":
        union = _every_notebook(name, command)
        if union is not None:
            return union
    info = _live(spec, required=client != "claude")
    if info is None:
        path = os.path.abspath(spec.value)
        return Target(
            name or server_name(path, ""), "", {}, connect_target=path, env=discovery_env(), command=stdio(command)
        )
    if not info.url:
        raise CLIError(
            f"{info.notebook_path or info.kernel_id} serves its tools over the kernel's own messaging only "
            "(JupyterMCP.transport = 'kernel'): take a config for the Jupyter server's route from JupyterLab's "
            "MCP Tools sidebar or GET /api/mcp/config"
        )
    return kernel_target(info.url, info.token, info.notebook_path, info.kernel_id, name=name, command=stdio(command))


def sign_in_url(text: str | None) -> str:
    """The route a signed-in client reaches: TARGET when it is a URL, else this machine's Jupyter server's ``/mcp``."""
    from jupyter_mcp.cli.targets import union_of

    if text is not None and text.startswith(("https://", "http://")):
        return text
    if text is not None:
        raise CLIError("--sign-in takes the URL of an MCP route (or nothing: this machine's Jupyter server's /mcp)")
    jupyter = union_of(set())
    if jupyter is None:
        raise CLIError("no Jupyter server with jupyter_mcp runs here: start one, or give the route's URL")
    return jupyter.union_url


def _every_notebook(name: str | None, command: str | None) -> Target | None:
    """``/mcp`` of the Jupyter server running the serving notebooks, unless exactly one serves (then: it)."""
    from jupyter_mcp import discovery
    from jupyter_mcp.cli.targets import union_of

    servers = discovery.read_all()
    if len(servers) == 1:
        return None
    jupyter = union_of({info.kernel_id for info in servers})
    if jupyter is None:
        return None
    headers = {"Authorization": f"token {jupyter.token}"}
    return url_target(name or UNION_NAME, jupyter.union_url, headers, jupyter.token, command=stdio(command))


def _live(spec: TargetSpec, *, required: bool) -> ServerInfo | None:
    from jupyter_mcp import discovery
    from jupyter_mcp.cli.targets import select

    if spec.kind == "notebook" and not required:
        from jupyter_mcp.cli.targets import matching

        found = matching(spec, discovery.read_all())
        return found[0] if found else None
    try:
        return select(spec, discovery.read_all())
    except CLIError as exc:
        if spec.kind == "notebook":
            raise CLIError(
                f"{exc}\nHTTP clients need a live server's URL and token; pin them across kernel restarts "
                "with JUPYTER_MCP_PORT and JUPYTER_MCP_TOKEN, or use `jupyter-mcp config claude`, which "
                "follows the notebook."
            ) from None
        raise


def stdio(command: str | None) -> tuple[str, ...]:
    """``--command`` by absolute path (desktop apps start servers with a minimal PATH), else this one."""
    if command is None:
        return stdio_command()
    found = shutil.which(command)
    if found is None:
        raise CLIError(f"--command: {command!r} is not an executable file (nor found on PATH)")
    return (os.path.abspath(found),)


def _bundle(config: dict[str, Any], notebook: str | None, output: Path | None) -> int:
    from jupyter_mcp.cli import mcpb

    ((name, entry),) = config["mcpServers"].items()
    shown = notebook if notebook and notebook.endswith(".ipynb") else None
    written = mcpb.write(output or Path(f"{mcpb.bundle_name(name)}.mcpb"), name, entry, shown)
    print(f"Wrote {written}: open it (double-click) to install {name!r} in Claude Desktop.")
    return 0


def _install(config: dict[str, Any], config_file: Path | None) -> int:
    from jupyter_mcp.cli import claude_desktop

    path = config_file or claude_desktop.config_path()
    ((name, entry),) = config["mcpServers"].items()
    outcome = claude_desktop.install(path, name, entry)
    print(outcome.describe())
    return 0
