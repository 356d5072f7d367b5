"""``PromptCard``: what a ``%%mcp_prompt`` cell shows — arguments, the rendered messages, a try-it form.

The messages shown are the newest get of the prompt, whoever made it; a prompt whose arguments
are all optional is rendered once when the card appears.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import ipywidgets as widgets

from jupyter_mcp.widgets._card import STATUS_TEXT, ComponentCard, status_badge, tag_badges
from jupyter_mcp.widgets._html import esc, frame, heading, span
from jupyter_mcp.widgets.card import parameters_html
from jupyter_mcp.widgets.format import first_line, format_clock, short_arguments
from jupyter_mcp.widgets.model import client_label, recent_records
from jupyter_mcp.widgets.render import content_html
from jupyter_mcp.widgets.schema_text import parameter_rows
from jupyter_mcp.widgets.tryit import TryItForm, prompt_target

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.tools.components.prompts import Prompt
    from jupyter_mcp.widgets.host import ServerHost


class PromptCard(ComponentCard):
    """One prompt: header, description, arguments (with completions), rendered messages, try-it, recent gets.

    Example::

        card = PromptCard(server, server.prompts["review_table"])
        card.try_it.inputs["table"].value = "sales"
        card.try_it.run()          # renders it; card.messages shows the result
    """

    kind: ClassVar[Kind] = "prompt"

    def __init__(self, server: ServerHost, prompt: Prompt) -> None:
        self.prompt = prompt
        self.messages = widgets.HTML()
        self.messages.add_class("jmcp-preview")
        body = [widgets.HTML(_body_html(prompt)), widgets.HTML(heading("Messages")), self.messages]
        super().__init__(server, prompt, body, TryItForm(prompt_target(server, prompt)))
        self.refresh()
        if not any(argument.required for argument in prompt.arguments):
            server.get_prompt_in_background(prompt.name, {})

    def header_html(self, status: str) -> str:
        return header_html(self.prompt, status)

    def refresh(self) -> None:
        super().refresh()
        with self._lock:
            records = recent_records(self.server.history, kind="prompt", tool=self.key, status="ok", limit=1)
            self.messages.value = (
                messages_html(records[0])
                if records
                else span("Fill in Try it to see the messages it renders.", "jmcp-muted")
            )

    def fallback_text(self) -> str:
        arguments = ", ".join(argument.name for argument in self.prompt.arguments)
        lines = [f"MCP prompt '{self.prompt.name}({arguments})' {STATUS_TEXT[self.status]} at {self.server.url}"]
        if self.prompt.description:
            lines.append(f"  {first_line(self.prompt.description)}")
        return "\n".join(lines)

    def fallback_html(self) -> str:
        return frame(header_html(self.prompt, self.status) + _body_html(self.prompt), "jmcp-card")


def header_html(prompt: Prompt, status: str) -> str:
    parts = [span(prompt.name, "jmcp-name")]
    if prompt.title:
        parts.append(span(prompt.title, "jmcp-title"))
    parts.append(status_badge(status))
    parts += tag_badges(prompt.tags)
    return f'<div class="jmcp-head">{" ".join(parts)}</div>'


def _body_html(prompt: Prompt) -> str:
    parts = []
    if prompt.description:
        parts.append(f'<div class="jmcp-description">{esc(prompt.description)}</div>')
    rows = parameter_rows(prompt.parsed.input_schema)
    for row in rows:
        if row["name"] in prompt.completers:
            row["constraints"] = [*row["constraints"], "completes"]
    return "".join(parts) + parameters_html(rows, "Arguments")


def messages_html(record: CallRecord) -> str:
    """A get's messages with their roles, and with which arguments, when and by whom."""
    note = f"{short_arguments(record.arguments) or 'no arguments'} · {format_clock(record.started_at)}"
    return span(f"{note} · {client_label(record)}", "jmcp-muted") + content_html(record.content)
