"""What the notebook widgets send to the browser: their one typed definition (Python sends data, never HTML).

``labextension/src/ui/shapes.ts`` is generated from this module by ``scripts/labextension_types.py``
(a test fails when the two differ). The components in ``labextension/src/ui/`` draw these shapes in
the notebook widgets, and the same components draw the sidebar from the REST shapes (``rest``);
calls waiting for the notebook user are the kernel's own entries (``status``) in both.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from typing_extensions import TypedDict

from jupyter_mcp._version import __version__
from jupyter_mcp.shapes.status import PendingEntry, QuestionEntry

VERSION: Final[str] = __version__
"""The package's version: the JupyterLab extension's front end draws a kernel's views only when the kernel's
front-end model (``FrontEndState``) names this same one."""

ComponentKind = Literal["tool", "resource", "prompt"]
ComponentStatus = Literal["live", "disabled", "replaced", "removed"]
CallStatus = Literal["running", "waiting", "ok", "error", "timeout", "cancelled", "expired", "refused"]
"""A call as the views show it: a record's status, or ``refused`` for calls the notebook user (or the pause,
or a read-only limit) turned away."""


class Badge(TypedDict):
    """A small label in a card's header: a state, an annotation hint, a tag."""

    text: str
    kind: str
    """Which colour: ``live``, ``disabled``, ``replaced``, ``removed``, ``readonly``, ``destructive``,
    ``asks``, ``idempotent``, ``world``, ``task``, ``headers``, ``tag``, ``kind``, ``mime``."""
    title: str


class Component(TypedDict):
    """What a card shows about its tool, resource (template) or prompt."""

    kind: ComponentKind
    name: str
    title: str
    key: str
    """The tool's or prompt's name, the resource's URI (or URI template)."""
    status: ComponentStatus
    status_text: str
    badges: list[Badge]
    facts: str
    """A muted line of how it runs: ``worker thread · timeout 30 s``."""
    description: str
    input_schema: dict[str, Any] | None
    """Its parameters (a template's variables, a prompt's arguments); ``None`` when it takes none."""
    output_schema: dict[str, Any] | None
    show_schemas: bool
    """Whether the card offers the raw JSON schemas (tools)."""
    completions: list[str]
    """Arguments with a completer the user wrote (a ``Literal``'s own values are in its type)."""
    try_label: str
    """The try-it button's label (``Run``, ``Read``, ``Get``); ``""``: no try-it form."""


class CallRow(TypedDict):
    """One call as a row of a call list (the card's recent calls, the panel's history)."""

    id: str
    number: int
    time: str
    client: str
    kind: ComponentKind
    tool: str
    """The name called, or the URI read."""
    arguments: str
    """``query='t', limit=5``: the arguments as Python would write them (``call_text``), cut to fit."""
    duration: str
    status: CallStatus
    progress: float | None
    """Fraction done (0..1) of a running call that reported progress with a total."""
    progress_text: str
    """Progress of a running call, or what a waiting call waits for."""
    error: str
    """The last line of a failed call's error (empty when it only repeats the status)."""
    task: str
    """The task id when the call became a task (the tasks extension), else ``""``."""


class Outcome(TypedDict):
    """What a call returned: its error, structured result and content blocks (MCP's JSON)."""

    is_error: bool
    error: str
    structured: Any
    content: list[dict[str, Any]]


class TryResult(TypedDict):
    """A try-it run that finished."""

    status: Literal["ok", "error"]
    elapsed: str
    outcome: Outcome


class TryState(TypedDict):
    """The try-it form's run: nothing yet, running, or its result."""

    running: bool
    result: TryResult | None


class SentPreview(TypedDict):
    """Over the result budget: what the client got instead of the full value."""

    note: str
    uri: str
    content: list[dict[str, Any]]


class LogRow(TypedDict):
    time: str
    level: str
    logger: str
    message: str


class CallDetail(TypedDict):
    """Everything about one call, for the history's detail view."""

    row: CallRow
    protocol: str
    late: str
    decision: str
    """Who allowed or denied it, how and when (``""`` when it needed no decision)."""
    arguments: dict[str, Any]
    waiting: str
    outcome: Outcome | None
    """``None`` while the call runs."""
    preview: SentPreview | None
    traceback: str
    stdout: str
    stderr: str
    logs: list[LogRow]
    keep: Literal["no", "can", "kept"]
    """Whether a "Keep as test" button is offered, and whether the call is kept already."""
    keep_note: str


class Shown(TypedDict):
    """What a resource card previews (its newest read) or a prompt card shows (its newest get)."""

    note: str
    """Which URI or arguments, when and by whom."""
    content: list[dict[str, Any]]
    """Content blocks: ``resource`` blocks for a read, blocks with a ``role`` for a prompt's messages."""


class CardState(TypedDict):
    """A tool, resource or prompt card's synced state."""

    component: Component
    recent: list[CallRow]
    pending: list[PendingEntry]
    questions: list[QuestionEntry]
    tryit: TryState
    shown: Shown | None
    shown_empty: str
    """What the preview says before there is anything to show."""


class ComponentRow(TypedDict):
    """One tool, resource or prompt in the server panel's tables."""

    key: str
    """A tool's or prompt's name, a resource's URI (or URI template)."""
    kind: ComponentKind
    detail: str
    """A resource's MIME type, a prompt's arguments; empty for tools."""
    enabled: bool
    calls: int
    errors: int
    """Calls that failed (refused and cancelled ones are not errors)."""
    refused: int
    running: int
    mean_duration: str


class ClientRow(TypedDict):
    """One connected client (several sessions of one client are one row)."""

    name: str
    version: str
    era: str
    kind: str
    since: str
    sessions: int
    read_only: bool


class Connection(TypedDict):
    """Where clients connect; the token is here only once the notebook user reveals it."""

    url: str | None
    """The kernel's own endpoint, or (``channel``) its notebook's route on the Jupyter server."""
    channel: str
    """When the kernel opens no port: how clients reach it through the Jupyter server (empty otherwise)."""
    token: str | None
    revealed: bool
    client: str
    choices: list[list[str]]
    """``[label, client kind]`` pairs for the config picker."""
    where: str
    """Where to paste the config, with `code` in backticks."""
    config: str
    """The config text (the token masked until revealed)."""
    copy: str | None
    """What the Copy button copies; ``None`` when the token must be revealed first."""


class History(TypedDict):
    """The panel's call history: the listed rows, the filters, and the selected call's detail."""

    rows: list[CallRow]
    total: int
    shown: str
    """``showing 20 of 1,200 calls``."""
    more: bool
    kind: str
    tool: str
    status: str
    names: list[str]
    """The names and URIs the name filter offers."""
    statuses: list[str]
    selected: str | None


class Header(TypedDict):
    """The panel's first line."""

    url: str | None
    """The kernel's own endpoint (``None`` when it serves over the kernel's channel only, or not at all)."""
    channel: bool
    """Serving over the kernel's channel, with no port of its own (``JupyterMCP.transport = "kernel"``)."""
    paused: bool
    counts: str
    pausable: bool
    """Whether there are tools to pause (the pause refuses tool calls; reads and prompts go on)."""


class PanelState(TypedDict):
    """The server panel's synced state (one trait per key, ``connection`` and ``history`` synced as
    ``connection_state`` and ``history_state``: ``panel.connection`` and ``panel.history`` are their
    Python side)."""

    header: Header
    connection: Connection
    clients: list[ClientRow]
    components: dict[str, list[ComponentRow]]
    history: History
    detail: CallDetail | None
    """The selected call's detail."""
    pending: list[PendingEntry]
    questions: list[QuestionEntry]


class FrontEndState(TypedDict):
    """The kernel's front-end model, one per kernel, which every card and panel names (their ``_front_end``):
    the bundle that draws them where the page offers no front end of its own (no JupyterLab extension)."""

    bundle: str
    """The notebook widgets' ES module (``jupyter_mcp/widgets/static/widgets.js``, about 57 kB)."""
    version: str
    """The package version that built it (``VERSION``)."""
    digest: str
    """A digest of ``bundle``: a page imports each bundle once, however many kernels send it."""
