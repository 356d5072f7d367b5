"""``jupyter-mcp config claude --mcpb [TARGET]``: an MCP Bundle that Claude Desktop installs with a double click.

Claude Desktop shows MCP Apps (each tool's card beside its calls) for servers installed as bundles,
not for servers in its config file. The bundle is a zip of ``manifest.json`` (MCPB manifest 0.3)
and ``server/bridge.py``, which starts the same stdio bridge the config entry would
(``jupyter-mcp connect TARGET``, by absolute path, with the same environment), with this Python.
The bundle is for this machine: it names this installation's files. It holds no secret for a
notebook target (``connect`` finds the token in the kernel's discovery file); a target at a fixed
URL carries its token in the environment, as the config entry does, so keep such a bundle private.
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

from jupyter_mcp._version import __version__
from jupyter_mcp.cli.errors import CLIError

MANIFEST_VERSION = "0.3"
BRIDGE = "server/bridge.py"
_PLATFORMS = {"darwin": "darwin", "win32": "win32", "linux": "linux"}

_BRIDGE_SOURCE = '''"""The stdio bridge to {name}: jupyter-mcp connect, as `jupyter-mcp config claude` would start it.

Written by `jupyter-mcp config claude --mcpb` (jupyter-live-mcp {version}); Claude Desktop runs it with
the Python that has jupyter-mcp. Its standard input and output are the MCP connection.
"""

import subprocess
import sys

COMMAND = {command}

sys.exit(subprocess.call(COMMAND))
'''


def manifest(name: str, entry: dict[str, Any], notebook: str | None) -> dict[str, Any]:
    """The bundle's ``manifest.json`` for the config entry ``entry`` (``command``, ``args``, ``env``)."""
    what = f"the notebook {notebook}" if notebook else f"the MCP server {name}"
    config: dict[str, Any] = {"command": str(Path(sys.executable).absolute()), "args": [f"${{__dirname}}/{BRIDGE}"]}
    if entry.get("env"):
        config["env"] = dict(entry["env"])
    return {
        "manifest_version": MANIFEST_VERSION,
        "name": bundle_name(name),
        "display_name": f"{name} (Jupyter)",
        "version": _semver(__version__),
        "description": f"The MCP tools of {what}, served from its running kernel by jupyter-mcp, each with its card.",
        "long_description": (
            f"Connects Claude to {what} through `jupyter-mcp connect`, which follows the notebook across kernel "
            "restarts. Every tool is an MCP App: its calls, results, progress and approvals are drawn as the "
            "notebook's own cards."
        ),
        "author": {"name": "jupyter-mcp"},
        "license": "BSD-3-Clause",
        "keywords": ["jupyter", "notebook", "mcp-apps"],
        "server": {"type": "python", "entry_point": BRIDGE, "mcp_config": config},
        "tools_generated": True,
        "prompts_generated": True,
        "compatibility": {"platforms": [_PLATFORMS.get(sys.platform, "linux")], "runtimes": {"python": ">=3.11"}},
    }


def bridge_source(name: str, entry: dict[str, Any]) -> str:
    command = [entry["command"], *entry.get("args", [])]
    return _BRIDGE_SOURCE.format(name=name, version=__version__, command=json.dumps(command))


def write(path: Path, name: str, entry: dict[str, Any], notebook: str | None) -> Path:
    """Write the bundle for ``entry`` to ``path`` (a ``.mcpb`` zip); returns the path written."""
    if path.suffix != ".mcpb":
        raise CLIError(f"--output {path}: a bundle's file name ends in .mcpb (Claude Desktop opens those)")
    path.parent.mkdir(parents=True, exist_ok=True)
    files = {
        "manifest.json": json.dumps(manifest(name, entry, notebook), indent=2) + "\n",
        BRIDGE: bridge_source(name, entry),
    }
    try:
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
            for member, text in files.items():
                bundle.writestr(member, text)
    except OSError as exc:
        raise CLIError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def bundle_name(name: str) -> str:
    """A bundle's machine name: lowercase letters, digits and hyphens."""
    return "jupyter-" + (re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "notebook")


def _semver(version: str) -> str:
    match = re.match(r"\d+\.\d+\.\d+", version)
    return match.group(0) if match else "0.0.0"
