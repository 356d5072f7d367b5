"""Claude Desktop's config file: where it is, and merging one server entry into it safely.

The file may hold other servers (and other settings): they are kept as they are. The file is
backed up before it changes and replaced atomically.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyter_mcp.cli.errors import CLIError

ENV_OVERRIDE = "JUPYTER_MCP_CLAUDE_CONFIG"
FILE_NAME = "claude_desktop_config.json"


def config_path() -> Path:
    """``$JUPYTER_MCP_CLAUDE_CONFIG``, else where Claude Desktop keeps its config on this OS."""
    if override := os.environ.get(ENV_OVERRIDE):
        return Path(override).expanduser()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Claude" / FILE_NAME
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "Claude" / FILE_NAME
    config_home = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(config_home) / "Claude" / FILE_NAME


@dataclass(frozen=True)
class Installed:
    path: Path
    name: str
    action: str
    """``added``, ``updated`` or ``unchanged``."""
    backup: Path | None

    def describe(self) -> str:
        if self.action == "unchanged":
            return f"{self.path} already has this entry for {self.name!r}; nothing to do."
        backup = f" (backup: {self.backup})" if self.backup else ""
        return (
            f"{self.action.capitalize()} server {self.name!r} in {self.path}{backup}. Restart Claude Desktop to use it."
        )


def install(path: Path, name: str, entry: dict[str, Any]) -> Installed:
    """Put ``entry`` under ``mcpServers[name]``, keeping every other server and setting."""
    document = _read(path)
    servers = document.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise CLIError(f"{path}: 'mcpServers' is not a JSON object; not touching the file")
    previous = servers.get(name)
    if previous == entry:
        return Installed(path, name, "unchanged", None)
    if previous is not None and not _is_ours(previous):
        raise CLIError(
            f"{path} already has a server named {name!r} that is not a jupyter-mcp entry; "
            "choose another name with --name"
        )
    backup = _backup(path)
    servers[name] = entry
    _write(path, document)
    return Installed(path, name, "updated" if previous is not None else "added", backup)


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise CLIError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not text.strip():
        return {}
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise CLIError(f"{path} is not valid JSON ({exc}); fix it first, nothing was changed") from None
    if not isinstance(document, dict):
        raise CLIError(f"{path} does not hold a JSON object; not touching it")
    return document


def _is_ours(entry: Any) -> bool:
    """An entry that starts ``jupyter-mcp connect|serve``: the script, or ``python -m jupyter_mcp``."""
    if not isinstance(entry, dict):
        return False
    command, args = str(entry.get("command", "")), list(entry.get("args") or [])
    if args[:2] == ["-m", "jupyter_mcp"]:
        args = args[2:]
    elif Path(command).stem != "jupyter-mcp":
        return False
    return bool(args) and args[0] in ("connect", "serve")


def _backup(path: Path) -> Path | None:
    if not path.exists():
        return None
    stem = f"{path.name}.{time.strftime('%Y%m%d-%H%M%S')}"
    backup = path.with_name(f"{stem}.bak")
    counter = 1
    while backup.exists():  # never overwrite an earlier backup
        backup = path.with_name(f"{stem}-{counter}.bak")
        counter += 1
    shutil.copy2(path, backup)
    return backup


def _write(path: Path, document: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=2)
            handle.write("\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
