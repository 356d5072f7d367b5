"""``InputGate``: where a call's questions wait for the client's answers (2026 era and tasks).

A tool asks (``await gate.ask(request)``) and is suspended; whoever drives the call sees the
pending requests (``pending()``), hands them to the client (an ``InputRequiredResult`` or a
task's ``inputRequests``) and later delivers the answers (``answer()``). Requests asked together
(``asyncio.gather``) are pending together. Lives on the serving loop; not thread-safe.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

import mcp_types as mt
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from jupyter_mcp.tools.calls.inputs import Capability, InputRequest, InvalidAnswer

PendingListener = Callable[[dict[str, InputRequest]], None]


class KeyRing:
    """Input request keys, unique over a call's lifetime (the tasks extension requires it)."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._counts: dict[str, int] = {}

    def claim(self, preferred: str | None, capability: Capability) -> str:
        if preferred is None:
            self._counts[capability] = self._counts.get(capability, 0) + 1
            preferred = f"{capability}-{self._counts[capability]}"
        key, suffix = preferred, 1
        while key in self._used:
            suffix += 1
            key = f"{preferred}-{suffix}"
        self._used.add(key)
        return key


class InputGate:
    """Pending input requests of one call and the answers that resume it."""

    def __init__(self, answers: Mapping[str, Any] | None = None) -> None:
        self._answers: dict[str, Any] = dict(answers or {})
        """Answers given before the question was asked (a first request may carry them)."""
        self._pending: dict[str, tuple[InputRequest, asyncio.Future[BaseModel]]] = {}
        self._listeners: list[PendingListener] = []

    def listen(self, listener: PendingListener) -> Callable[[], None]:
        """Call ``listener(pending)`` whenever the pending requests change; returns what stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    async def ask(self, request: InputRequest) -> BaseModel:
        """The client's answer to ``request``, once it arrives."""
        if request.key in self._answers:
            return _read(request, self._answers.pop(request.key))
        future: asyncio.Future[BaseModel] = asyncio.get_running_loop().create_future()
        self._pending[request.key] = (request, future)
        self._notify()
        try:
            return await future
        finally:
            if self._pending.pop(request.key, None) is not None:
                self._notify()

    def pending(self) -> dict[str, InputRequest]:
        return {key: request for key, (request, _) in self._pending.items()}

    def wire(self) -> dict[str, Any]:
        """The pending requests as an ``inputRequests`` map."""
        return {key: request.wire() for key, (request, _) in self._pending.items()}

    def answer(self, responses: Mapping[str, Any]) -> list[str]:
        """Deliver answers to pending requests; returns the keys still unanswered.

        Keys that are not pending are ignored (the spec's SHOULD). An answer of the wrong shape
        is refused, before any answer is delivered, with -32602 naming the key.
        """
        ready = {key: _read(request, responses[key]) for key, (request, _) in self._pending.items() if key in responses}
        for key, answer in ready.items():
            _, future = self._pending.pop(key)
            future.set_result(answer)
        if ready:
            self._notify()
        return list(self._pending)

    def fail(self, error: BaseException) -> None:
        """Every pending question raises ``error`` in the tool (the call expired or was cancelled)."""
        for _, future in self._pending.values():
            if not future.done():
                future.set_exception(error)

    def _notify(self) -> None:
        snapshot = self.pending()
        for listener in self._listeners:
            listener(snapshot)


def _read(request: InputRequest, answer: Any) -> BaseModel:
    try:
        return request.read_answer(answer)
    except InvalidAnswer as exc:
        raise MCPError(code=mt.INVALID_PARAMS, message=str(exc)) from None
