"""``ToolCard``: what a ``%%mcp_tool`` cell shows — the tool's schema, state, a try-it form and its calls."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

import ipywidgets as widgets

from jupyter_mcp.widgets._card import STATUS_TEXT, ComponentCard, status_badge, tag_badges
from jupyter_mcp.widgets._html import badge, esc, frame, heading, pre, span, table
from jupyter_mcp.widgets.approvals import ApprovalsView
from jupyter_mcp.widgets.format import first_line
from jupyter_mcp.widgets.schema_text import ParameterRow, output_summary, parameter_rows
from jupyter_mcp.widgets.tryit import TryItForm, tool_target

if TYPE_CHECKING:
    from jupyter_mcp.tools.components.base import Kind
    from jupyter_mcp.tools.components.tool import Tool
    from jupyter_mcp.widgets.host import ServerHost


class ToolCard(ComponentCard):
    """One tool: header with state and badges, parameters, enable toggle, try-it form, recent calls.

    Example::

        card = ToolCard(server, server.tools["add"])
        card.status            # "live" | "disabled" | "replaced" | "removed"
        card.enabled.value = False   # same as server.disable(names={"add"})
    """

    kind: ClassVar[Kind] = "tool"

    def __init__(self, server: ServerHost, tool: Tool) -> None:
        self.tool = tool
        self.approvals = ApprovalsView(server, tool.name)
        body = [widgets.HTML(schema_html(tool)), self.approvals]
        super().__init__(server, tool, body, TryItForm(tool_target(server, tool)))
        self.refresh()

    def close(self) -> None:
        self.approvals.close()
        super().close()

    def header_html(self, status: str) -> str:
        return header_html(self.tool, status)

    def fallback_text(self) -> str:
        params = ", ".join(self.tool.input_schema.get("properties", {}))
        lines = [f"MCP tool '{self.tool.name}({params})' {STATUS_TEXT[self.status]} at {self.server.url}"]
        if self.tool.description:
            lines.append(f"  {first_line(self.tool.description)}")
        lines += [f"  {_parameter_text(row)}" for row in parameter_rows(self._input_schema())]
        returns = output_summary(self.tool.output_schema)
        if returns:
            lines.append(f"  returns {returns}")
        return "\n".join(lines)

    def fallback_html(self) -> str:
        url = span(f"served at {self.server.url}", "jmcp-muted") if self.server.url else ""
        return frame(header_html(self.tool, self.status) + url + schema_html(self.tool, raw=False), "jmcp-card")

    def _input_schema(self) -> dict[str, Any]:
        return self.tool.to_mcp(dereference_schemas=True).input_schema


RUNS_ON = {
    ("worker", False): "worker thread",
    ("worker", True): "server's event loop",
    ("main", False): "main thread",
    ("main", True): "kernel's event loop",
}
"""Where a call runs, by ``run_on`` and whether the function is ``async def``."""


def header_html(tool: Tool, status: str) -> str:
    """Name, title, status, annotation badges, tags, run mode and timeout."""
    title = tool.title or (tool.annotations.title if tool.annotations else None)
    parts = [span(tool.name, "jmcp-name")]
    if title:
        parts.append(span(title, "jmcp-title"))
    parts.append(status_badge(status))
    parts += annotation_badges(tool)
    if tool.confirm:
        parts.append(badge("asks first", "destructive", "confirm: each client call waits for your approval"))
    parts += protocol_badges(tool)
    parts += tag_badges(tool.tags)
    limit = f"timeout {tool.timeout:g} s" if tool.timeout else "no timeout"
    parts.append(span(f"{RUNS_ON[tool.run_on, tool.is_async]} · {limit}", "jmcp-muted"))
    return f'<div class="jmcp-head">{" ".join(parts)}</div>'


def annotation_badges(tool: Tool) -> list[str]:
    """Badges for the hints the tool declares (nothing for hints left unset)."""
    hints = tool.annotations
    if hints is None:
        return []
    badges = []
    if hints.read_only_hint:
        badges.append(badge("read-only", "readonly", "readOnlyHint: changes nothing"))
    if hints.destructive_hint:
        badges.append(badge("destructive", "destructive", "destructiveHint: changes cannot be undone"))
    if hints.idempotent_hint:
        badges.append(badge("idempotent", "idempotent", "idempotentHint: repeating a call changes nothing more"))
    if hints.open_world_hint is not None:
        world = "open-world" if hints.open_world_hint else "closed-world"
        badges.append(badge(world, "world", "openWorldHint: talks to external systems or not"))
    return badges


def protocol_badges(tool: Tool) -> list[str]:
    """Badges for task support and parameters mirrored into HTTP headers."""
    badges = []
    if tool.task is not None:
        text = "task" if tool.task == "optional" else "task only"
        badges.append(badge(text, "task", "long calls become tasks for clients that support them"))
    if tool.param_headers:
        headers = ", ".join(f"{name} → Mcp-Param-{header}" for name, header in tool.param_headers.items())
        badges.append(badge("headers", "headers", headers))
    return badges


def schema_html(tool: Tool, *, raw: bool = True) -> str:
    """Description, the parameter table, what it returns, and (``raw``) the JSON schemas folded away."""
    mcp_tool = tool.to_mcp(dereference_schemas=True)
    parts = []
    if tool.description:
        parts.append(f'<div class="jmcp-description">{esc(tool.description)}</div>')
    parts.append(parameters_html(parameter_rows(mcp_tool.input_schema)))
    returns = output_summary(tool.output_schema)
    parts.append(f"<div>Returns {span(returns, 'jmcp-mono')}</div>" if returns else "")
    if raw:
        parts.append(_raw_schemas(mcp_tool.input_schema, mcp_tool.output_schema))
    return "".join(parts)


def parameters_html(rows: list[ParameterRow], title: str = "Parameters") -> str:
    if not rows:
        return heading(title) + span(f"No {title.lower()}.", "jmcp-muted")
    cells = [
        [
            f"<code>{esc(row['name'])}</code>",
            f"<code>{esc(row['type'])}</code>",
            "required" if row["required"] else span("optional", "jmcp-muted"),
            f"<code>{esc(row['default'])}</code>" if row["default"] else "",
            esc(", ".join(row["constraints"])),
            esc(row["description"]),
        ]
        for row in rows
    ]
    headers = [title.lower().removesuffix("s"), "type", "required", "default", "constraints", "description"]
    return heading(title) + table(headers, cells, "jmcp-params")


def _raw_schemas(input_schema: dict[str, Any], output_schema: dict[str, Any] | None) -> str:
    body = heading("Input schema") + pre(json.dumps(input_schema, indent=2, ensure_ascii=False))
    if output_schema is not None:
        body += heading("Output schema") + pre(json.dumps(output_schema, indent=2, ensure_ascii=False))
    return f"<details><summary>JSON schemas</summary>{body}</details>"


def _parameter_text(row: ParameterRow) -> str:
    text = f"{row['name']}: {row['type']}"
    text += " (required)" if row["required"] else f" = {row['default']}" if row["default"] else " (optional)"
    return f"{text} — {row['description']}" if row["description"] else text
