"""The notebook user's say over client calls: confirmation, the kill switch, read-only clients.

``CallPath`` admits every client call of a tool through ``Approvals.admit`` (calls made from the
notebook itself are the user's own and pass). A tool that needs confirmation waits as a
``PendingCall`` until someone allows or denies it (a cell, the panel, JupyterLab) or the wait runs
out; a denial is a ``ToolError`` the client sees, and the function is never called. A host with no
notebook user (``jupyter-mcp serve``) sets ``unattended``: such calls are then refused at once, or
run unasked when the person starting it opted in (``serve --no-confirm``), instead of waiting.

Example::

    server.pending                  # [PendingCall('reset_sales', client 'claude-ai', ...)]
    server.pending[0].allow()       # or .allow(minutes=10), .deny("not now")
    server.pause(); server.resume()
    server.limit_client("claude-ai", read_only=True)
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import mcp_types as mt

from jupyter_mcp.shapes.status import ApprovalDetail
from jupyter_mcp.tools import signedin
from jupyter_mcp.tools.approvals.waits import NotebookQuestion, PendingCall
from jupyter_mcp.tools.calls.context import CallScope, Context
from jupyter_mcp.tools.calls.events import Decision, Verdict, Via
from jupyter_mcp.tools.errors import ToolError
from jupyter_mcp.tools.observers import Observers
from jupyter_mcp.tools.settings import ConfirmPolicy, ServerSettings

if TYPE_CHECKING:
    from jupyter_mcp.tools.components.tool import Tool

Unattended = Literal["refuse", "run"]
"""What a host with no notebook user does with calls that need approval (``Approvals.unattended``)."""

WAITING_MESSAGE = "waiting for approval in the notebook"
"""The progress message a client sees while its call waits for the notebook user."""

ASKING_MESSAGE = "waiting for the notebook user's answer"
"""The progress message a client sees while a tool waits for ``ctx.ask_notebook_user``."""

APPROVAL_WAIT = {"approval": "notebook/approve"}
QUESTION_WAIT = {"question": "notebook/answer"}
"""What a call waits for while the notebook user decides or answers (the history's ``waiting``, as for a
client's input requests): the call's status is ``waiting`` meanwhile, not ``running``."""

ApprovalListener = Callable[[], None]
DecisionListener = Callable[[str, "Decision"], None]


class Until(float):
    """A wall-clock time (seconds since the epoch) that shows as one: ``until 14:32:05 (9 min left)``."""

    def __repr__(self) -> str:
        left = max(0, round(self - time.time()))
        minutes, seconds = divmod(left, 60)
        remaining = f"{minutes} min left" if minutes else f"{seconds} s left"
        return f"until {time.strftime('%H:%M:%S', time.localtime(self))} ({remaining})"


@dataclass
class _Running:
    loop: asyncio.AbstractEventLoop
    cancel: asyncio.Timeout | None
    """An async tool's scope (asyncio's own: no deadline until the pause), which the pause cancels;
    ``None`` for a sync tool (its thread runs on)."""
    scope: CallScope


@dataclass
class Approvals:
    """Confirmation, pause and per-client limits for client calls (one per server)."""

    settings: ServerSettings = field(default_factory=ServerSettings)
    """Where ``confirm`` and ``approval_timeout`` are read (the server's settings)."""
    paused: bool = False
    unattended: Unattended | None = None
    """Set by a host with no notebook user (``jupyter-mcp serve``): calls that need approval are refused
    at once (``"refuse"``) or run unasked (``"run"``, the person's explicit opt-in), and questions for the
    notebook user are cancelled at once; ``None`` (a notebook is open) waits for the user."""
    admin_token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    """What the approval routes ask for besides the MCP token: the notebook's side has it, clients do not."""
    _pending: dict[str, PendingCall] = field(default_factory=dict)
    _permissions: dict[str, float] = field(default_factory=dict)
    _read_only: set[str] = field(default_factory=set)
    _running: dict[str, _Running] = field(default_factory=dict)
    _questions: dict[str, NotebookQuestion] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    changes: Observers[ApprovalListener] = field(default_factory=lambda: Observers(__name__))
    """Told (no arguments) whenever the pending list, the pause or a limit changes."""
    decisions: Observers[DecisionListener] = field(default_factory=lambda: Observers(__name__))
    """Told ``(call_id, Decision)`` for every call that needed a decision."""

    @property
    def confirm(self) -> ConfirmPolicy:
        """Which tools wait for approval besides ``confirm=True`` ones (the server's ``confirm`` setting)."""
        return self.settings.confirm

    @confirm.setter
    def confirm(self, value: ConfirmPolicy) -> None:
        self.settings.confirm = value

    @property
    def timeout(self) -> float:
        """Seconds a call waits for the notebook user before it is denied (``approval_timeout``)."""
        return self.settings.approval_timeout

    # ---- what the notebook user sees and does ----------------------------------------------------

    @property
    def pending(self) -> list[PendingCall]:
        """Calls waiting for the notebook user, oldest first."""
        with self._lock:
            return list(self._pending.values())

    @property
    def questions(self) -> list[NotebookQuestion]:
        """Tools' questions waiting for the notebook user (``ctx.ask_notebook_user``), oldest first."""
        with self._lock:
            return list(self._questions.values())

    async def ask(self, scope: CallScope, message: str, schema: dict[str, Any]) -> mt.ElicitResult:
        """Put a tool's question to the notebook user; ``cancel`` when nobody answers within ``timeout``."""
        if self.unattended is not None:
            return mt.ElicitResult(action="cancel")  # nobody is there to answer
        client = scope.client.name if scope.client is not None else None
        question = NotebookQuestion(scope.call_id, scope.tool_name, message, schema, client)
        with self._lock:
            self._questions[question.id] = question
        self._changed()
        scope.waiting_note = ASKING_MESSAGE
        scope.on_input(QUESTION_WAIT)
        try:
            await Context(scope).report_progress(0, None, ASKING_MESSAGE)
            return await question.result(self.timeout)
        finally:
            scope.waiting_note = None
            scope.on_input({})
            with self._lock:
                self._questions.pop(question.id, None)
            self._changed()

    def find(self, call_id: str) -> PendingCall | None:
        with self._lock:
            return self._pending.get(call_id)

    def find_question(self, call_id: str) -> NotebookQuestion | None:
        with self._lock:
            return self._questions.get(call_id)

    def pause(self) -> None:
        """Refuse every new client call; cancel the async ones running; deny the waiting ones."""
        with self._lock:
            self.paused = True
            running, waiting = list(self._running.values()), list(self._pending.values())
        for pending in waiting:
            pending.deny(via="pause")
        for run in running:
            run.scope.cancel_event.set()
            if run.cancel is not None:
                run.loop.call_soon_threadsafe(_expire, run.cancel, run.loop)
        self._changed()

    def resume(self) -> None:
        """Serve client calls again after ``pause()``."""
        with self._lock:
            self.paused = False
        self._changed()

    def limit_client(self, name: str, *, read_only: bool = True) -> None:
        """Limit client ``name`` to tools marked read-only (``read_only=False`` lifts the limit)."""
        with self._lock:
            (self._read_only.add if read_only else self._read_only.discard)(name)
        self._changed()

    @property
    def read_only_clients(self) -> set[str]:
        with self._lock:
            return set(self._read_only)

    def permissions(self) -> dict[str, Until]:
        """Client name -> when its "allow for N minutes" ends (wall clock), for those still running."""
        now = time.time()
        with self._lock:
            return {name: Until(until) for name, until in self._permissions.items() if until > now}

    def needs_confirm(self, tool: Tool) -> bool:
        """Whether a client's call of ``tool`` waits for the notebook user."""
        if tool.confirm is not None:
            return tool.confirm
        destructive = tool.annotations is not None and bool(tool.annotations.destructive_hint)
        return self.confirm == "always" or (self.confirm == "destructive" and destructive)

    # ---- the call path's hook --------------------------------------------------------------------

    @asynccontextmanager
    async def admit(self, tool: Tool, arguments: dict[str, Any], scope: CallScope) -> AsyncIterator[None]:
        """Around a client's call of ``tool``: refuse, wait for the notebook user, or let it run."""
        scope.notebook_user = self
        if scope.request is None:  # a call from the notebook itself: the user's own
            yield
            return
        client = scope.client.name if scope.client is not None else None
        self._refuse_if_limited(tool, client, scope.call_id)
        if self.needs_confirm(tool):
            await self._confirm(tool.name, arguments, scope, client)
        # A thread cannot be cancelled: for a sync tool the pause only sets the call's cancel event.
        cancel = asyncio.timeout(None) if tool.is_async else None
        try:
            async with cancel if cancel is not None else nullcontext():
                self._track(scope, cancel)
                try:
                    yield
                finally:
                    self._untrack(scope)
        except TimeoutError:
            if cancel is not None and cancel.expired():
                raise ToolError(f"Tool {tool.name!r} was cancelled: the notebook user paused all tools") from None
            raise

    def _refuse_if_limited(self, tool: Tool, client: str | None, call_id: str) -> None:
        # A refusal is the notebook user's decision, recorded as one (views count it apart from errors).
        if self.paused:
            self._decided(call_id, Decision("denied", "pause", time.time()))
            raise ToolError("All tools are paused by the notebook user; try again later")
        hints = tool.annotations
        if hints is not None and hints.read_only_hint:
            return
        if client in self.read_only_clients:
            self._decided(call_id, Decision("denied", "limit", time.time()))
            raise ToolError(
                f"The notebook user limited client {client!r} to read-only tools, "
                f"and {tool.name!r} is not marked read-only"
            )
        grant = signedin.current.get()
        if grant is not None and grant["read_only"]:
            self._decided(call_id, Decision("denied", "limit", time.time()))
            raise ToolError(
                f"{client!r} signed in with Jupyter for read-only tools, and {tool.name!r} is not marked "
                "read-only (the Jupyter user can allow more by signing the client in again)"
            )

    def _track(self, scope: CallScope, cancel: asyncio.Timeout | None) -> None:
        with self._lock:
            self._running[scope.call_id] = _Running(asyncio.get_running_loop(), cancel, scope)

    def _untrack(self, scope: CallScope) -> None:
        with self._lock:
            self._running.pop(scope.call_id, None)

    async def approve(self, scope: CallScope, arguments: dict[str, Any], detail: ApprovalDetail | None) -> None:
        """A running tool asks the notebook user to allow what it is about to do (``ctx.ask_approval``): returns
        once allowed; a denial or a timeout is a ``ToolError``. A call from the notebook itself passes."""
        if scope.request is None:
            return
        client = scope.client.name if scope.client is not None else None
        await self._confirm(scope.tool_name, arguments, scope, client, detail)

    async def _confirm(
        self,
        name: str,
        arguments: dict[str, Any],
        scope: CallScope,
        client: str | None,
        detail: ApprovalDetail | None = None,
    ) -> None:
        started = time.time()
        if self.unattended is not None:
            verdict: Verdict = "allowed" if self.unattended == "run" else "denied"
            self._decided(scope.call_id, Decision(verdict, "unattended", started))
            if verdict == "denied":
                raise ToolError(_denial(name, "unattended", None))
            return
        if client is not None and self.permissions().get(client, 0) > started:
            self._decided(scope.call_id, Decision("allowed", "permission", started))
            return
        pending = PendingCall(scope.call_id, name, arguments, client, detail)
        with self._lock:
            self._pending[pending.id] = pending
        self._changed()
        scope.waiting_note = WAITING_MESSAGE
        scope.on_input(APPROVAL_WAIT)
        try:
            await Context(scope).report_progress(0, None, WAITING_MESSAGE)
            verdict, via, reason, minutes = await pending.answer(self.timeout)
        finally:
            scope.waiting_note = None
            scope.on_input({})
            with self._lock:
                self._pending.pop(pending.id, None)
            self._changed()
        now = time.time()
        self._decided(scope.call_id, Decision(verdict, via, now, reason, now - started))
        if verdict == "denied":
            raise ToolError(_denial(name, via, reason))
        if minutes is not None and client is not None:
            with self._lock:
                self._permissions[client] = now + minutes * 60
            self._changed()

    def _decided(self, call_id: str, decision: Decision) -> None:
        self.decisions.each(lambda listener: listener(call_id, decision))

    def _changed(self) -> None:
        self.changes.each(lambda listener: listener())


def _denial(tool: str, via: Via, reason: str | None) -> str:
    if via == "unattended":
        return (
            f"Tool {tool!r} needs the notebook user's approval, but this server runs the notebook without anyone "
            "at it (jupyter-mcp serve), so nobody can approve the call: it was refused. Whoever starts the "
            "server can add --no-confirm to run such tools unasked"
        )
    if via == "timeout":
        return f"The notebook user did not answer in time ({reason}), so the call of {tool!r} was declined"
    if via == "pause":
        return f"The call of {tool!r} was declined: the notebook user paused all tools"
    return f"The notebook user declined the call of {tool!r}" + (f": {reason}" if reason else "")


def _expire(cancel: asyncio.Timeout, loop: asyncio.AbstractEventLoop) -> None:
    """Cancel a running async tool now (on its loop), unless its call has ended meanwhile."""
    if not cancel.expired():
        with contextlib.suppress(RuntimeError):  # the scope was left: the call ended before the pause reached it
            cancel.reschedule(loop.time())
