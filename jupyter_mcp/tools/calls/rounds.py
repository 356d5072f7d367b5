"""Input rounds (2026 era): a call that needs the client's input answers ``input_required`` and waits.

A notebook's server is one long-lived process, so the tool's coroutine (or its worker thread)
simply stays suspended between the client's requests. ``requestState`` names the suspended call
and its round; the SDK's ``RequestStateBoundary`` seals it with a per-server key (bound to the
tool's name and arguments, with an expiry) before it leaves, and unseals it when it comes back.
A round's state is good once: a replayed or unknown state is the spec's invalid-state error.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import mcp_types as mt
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.shared.exceptions import MCPError

from jupyter_mcp.tools.calls.run import CallRun
from jupyter_mcp.tools.settings import ServerSettings

logger = logging.getLogger(__name__)


def state_boundary(server_name: str, ttl: float) -> RequestStateBoundary:
    """Server middleware sealing ``requestState`` under a key this process alone holds."""
    return RequestStateBoundary(RequestStateSecurity.ephemeral(ttl=ttl), default_audience=server_name)


def invalid_state() -> MCPError:
    """The error for a state this server cannot resume (the SDK's own wording and data)."""
    return MCPError(
        code=mt.INVALID_PARAMS,
        message="Invalid or expired requestState",
        data={"reason": "invalid_request_state"},
    )


@dataclass
class _Waiting:
    run: CallRun[Any]
    tool: str
    round: int
    timer: asyncio.TimerHandle


class InputRounds:
    """Calls waiting for a client's answers, each resumable once per round, expiring after ``input_timeout``."""

    def __init__(self, settings: ServerSettings | None = None) -> None:
        self.settings = settings or ServerSettings()
        self._parked: dict[str, _Waiting] = {}
        self._rounds: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._parked)

    def park(self, run: CallRun[Any], tool: str) -> str:
        """Keep ``run`` until its client retries; returns the (unsealed) ``requestState``."""
        number = self._rounds.get(run.call_id, 0) + 1
        self._rounds[run.call_id] = number
        timer = asyncio.get_running_loop().call_later(self.settings.input_timeout, self._expire, run.call_id, number)
        self._parked[run.call_id] = _Waiting(run, tool, number, timer)
        run.task.add_done_callback(lambda _: self._forget(run.call_id))
        return f"{run.call_id}/{number}"

    def peek(self, state: str, tool: str) -> CallRun[Any]:
        """The call ``state`` resumes; ``invalid_state()`` unless it is parked at that round."""
        call_id, _, number = state.rpartition("/")
        parked = self._parked.get(call_id)
        if parked is None or str(parked.round) != number or parked.tool != tool:
            logger.warning("requestState for call %r round %r is not resumable", call_id, number)
            raise invalid_state()
        return parked.run

    def take(self, run: CallRun[Any]) -> None:
        """The client answered: ``run`` is no longer parked (its state is spent)."""
        parked = self._parked.pop(run.call_id, None)
        if parked is not None:
            parked.timer.cancel()

    def _expire(self, call_id: str, number: int) -> None:
        parked = self._parked.get(call_id)
        if parked is not None and parked.round == number:
            del self._parked[call_id]
            parked.run.expire(self.settings.input_timeout)

    def _forget(self, call_id: str) -> None:
        self._rounds.pop(call_id, None)
        parked = self._parked.pop(call_id, None)
        if parked is not None:
            parked.timer.cancel()

    def expire_all(self) -> None:
        """Stop every waiting call (the server is stopping)."""
        for call_id in list(self._parked):
            self._expire(call_id, self._parked[call_id].round)
