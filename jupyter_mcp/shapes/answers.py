"""What JupyterLab sends to answer the notebook user's side, and what it gets back.

The kernel's own routes (``POST /approvals/<call id>``, ``/questions/<call id>``, ``/pause``,
``/limits``) take these; the server extension forwards JupyterLab's clicks to them unchanged.
"""

from __future__ import annotations

from typing import Any, Literal, Required

from typing_extensions import TypedDict


class ApprovalAnswer(TypedDict, total=False):
    """What JupyterLab sends for a waiting call."""

    decision: Required[Literal["allow", "deny"]]
    reason: str | None
    """Deny only: the client sees it."""
    minutes: float | None
    """Allow only: this client's next calls run unasked for this long."""


class QuestionReply(TypedDict, total=False):
    """What JupyterLab sends for a tool's question to the notebook user."""

    action: Required[Literal["accept", "decline"]]
    content: dict[str, Any]
    """Accept only: the form's values, checked against the question's schema."""


class ClientLimit(TypedDict):
    """What JupyterLab sends to limit a client to read-only tools (or lift the limit)."""

    client: str
    read_only: bool


class PauseSwitch(TypedDict):
    """What JupyterLab sends to pause all tools (or resume them)."""

    paused: bool


class Settled(TypedDict):
    """The answer to a waiting call or question was taken."""

    ok: bool


class PauseState(TypedDict):
    """Whether the tools are paused now."""

    paused: bool


class ReadOnlyClients(TypedDict):
    """The clients limited to read-only tools now."""

    read_only_clients: list[str]
