"""The cards a ``%%mcp_tool``, ``%%mcp_resource`` or ``%%mcp_prompt`` cell shows: their data and behaviour.

A card follows its own component: once a re-run cell replaces it (or it is removed) the card says
so and stops listening. It syncs a ``CardState`` (``shapes.py``); the browser draws it
(``labextension/src/ui/card.ts``) and sends back ``enable``, ``run``, ``reread`` and the answers to
waiting calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import traitlets

from jupyter_mcp.shapes.views import Badge, Component, ComponentStatus, Shown, TryState
from jupyter_mcp.tools.calls.calltext import short_arguments
from jupyter_mcp.tools.calls.executors import INLINE_AFTER, QUICK_RUN, SLOW_INLINE, QuickState
from jupyter_mcp.tools.components.completions import Choices
from jupyter_mcp.tools.components.resources import ResourceTemplate
from jupyter_mcp.widgets import snapshot
from jupyter_mcp.widgets._view import Action, LiveBinding, View, approval_actions
from jupyter_mcp.widgets.format import format_clock
from jupyter_mcp.widgets.model import call_row, client_label, component_status, recent_records, waiting_for
from jupyter_mcp.widgets.tryit import TryIt, TryTarget, prompt_target, template_schema, template_target, tool_target

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord, HistoryEvent
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.tools.components.prompts import Prompt
    from jupyter_mcp.tools.components.resources import AnyResource
    from jupyter_mcp.tools.components.tool import Tool
    from jupyter_mcp.widgets.host import ServerHost

RECENT_CALLS = 5
STATUS_TEXT: dict[str, str] = {
    "live": "live",
    "disabled": "disabled",
    "replaced": "replaced by a newer cell run",
    "removed": "removed",
}
RUNS_ON = {
    ("worker", False): "worker thread",
    ("worker", True): "server's event loop",
    ("main", False): "main thread",
    ("main", True): "kernel's event loop",
}
"""Where a call runs, by ``run_on`` and whether the function is ``async def``."""
QUICK_RUNS_ON: dict[QuickState, str] = {
    "learning": "worker thread until proven quick",
    "proven": f"server's event loop: proven quick ({INLINE_AFTER} runs under {QUICK_RUN * 1000:g} ms)",
    "demoted": f"worker thread: a run on the server's loop took over {SLOW_INLINE * 1000:g} ms",
    "off": "worker thread",
}
"""Where a sync tool that may leave the workers runs now, and why (``QuickRuns``)."""


class ComponentCard(View):
    """A card for one component of ``kind``; subclasses say what it is (``about``) and what it shows.

    ``status`` is ``live``, ``disabled``, ``replaced`` or ``removed``; ``recent`` holds its newest
    calls (frozen once it is no longer the registered one).
    """

    kind: ClassVar[Kind]
    component = traitlets.Any({}).tag(sync=True)
    recent = traitlets.Any([]).tag(sync=True)
    pending = traitlets.Any([]).tag(sync=True)
    questions = traitlets.Any([]).tag(sync=True)
    tryit = traitlets.Any({"running": False, "result": None}).tag(sync=True)
    shown = traitlets.Any(None).tag(sync=True)
    shown_empty = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("live")
    """The component's state as this card last saw it (not synced: it is in ``component``)."""

    def __init__(self, server: ServerHost, item: Any, target: TryTarget | None) -> None:
        super().__init__(view="card")
        self.server, self.item = server, item
        self._about = self.about()
        self.try_it = TryIt(target, self._tried) if target is not None else None
        self._live = LiveBinding(server, self.refresh, wants=self._wants)
        self.refresh()

    @property
    def key(self) -> str:
        return str(self.item.key)

    def about(self) -> Component:
        """What the card says about its component, for ``status`` ``live`` (computed once)."""
        raise NotImplementedError

    def shown_now(self) -> Shown | None:
        """The preview (resources) or rendered messages (prompts); tools show none."""
        return None

    def changing(self) -> dict[str, Any]:
        """What the card says about its component that may change between calls (tools: where calls run)."""
        return {}

    def actions(self) -> dict[str, Action]:
        return {
            "enable": lambda enabled: self.set_enabled(bool(enabled)),
            "run": self._run,
            "reread": self.read,
            **approval_actions(self.server),
        }

    def _wants(self, event: HistoryEvent, record: CallRecord | None) -> bool:
        return record is None or (record.kind == self.kind and self.key in (record.component, record.tool))

    def refresh(self) -> None:
        """Re-read the component's state and calls (the throttle calls this; safe from any thread)."""
        with self._lock:
            status = component_status(self.server, self.kind, self.item)
            current = status in ("live", "disabled")
            recent = self.recent
            if current:
                records = recent_records(self.server.history, kind=self.kind, tool=self.key, limit=RECENT_CALLS)
                recent = [call_row(record) for record in records]
            pending, questions = waiting_for(self.server, self.key) if self.kind == "tool" else ([], [])
            if self.try_it is not None:
                self.try_it.active = status == "live"
            self._live.follow_history(current)
            # Traits change together (one message) and ``status`` last: whoever sees it sees the rest too.
            with self.hold_sync():
                self.component = {
                    **self._about,
                    **self.changing(),
                    "status": status,
                    "status_text": STATUS_TEXT[status],
                }
                self.recent = recent
                self.pending, self.questions = pending, questions
                self.shown = self.shown_now()
                self.tryit = self.try_it.state if self.try_it is not None else self.tryit
                self.status = status

    def set_enabled(self, enabled: bool) -> None:
        """What the card's "enabled" box does: serve the component to clients, or stop."""
        with self._lock:
            status: ComponentStatus = component_status(self.server, self.kind, self.item)  # the registry's truth
            if status not in ("live", "disabled") or enabled == (status == "live"):
                return  # already so, or the component is no longer this card's
            registry = self.server.registry_of(self.kind)
            (registry.enable if enabled else registry.disable)(names={self.key})
        self._live.throttle.flush()

    def read(self) -> None:
        """Read the resource again (resource cards)."""

    def _run(self, arguments: Any) -> None:
        if self.try_it is not None and isinstance(arguments, dict):
            self.try_it.run(arguments)

    def _tried(self, state: TryState) -> None:
        with self._lock:
            self.tryit = state

    def close(self) -> None:
        self._live.close()
        super().close()

    def fallback_text(self) -> str:
        return snapshot.card_text(self.component, self.server.endpoint())

    def fallback_html(self) -> str:
        return snapshot.card_html(self.component, self.server.endpoint())


class ToolCard(ComponentCard):
    """One tool: header with state and badges, parameters, waiting calls, a try-it form, recent calls.

    Example::

        card = ToolCard(server, server.tools["add"])
        card.status                  # "live" | "disabled" | "replaced" | "removed"
        card.set_enabled(False)      # same as server.disable(names={"add"})
        card.try_it.run({"a": 1})    # same as the form's Run button
    """

    kind: ClassVar[Kind] = "tool"

    def __init__(self, server: ServerHost, tool: Tool) -> None:
        self.tool = tool
        super().__init__(server, tool, tool_target(server, tool))

    def about(self) -> Component:
        tool = self.tool
        mcp_tool = tool.to_mcp(dereference_schemas=True)
        badges = annotation_badges(tool)
        if tool.confirm:
            badges.append(
                Badge(text="asks first", kind="asks", title="confirm: each client call waits for your approval")
            )
        return Component(
            kind="tool",
            name=tool.name,
            title=tool.title or (tool.annotations.title if tool.annotations and tool.annotations.title else ""),
            key=tool.name,
            status="live",
            status_text="live",
            badges=[*badges, *protocol_badges(tool), *tag_badges(tool.tags)],
            facts=self.facts(),
            description=tool.description or "",
            input_schema=mcp_tool.input_schema,
            output_schema=mcp_tool.output_schema,
            show_schemas=True,
            completions=[],
            try_label="Run",
        )

    def facts(self) -> str:
        """Where its calls run now (and why, for a sync tool that may leave the workers) and the timeout."""
        tool = self.tool
        quick = self.server.calls.execution.quick_state(tool)
        where = RUNS_ON[tool.run_on, tool.is_async] if quick is None else QUICK_RUNS_ON[quick]
        return f"{where} · " + (f"timeout {tool.timeout:g} s" if tool.timeout else "no timeout")

    def changing(self) -> dict[str, Any]:
        return {"facts": self.facts()}


def annotation_badges(tool: Tool) -> list[Badge]:
    """Badges for the hints the tool declares (nothing for hints left unset)."""
    hints = tool.annotations
    if hints is None:
        return []
    badges = []
    if hints.read_only_hint:
        badges.append(Badge(text="read-only", kind="readonly", title="readOnlyHint: changes nothing"))
    if hints.destructive_hint:
        badges.append(Badge(text="destructive", kind="destructive", title="destructiveHint: changes cannot be undone"))
    if hints.idempotent_hint:
        badges.append(
            Badge(text="idempotent", kind="idempotent", title="idempotentHint: repeating a call changes nothing more")
        )
    if hints.open_world_hint is not None:
        world = "open-world" if hints.open_world_hint else "closed-world"
        badges.append(Badge(text=world, kind="world", title="openWorldHint: talks to external systems or not"))
    return badges


def protocol_badges(tool: Tool) -> list[Badge]:
    """Badges for task support and parameters mirrored into HTTP headers."""
    badges = []
    if tool.task is not None:
        text = "task" if tool.task == "optional" else "task only"
        badges.append(Badge(text=text, kind="task", title="long calls become tasks for clients that support them"))
    if tool.param_headers:
        headers = ", ".join(f"{name} → Mcp-Param-{header}" for name, header in tool.param_headers.items())
        badges.append(Badge(text="headers", kind="headers", title=headers))
    return badges


def tag_badges(tags: frozenset[str]) -> list[Badge]:
    return [Badge(text=f"#{tag}", kind="tag", title="tag") for tag in sorted(tags)]


class ResourceCard(ComponentCard):
    """One resource or template: header, description, parameters (templates), a live preview, recent reads.

    The preview is the newest read of the resource, whoever made it (a client, the notebook). A plain
    resource is read once when the card appears, again on "Read again" and whenever
    ``server.notify_resource_updated(uri)`` says it changed; a template's try-it form reads one of its URIs.

    Example::

        card = ResourceCard(server, server.resources["data://cities"])
        card.shown["content"]      # the newest read's contents (resource blocks)
        card.read()                # read again (recorded in the history, source "notebook")
    """

    kind: ClassVar[Kind] = "resource"

    def __init__(self, server: ServerHost, resource: AnyResource) -> None:
        self.resource = resource
        is_template = isinstance(resource, ResourceTemplate)
        target = template_target(server, resource) if isinstance(resource, ResourceTemplate) else None
        super().__init__(server, resource, target)
        self._stop_updates = server.resource_updates.add(self._updated)
        if not is_template:
            self.read()

    def about(self) -> Component:
        resource = self.resource
        template = isinstance(resource, ResourceTemplate)
        badges = [Badge(text="template" if template else "resource", kind="kind", title="")]
        if resource.mime_type:
            badges.append(Badge(text=resource.mime_type, kind="mime", title="MIME type"))
        return Component(
            kind="resource",
            name=resource.name,
            title=resource.title or "",
            key=resource.key,
            status="live",
            status_text="live",
            badges=[*badges, *tag_badges(resource.tags)],
            facts="",
            description=resource.description or "",
            input_schema=template_schema(resource) if isinstance(resource, ResourceTemplate) else None,
            output_schema=None,
            show_schemas=False,
            completions=[],
            try_label="Read" if template else "",
        )

    def read(self) -> None:
        """Read the resource now (a plain URI only); the preview shows it when the read finishes."""
        if isinstance(self.resource, ResourceTemplate) or self.status != "live":
            return
        self.server.read_in_background(self.resource.uri)

    def _updated(self, uri: str) -> None:
        if uri == self.key:
            self.read()

    def shown_now(self) -> Shown | None:
        self.shown_empty = "Fill in Try it to read one of its URIs." if self.resource.is_template else "Reading…"
        records = recent_records(self.server.history, kind="resource", tool=self.key, status="ok", limit=1)
        if not records:
            return None
        record = records[0]
        return Shown(note=f"read {format_clock(record.started_at)} by {client_label(record)}", content=record.content)

    def close(self) -> None:
        self._stop_updates()
        super().close()


class PromptCard(ComponentCard):
    """One prompt: header, description, arguments (with completions), rendered messages, try-it, recent uses.

    The messages shown are the newest get of the prompt, whoever made it; a prompt whose arguments
    are all optional is rendered once when the card appears.

    Example::

        card = PromptCard(server, server.prompts["review_table"])
        card.try_it.run({"table": "sales"})    # renders it; card.shown has the messages
    """

    kind: ClassVar[Kind] = "prompt"

    def __init__(self, server: ServerHost, prompt: Prompt) -> None:
        self.prompt = prompt
        super().__init__(server, prompt, prompt_target(server, prompt))
        if not any(argument.required for argument in prompt.arguments):
            server.get_prompt_in_background(prompt.name, {})

    def about(self) -> Component:
        prompt = self.prompt
        written = [name for name, completer in prompt.completers.items() if not isinstance(completer, Choices)]
        return Component(
            kind="prompt",
            name=prompt.name,
            title=prompt.title or "",
            key=prompt.name,
            status="live",
            status_text="live",
            badges=tag_badges(prompt.tags),
            facts="",
            description=prompt.description or "",
            input_schema=prompt.parsed.input_schema,
            output_schema=None,
            show_schemas=False,
            completions=written,
            try_label="Render",
        )

    def shown_now(self) -> Shown | None:
        self.shown_empty = "Fill in Try it to see the messages it renders."
        records = recent_records(self.server.history, kind="prompt", tool=self.key, status="ok", limit=1)
        if not records:
            return None
        record = records[0]
        note = f"{short_arguments(record.arguments) or 'no arguments'} · {format_clock(record.started_at)}"
        return Shown(note=f"{note} · {client_label(record)}", content=record.content)
