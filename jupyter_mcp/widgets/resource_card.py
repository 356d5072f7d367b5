"""``ResourceCard``: what a ``%%mcp_resource`` cell shows — URI (or template), MIME type, a live preview.

The preview is the newest read of the resource, whoever made it (a client, the notebook): a table,
an image, a JSON tree or text. A plain resource is read once when the card appears, again on
Refresh and whenever ``server.notify_resource_updated(uri)`` says it changed. A template has a
try-it form: its values become a URI, and reading it fills the preview.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import ipywidgets as widgets

from jupyter_mcp.tools.components.resources import ResourceTemplate
from jupyter_mcp.widgets._card import STATUS_TEXT, ComponentCard, status_badge, tag_badges
from jupyter_mcp.widgets._html import badge, esc, frame, heading, span
from jupyter_mcp.widgets.card import parameters_html
from jupyter_mcp.widgets.format import first_line, format_clock
from jupyter_mcp.widgets.model import client_label, recent_records
from jupyter_mcp.widgets.render import contents_html
from jupyter_mcp.widgets.schema_text import parameter_rows
from jupyter_mcp.widgets.tryit import TryItForm, template_target

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.tools.components.resources import AnyResource
    from jupyter_mcp.widgets.host import ServerHost


class ResourceCard(ComponentCard):
    """One resource or template: header, description, parameters (templates), live preview, recent reads.

    Example::

        card = ResourceCard(server, server.resources["data://cities"])
        card.preview.value         # HTML of the newest read's contents
        card.refresh_button.click()  # read again (recorded in the history, source "notebook")
    """

    kind: ClassVar[Kind] = "resource"

    def __init__(self, server: ServerHost, resource: AnyResource) -> None:
        self.resource = resource
        self.preview = widgets.HTML()
        self.preview.add_class("jmcp-preview")
        self.refresh_button = widgets.Button(
            description="Refresh",
            icon="refresh",
            tooltip="Read it again",
            layout=widgets.Layout(width="auto", align_self="flex-start"),
        )
        self.refresh_button.on_click(lambda _button: self.read())
        is_template = isinstance(resource, ResourceTemplate)
        body: list[widgets.Widget] = [widgets.HTML(_body_html(resource))]
        body += [widgets.HTML(heading("Preview")), self.preview]
        if not is_template:
            body.append(self.refresh_button)
        try_it = TryItForm(template_target(server, resource)) if isinstance(resource, ResourceTemplate) else None
        super().__init__(server, resource, body, try_it)
        self._stop_updates = server.resource_updates.add(self._updated)
        self.refresh()
        if not is_template:
            self.read()

    def header_html(self, status: str) -> str:
        return header_html(self.resource, status)

    def read(self) -> None:
        """Read the resource now (a plain URI only); the preview shows it when the read finishes."""
        if isinstance(self.resource, ResourceTemplate) or self.status != "live":
            return
        self.server.read_in_background(self.resource.uri)

    def _updated(self, uri: str) -> None:
        if uri == self.key:
            self.read()

    def refresh(self) -> None:
        super().refresh()
        with self._lock:
            self.preview.value = self._preview_html()

    def _preview_html(self) -> str:
        records = recent_records(self.server.history, kind="resource", tool=self.key, status="ok", limit=1)
        if not records:
            hint = "Fill in Try it to read one of its URIs." if self.resource.is_template else "Reading…"
            return span(hint, "jmcp-muted")
        return preview_html(records[0])

    def close(self) -> None:
        self._stop_updates()
        super().close()

    def fallback_text(self) -> str:
        what = "template" if self.resource.is_template else "resource"
        lines = [f"MCP {what} '{self.key}' {STATUS_TEXT[self.status]} at {self.server.url}"]
        if self.resource.mime_type:
            lines.append(f"  {self.resource.mime_type}")
        if self.resource.description:
            lines.append(f"  {first_line(self.resource.description)}")
        return "\n".join(lines)

    def fallback_html(self) -> str:
        return frame(header_html(self.resource, self.status) + _body_html(self.resource), "jmcp-card")


def header_html(resource: AnyResource, status: str) -> str:
    """Name, title, status, kind, MIME type and tags, then the URI."""
    parts = [span(resource.name, "jmcp-name")]
    if resource.title:
        parts.append(span(resource.title, "jmcp-title"))
    parts.append(status_badge(status))
    parts.append(badge("template" if resource.is_template else "resource", "kind"))
    if resource.mime_type:
        parts.append(badge(resource.mime_type, "mime"))
    parts += tag_badges(resource.tags)
    uri = f'<div class="jmcp-mono jmcp-uri">{esc(resource.key)}</div>'
    return f'<div class="jmcp-head">{" ".join(parts)}</div>{uri}'


def _body_html(resource: AnyResource) -> str:
    parts = []
    if resource.description:
        parts.append(f'<div class="jmcp-description">{esc(resource.description)}</div>')
    if isinstance(resource, ResourceTemplate):
        schema = resource.parsed.input_schema
        rows = [row for row in parameter_rows(schema) if row["name"] in resource.variables]
        parts.append(parameters_html(rows))
    return "".join(parts)


def preview_html(record: CallRecord) -> str:
    """A read's contents, with which URI was read, when and by whom."""
    note = f"{record.tool} · {format_clock(record.started_at)} · {client_label(record)}"
    blocks: list[dict[str, Any]] = [block.get("resource", {}) for block in record.content]
    return span(note, "jmcp-muted") + "".join(contents_html(contents) for contents in blocks)
