"""Agents at work in notebooks: each shown as a collaborator in the notebook, each with its own undo.

An agent is an MCP client (by ``identity.agent_name``) that read, edited or ran a notebook. While it
works there (and ``PRESENT`` seconds after), the notebook's shared document carries an awareness state
for it, as a person's browser does (a name, initials and a colour under ``user``), so JupyterLab's
collaboration views list it; the state is renewed before y-protocols' 30 s timeout drops it, and
withdrawn when the agent goes quiet. Its edits are transactions tagged with its own origin, and a pycrdt
``UndoManager`` that tracks only that origin lets the notebook user take back its last change without
touching their own (or another agent's) edits, made before or after.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from jupyter_mcp.serverext.notebooks.documents import Documents
from jupyter_mcp.shapes.notebooks import AgentEntry

logger = logging.getLogger(__name__)

PRESENT = 60.0
"""Seconds an agent stays shown in a notebook after its last call there."""
RENEW = 10.0
"""Seconds between renewals of the agents' awareness states (JupyterLab drops a state after 30 s)."""
_COLORS = tuple(f"var(--jp-collaborator-color{n})" for n in range(1, 8))


@dataclass
class Agent:
    """One client at work in one notebook."""

    name: str
    path: str
    since: float = field(default_factory=time.time)
    last_seen: float = field(default_factory=time.time)
    client_id: int = field(default_factory=lambda: secrets.randbits(31))
    clock: int = 0
    shown: bool = False
    undo: Any = None
    """The pycrdt ``UndoManager`` of its edits, and the document it tracks."""
    document: Any = None

    @property
    def origin(self) -> str:
        """The transaction origin of its edits."""
        return f"jupyter-mcp:agent:{self.name}"

    def edits(self, room: Any | None) -> int:
        """Its edits it can still take back in the notebook's open document ``room``: none once the document it
        edited was closed (a closed notebook's edits are history, as JupyterLab's own undo is)."""
        if self.undo is None or room is None or self.document.ydoc is not room.ydoc:
            return 0
        return len(self.undo.undo_stack)


class Agents:
    """Every agent at work, by (name, notebook)."""

    def __init__(self, documents: Documents) -> None:
        self.documents = documents
        self._agents: dict[tuple[str, str], Agent] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def entries(self) -> list[AgentEntry]:
        return [self._entry(agent) for agent in sorted(self._agents.values(), key=lambda a: (a.path, a.name))]

    def _entry(self, agent: Agent) -> AgentEntry:
        return {
            "name": agent.name,
            "notebook_path": agent.path,
            "since": agent.since,
            "last_seen": agent.last_seen,
            "edits": self._undoable(agent),
        }

    def _undoable(self, agent: Agent) -> int:
        """``agent``'s edits it can still take back (``Agent.edits`` in its notebook's open document)."""
        return agent.edits(self.documents.room(agent.path))

    def in_notebook(self, path: str) -> list[str]:
        return sorted(agent.name for agent in self._agents.values() if agent.path == path)

    async def seen(self, name: str, path: str) -> Agent:
        """``name`` works in ``path`` now: shown there (with collaboration), remembered for the sidebar."""
        agent = self._agents.get((name, path))
        if agent is None:
            agent = self._agents[(name, path)] = Agent(name, path)
        agent.last_seen = time.time()
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        await self._show(agent)
        return agent

    def editing(self, agent: Agent, document: Any) -> str:
        """Ready ``agent``'s undo for an edit of ``document`` (before it is made); the origin to tag it with."""
        from pycrdt import UndoManager

        if agent.document is not document:
            agent.undo = UndoManager(scopes=[document.ycells], capture_timeout_millis=0)
            agent.undo.include_origin(agent.origin)
            agent.document = document
        return agent.origin

    async def undo(self, name: str, path: str) -> bool:
        """Take back ``name``'s last edit in ``path`` (theirs only); whether there was one."""
        agent = self._agents.get((name, path))
        if agent is None or not self._undoable(agent):
            return False  # none, or the notebook was closed since: its edits are history now
        return bool(agent.undo.undo())

    # ---- presence -------------------------------------------------------------------------------

    async def _show(self, agent: Agent) -> None:
        room = self.documents.room(agent.path)
        if room is not None:
            await _send(room, agent, _state(agent))
            agent.shown = True

    async def _hide(self, agent: Agent) -> None:
        room = self.documents.room(agent.path)
        if room is not None and agent.shown:
            await _send(room, agent, None)
        agent.shown = False

    async def _sweep(self) -> None:
        while self._agents:
            await asyncio.sleep(RENEW)
            now = time.time()
            for key, agent in list(self._agents.items()):
                try:
                    if now - agent.last_seen > PRESENT:
                        await self._hide(agent)
                        if not self._undoable(agent):
                            del self._agents[key]  # and with it the undo that held a closed document
                    elif agent.shown:
                        await self._show(agent)
                except Exception:  # one notebook's trouble must not stop the others' presence
                    logger.debug("could not update the presence of %s in %s", agent.name, agent.path, exc_info=True)

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()


def _state(agent: Agent) -> dict[str, Any]:
    words = [word for word in agent.name.replace("-", " ").replace("_", " ").split() if word]
    initials = "".join(word[0] for word in words[:2]).upper() or "AI"
    user = {
        "username": f"mcp:{agent.name}",
        "name": agent.name,
        "display_name": f"{agent.name} (MCP agent)",
        "initials": initials,
        "color": _COLORS[sum(map(ord, agent.name)) % len(_COLORS)],
        "avatar_url": None,
    }
    return {"user": user, "jupyter_mcp": {"agent": agent.name}}


async def _send(room: Any, agent: Agent, state: dict[str, Any] | None) -> None:
    """Set (or, with ``None``, withdraw) the agent's awareness state in the room and tell its browsers."""
    from pycrdt import Encoder, create_awareness_message

    agent.clock += 1
    encoder = Encoder()
    encoder.write_var_uint(1)
    encoder.write_var_uint(agent.client_id)
    encoder.write_var_uint(agent.clock)
    encoder.write_var_string(json.dumps(state, separators=(",", ":")) if state is not None else "null")
    update = encoder.to_bytes()
    room.awareness.apply_awareness_update(update, "jupyter-mcp")
    message = create_awareness_message(update)
    for client in list(room.clients):
        with contextlib.suppress(Exception):  # a browser that just left
            await client.send(message)
