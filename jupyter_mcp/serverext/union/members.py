"""Which notebooks make up the union now, the prefix each one serves under, and which a client sees.

A member is a notebook whose kernel serves tools (a live discovery file of one of this Jupyter
server's kernels). Prefixes are assigned over the notebooks that served and still have a session,
so a notebook restarting its kernel keeps its place: names are keyed by the notebook's path, never
by its kernel, and survive restarts.

A client's scope (``/mcp?notebooks=sales.ipynb,ops/`` or ``/mcp/scope/sales.ipynb,ops/``) names
notebooks (their paths, as JupyterLab shows them) or folders (every notebook under it, with or
without the trailing ``/``), separated by commas; a comma inside a path is written ``%2C``. No
entries: every notebook.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote

from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.prefixes import Assignment, Claim, assign
from jupyter_mcp.serverext.carriers.base import Carrier
from jupyter_mcp.serverext.directory import Located, ToolServerDirectory


@dataclass(frozen=True)
class Member:
    """One notebook serving tools, and the prefix its components carry in the union."""

    key: str
    """The notebook's path (``ops/sales.ipynb``), or ``kernel-<id>`` for a kernel without a notebook."""
    notebook: str | None
    info: ServerInfo
    carrier: Carrier
    """What takes requests to its kernel: loopback HTTP, or the kernel's own channel."""
    prefix: str
    collision: str | None = None
    """Why ``prefix`` is not the one the notebook wanted (another notebook wants it too), if so."""

    @property
    def identity(self) -> tuple[object, ...]:
        """Changes when another kernel process serves the notebook (a restart), even on the same port."""
        return (self.info.kernel_id, self.info.pid, self.info.started, self.info.url)

    @property
    def label(self) -> str:
        """How messages name it: ``sales.ipynb``, or ``kernel 1a2b3c4d``."""
        return self.notebook or f"kernel {self.info.kernel_id[:8]}"

    @property
    def name(self) -> str:
        """The notebook's file name (``sales.ipynb``), for titles."""
        return PurePosixPath(self.notebook).name if self.notebook else self.label


def member_key(located: Located) -> str:
    return located.notebook_path or f"kernel-{located.info.kernel_id[:8]}"


class Membership:
    """Reads the serving notebooks from the directory and keeps their prefixes steady."""

    def __init__(self, directory: ToolServerDirectory) -> None:
        self.directory = directory
        self._known: dict[str, str | None] = {}
        """Notebooks that served while their session lived: path -> the name the notebook asked for."""

    async def scan(self) -> dict[str, Member]:
        """The members now, by key."""
        serving = [
            item for item in await self.directory.live() if not self.directory.shutting_down(item.info.kernel_id)
        ]
        located = _newest_per_notebook(serving)
        sessions = set((await self.directory.notebook_paths()).values())
        self._remember(located, sessions)
        assignments = assign(Claim(key, name) for key, name in self._known.items())
        return {key: _member(key, item, assignments.get(key)) for key, item in located.items()}

    def _remember(self, located: dict[str, Located], sessions: set[str]) -> None:
        self._known = {key: name for key, name in self._known.items() if key in sessions}
        for key, item in located.items():
            self._known[key] = item.info.name


def _newest_per_notebook(located: Iterable[Located]) -> dict[str, Located]:
    """One server per notebook: the newest (``live()`` lists newest first), as the notebook route picks."""
    found: dict[str, Located] = {}
    for item in located:
        found.setdefault(member_key(item), item)
    return found


def _member(key: str, item: Located, assignment: Assignment | None) -> Member:
    assigned = assignment or Assignment(key)
    return Member(key, item.notebook_path, item.info, item.carrier, assigned.prefix, assigned.collision)


class BadScope(ValueError):
    """A scope that names nothing usable (HTTP 400)."""


@dataclass(frozen=True)
class Scope:
    """The notebooks a client may see; empty means all of them."""

    entries: tuple[str, ...] = ()

    @classmethod
    def parse(cls, query: str, path: str | None = None) -> Scope:
        """From the raw query string (``notebooks=`` may repeat) and the ``/mcp/scope/<entries>`` path form."""
        raw = [value for name, _, value in (part.partition("=") for part in query.split("&")) if name == "notebooks"]
        if path is not None:
            raw.append(path)
        entries = [_entry(piece) for value in raw for piece in value.split(",")]
        entries = [entry for entry in entries if entry]
        if (raw and not entries) or any(".." in entry.split("/") for entry in entries):
            raise BadScope("notebooks= names notebooks or folders by their paths, separated by commas (no '..')")
        return cls(tuple(sorted(set(entries))))

    @property
    def everything(self) -> bool:
        return not self.entries

    def includes(self, member: Member) -> bool:
        return self.everything or (member.notebook is not None and self.covers(member.notebook))

    def covers(self, key: str) -> bool:
        """Whether a member key (a notebook's path) is in scope."""
        return self.everything or any(_covers(entry, key) for entry in self.entries)

    def describe(self) -> str:
        return "every notebook" if self.everything else ", ".join(self.entries)


def _entry(piece: str) -> str:
    return unquote(piece.replace("+", " ")).strip().lstrip("/")


def _covers(entry: str, notebook: str) -> bool:
    folder = entry.rstrip("/")
    return notebook == entry or notebook.startswith(folder + "/")
