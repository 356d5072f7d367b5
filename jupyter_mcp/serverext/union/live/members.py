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
from jupyter_mcp.prefixes import Assignment, Claim, assign, tool_name
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
    bare: bool = False
    """Its tool and prompt names go without the prefix (the notebook tools, run by the Jupyter server itself:
    ``jupyter_read``); its URIs and task ids carry it all the same, to be routed back."""

    def named(self, name: str) -> str:
        """The name clients see for one of its tools or prompts."""
        return name if self.bare else tool_name(self.prefix, name)

    @property
    def identity(self) -> tuple[object, ...]:
        """Changes when another kernel process serves the notebook (a restart), even on the same port."""
        return (self.info.kernel_id, self.info.pid, self.info.started, self.info.url)

    @property
    def label(self) -> str:
        """How messages name it: ``sales.ipynb``, ``kernel 1a2b3c4d``, or ``the notebook tools``."""
        if self.bare:
            return "the notebook tools"
        return self.notebook or f"kernel {self.info.kernel_id[:8]}"

    @property
    def name(self) -> str:
        """The notebook's file name (``sales.ipynb``), for titles."""
        return PurePosixPath(self.notebook).name if self.notebook else self.label


def member_key(located: Located) -> str:
    if _own(located):
        return located.info.kernel_id
    return located.notebook_path or f"kernel-{located.info.kernel_id[:8]}"


def _own(located: Located) -> bool:
    """A server the Jupyter server runs itself (its tool names go bare; its prefix is reserved)."""
    return located.carrier.name == "server"


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
        located = _newest_per_notebook(item for item in serving if not _own(item))
        own = {member_key(item): item for item in serving if _own(item)}
        sessions = set((await self.directory.notebook_paths()).values())
        self._remember(located, sessions)
        assignments = assign((Claim(key, name) for key, name in self._known.items()), self.directory.reserved)
        members = {key: _member(key, item, assignments.get(key)) for key, item in located.items()}
        for key, item in own.items():
            members[key] = Member(key, None, item.info, item.carrier, item.info.name or key, bare=True)
        return members

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
