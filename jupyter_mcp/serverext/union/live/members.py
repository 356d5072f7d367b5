"""Which notebooks make up the union now, and the prefix each one serves under.

A member is a notebook whose kernel serves tools (a live discovery file of one of this Jupyter
server's kernels). Prefixes are assigned over the notebooks that served and still have a session,
so a notebook restarting its kernel keeps its place: names are keyed by the notebook's path, never
by its kernel, and survive restarts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

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
