"""What waits for the notebook user: a client's call for approval (``PendingCall``) and a tool's
question (``NotebookQuestion``), one ``NotebookWait`` each.

A wait belongs to one call (its ``id`` is the call's id), names the tool and the client, is
settled once from any thread (a cell, the panel, JupyterLab through the approval routes) and, when
nobody settles it in time, ends the way its kind says (a denial; a cancelled question).
``describe()`` is its cross-process shape (``kind`` tells the two apart).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Generic, TypeVar

import mcp_types as mt

from jupyter_mcp.shapes.status import ApprovalDetail, PendingEntry, QuestionEntry, WaitEntry, WaitKind
from jupyter_mcp.tools.calls.calltext import call_text
from jupyter_mcp.tools.calls.events import Verdict, Via

_A = TypeVar("_A")

Decided = tuple[Verdict, Via, str | None, float | None]
"""A decision as the waiting call reads it: verdict, who, the reason, minutes of standing permission."""


class NotebookWait(Generic[_A]):
    """One call waiting for the notebook user until ``_settle(answer)`` (thread-safe) or its time runs out."""

    kind: WaitKind

    def __init__(self, call_id: str, tool: str, client: str | None) -> None:
        self.id = call_id
        self.tool = tool
        self.client = client
        self.asked_at = time.time()
        self._loop = asyncio.get_running_loop()
        self._answer: asyncio.Future[_A] = self._loop.create_future()

    @property
    def decided(self) -> bool:
        return self._answer.done()

    def _settle(self, answer: _A) -> None:
        """Give the waiting call its answer, from any thread; the first answer wins."""

        def settle() -> None:
            if not self._answer.done():
                self._answer.set_result(answer)

        self._loop.call_soon_threadsafe(settle)

    async def _wait(self, within: float, otherwise: _A) -> _A:
        try:
            return await asyncio.wait_for(asyncio.shield(self._answer), within)
        except TimeoutError:
            return otherwise

    def describe(self) -> WaitEntry:
        """What every view of it needs (the status, the REST API, the widgets)."""
        return {"kind": self.kind, "id": self.id, "tool": self.tool, "client": self.client, "asked_at": self.asked_at}


class PendingCall(NotebookWait[Decided]):
    """A client's call waiting for the notebook user; ``allow()`` or ``deny(reason)`` it from any thread."""

    kind: WaitKind = "approval"

    def __init__(
        self,
        call_id: str,
        tool: str,
        arguments: dict[str, Any],
        client: str | None,
        detail: ApprovalDetail | None = None,
    ) -> None:
        super().__init__(call_id, tool, client)
        self.arguments = arguments
        self.detail = detail

    def allow(self, *, minutes: float | None = None, via: Via = "cell") -> None:
        """Let the call run; ``minutes=N`` also lets this client's next calls run unasked for N minutes."""
        if minutes is not None and not minutes > 0:
            raise ValueError(f"minutes must be a positive number, got {minutes!r}")
        self._settle(("allowed", via, None, minutes))

    def deny(self, reason: str | None = None, *, via: Via = "cell") -> None:
        """Refuse the call; the client gets a tool error saying the notebook user declined (and ``reason``)."""
        self._settle(("denied", via, reason or None, None))

    async def answer(self, within: float) -> Decided:
        """The decision, or a denial by ``timeout`` after ``within`` seconds."""
        return await self._wait(within, ("denied", "timeout", f"no answer within {within:g} s", None))

    def describe(self) -> PendingEntry:
        call = call_text(self.tool, self.arguments)
        return {**super().describe(), "arguments": self.arguments, "call": call, "detail": self.detail}

    def __repr__(self) -> str:
        return f"PendingCall({self.tool!r}, client {self.client!r}, arguments {self.arguments!r})"


class NotebookQuestion(NotebookWait[mt.ElicitResult]):
    """A tool's question for the notebook user (``ctx.ask_notebook_user``); ``answer(values)`` or ``decline()``."""

    kind: WaitKind = "question"

    def __init__(self, call_id: str, tool: str, message: str, schema: dict[str, Any], client: str | None) -> None:
        super().__init__(call_id, tool, client)
        self.message = message
        self.schema = schema

    def answer(self, values: dict[str, Any]) -> None:
        """Send ``values`` (the form's fields) back to the waiting tool (from any thread)."""
        self._settle(mt.ElicitResult(action="accept", content=dict(values)))

    def decline(self) -> None:
        """Tell the waiting tool the notebook user would rather not answer."""
        self._settle(mt.ElicitResult(action="decline"))

    async def result(self, within: float) -> mt.ElicitResult:
        """The answer, or ``cancel`` when nobody answered within ``within`` seconds."""
        return await self._wait(within, mt.ElicitResult(action="cancel"))

    def describe(self) -> QuestionEntry:
        return {**super().describe(), "message": self.message, "schema": self.schema}

    def __repr__(self) -> str:
        return f"NotebookQuestion({self.message!r}, from tool {self.tool!r})"
