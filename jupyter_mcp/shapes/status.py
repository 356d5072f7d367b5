"""What a kernel's tool server says about itself (``GET /status``): its one typed definition.

``tools/protocol/status.py`` builds it; the server extension validates a kernel's reply against it
and passes its entries through to the REST API (``rest.ServerEntry``); the notebook widgets show the
same waiting calls.
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

RunOn = Literal["worker", "main"]
KernelCarrier = Literal["http", "kernel"]
"""What carries the Jupyter server's requests to a kernel's server (``rest.CarrierName`` names one more)."""
WaitKind = Literal["approval", "question"]
ConnectionKind = Literal["session", "listener", "requests"]
"""How a client talks: a 2025-era ``"session"``; in the 2026 era, a ``"listener"`` stream or plain ``"requests"``."""


class Counts(TypedDict):
    """A component's counters since the kernel started."""

    calls: int
    """Calls of a tool, reads of a resource, gets of a prompt."""
    errors: int
    refused: int
    """Turned away by the notebook user, the pause or a read-only limit."""
    running: int
    mean_duration: float | None
    """Seconds, over the finished ones; ``null`` before the first."""


class ComponentEntry(Counts):
    """What every kind of component says."""

    name: str
    title: str | None
    description: str | None
    enabled: bool
    tags: list[str]


class ToolEntry(ComponentEntry):
    """A tool and its counters."""

    run_on: RunOn
    """Where its calls run: a worker thread (or the event loop, for ``async def``), or the kernel's main thread."""


class ResourceEntry(ComponentEntry):
    """A resource or resource template and its counters (``calls`` are reads)."""

    uri: str
    """The URI, or the URI template of a template."""
    template: bool
    mime_type: str | None


class PromptEntry(ComponentEntry):
    """A prompt, its argument names and its counters (``calls`` are gets)."""

    arguments: list[str]


class ClientEntry(TypedDict):
    """An MCP client that has talked to a server (a kernel's, or the Jupyter server's ``/mcp``): the one shape
    of a connected client, in ``GET /status``, the REST API, the panels and ``%mcp clients``."""

    name: str
    version: str
    protocol_version: str
    since: float
    """When it was first seen (epoch seconds)."""
    last_seen: float
    kind: ConnectionKind


class WaitEntry(TypedDict):
    """Something waiting for the notebook user: a call to approve or a tool's question."""

    kind: WaitKind
    id: str
    tool: str
    client: str | None
    asked_at: float


class ApprovalDetail(TypedDict):
    """What a call waiting for approval will do, shown beside it: an edit's diff or the code it runs."""

    kind: Literal["diff", "code"]
    title: str
    """One line: ``Edit of analysis.ipynb (2 operations)``, ``Run of 1 cell in analysis.ipynb``."""
    text: str


class PendingEntry(WaitEntry):
    """A client's call waiting for the notebook user's approval."""

    arguments: dict[str, Any]
    call: str
    """The call as every view writes it: ``reset_sales(region='north')``."""
    detail: ApprovalDetail | None
    """What the call will do, when its tool says (the notebook tools show an edit's diff, a run's code)."""


class QuestionEntry(WaitEntry):
    """A tool's question for the notebook user (``ctx.ask_notebook_user``), waiting for an answer."""

    message: str
    schema: dict[str, Any]
    """The form's JSON schema (an object whose properties are the fields)."""


class ServerStatus(TypedDict):
    """A kernel's ``GET /status``: what it serves and who uses it."""

    name: str
    version: str
    tools: list[ToolEntry]
    resources: list[ResourceEntry]
    prompts: list[PromptEntry]
    clients: list[ClientEntry]
    listeners: int
    """Open 2026-era ``subscriptions/listen`` streams."""
    calls: int
    paused: bool
    """The notebook user paused all tools: client calls are refused."""
    pending: list[PendingEntry]
    questions: list[QuestionEntry]
    read_only_clients: list[str]


class NotebookStatus(ServerStatus):
    """A notebook's server says where it runs, too."""

    kernel_id: str
    notebook_path: str | None
    url: str | None
    """Its loopback address; ``null`` when it serves over the kernel's own messaging only."""
    transport: KernelCarrier | None
    """What carries the Jupyter server's requests (``rest.CarrierName``); ``null`` while stopped."""
    started: float | None
    pid: int
