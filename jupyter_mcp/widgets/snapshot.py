"""The text/plain and text/html snapshots of a card or the panel, for nbconvert, GitHub and front ends
without widgets: the one place the views are drawn in Python.

Everywhere a browser runs the widget, the component set in ``labextension/src/ui`` draws it. A
saved notebook viewed where no script runs (GitHub, nbconvert's HTML, a widget-less front end)
shows these instead: plain HTML of the same data (``Component``, ``CallRow``, ``ComponentRow``,
``ClientRow``), readable with no stylesheet. It never holds the token.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from jupyter_mcp.widgets.format import STATUS_ICONS, first_line, format_count
from jupyter_mcp.widgets.schema_text import ParameterRow, output_summary, parameter_rows

if TYPE_CHECKING:
    from jupyter_mcp.endpoints import Endpoint
    from jupyter_mcp.shapes.status import PendingEntry, QuestionEntry
    from jupyter_mcp.shapes.views import CallRow, ClientRow, Component, ComponentRow, Header
    from jupyter_mcp.widgets.host import ServerHost

CALL_HEADERS = ("time", "status", "client", "name", "arguments", "duration")


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table; ``rows`` hold ready HTML cells (escape them first)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="jmcp-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _frame(body: str) -> str:
    return f'<div class="jmcp jmcp-snapshot">{body}</div>'


# ---- cards ------------------------------------------------------------------------------------------


def card_text(component: Component, endpoint: Endpoint | None) -> str:
    kind, status = component["kind"], component["status_text"]
    rows = parameter_rows(component["input_schema"] or {})
    where = endpoint.phrase() if endpoint is not None else "(the server is stopped)"
    if kind == "resource":
        what = "template" if component["input_schema"] is not None else "resource"
        lines = [f"MCP {what} '{component['key']}' {status} {where}"]
        lines += [f"  {b['text']}" for b in component["badges"] if b["kind"] == "mime"]
    else:
        lines = [f"MCP {kind} '{component['name']}({', '.join(r['name'] for r in rows)})' {status} {where}"]
    if component["description"]:
        lines.append(f"  {first_line(component['description'])}")
    if kind == "tool":
        lines += [f"  {_parameter_text(row)}" for row in rows]
        returns = output_summary(component["output_schema"])
        lines += [f"  returns {returns}"] if returns else []
    return "\n".join(lines)


def _parameter_text(row: ParameterRow) -> str:
    text = f"{row['name']}: {row['type']}"
    text += " (required)" if row["required"] else f" = {row['default']}" if row["default"] else " (optional)"
    return f"{text} — {row['description']}" if row["description"] else text


def card_html(component: Component, endpoint: Endpoint | None) -> str:
    badges = " ".join(esc(b) for b in [component["status_text"], *(badge["text"] for badge in component["badges"])])
    title = f" {esc(component['title'])}" if component["title"] else ""
    parts = [f"<div><b><code>{esc(component['name'])}</code></b>{title} {badges}</div>"]
    if component["facts"]:
        parts.append(f"<div>{esc(component['facts'])}</div>")
    if component["kind"] == "resource":
        parts.append(f"<div><code>{esc(component['key'])}</code></div>")
    if endpoint is not None:
        parts.append(f"<div>served {esc(endpoint.phrase())}</div>")
    if component["description"]:
        parts.append(f"<p>{esc(component['description'])}</p>")
    if component["input_schema"] is not None:
        parts.append(_parameters_html(parameter_rows(component["input_schema"]), component["kind"]))
    returns = output_summary(component["output_schema"])
    if returns:
        parts.append(f"<div>Returns <code>{esc(returns)}</code></div>")
    return _frame("".join(parts))


def _parameters_html(rows: list[ParameterRow], kind: str) -> str:
    title = "argument" if kind == "prompt" else "parameter"
    if not rows:
        return f"<div>No {title}s.</div>"
    cells = [
        [
            f"<code>{esc(row['name'])}</code>",
            f"<code>{esc(row['type'])}</code>",
            "required" if row["required"] else "optional",
            f"<code>{esc(row['default'])}</code>" if row["default"] else "",
            esc(", ".join(row["constraints"])),
            esc(row["description"]),
        ]
        for row in rows
    ]
    return _table([title, "type", "required", "default", "constraints", "description"], cells)


# ---- the server panel -------------------------------------------------------------------------------


def calls_text(rows: Sequence[CallRow]) -> str:
    return "\n".join(
        f"{r['time']}  {r['status']:<9} {'' if r['kind'] == 'tool' else r['kind'] + ' '}{r['tool']}({r['arguments']})"
        f"  {r['duration']}"
        for r in rows
    )


def calls_html(rows: Sequence[CallRow]) -> str:
    if not rows:
        return "<div>No calls yet.</div>"
    cells = [
        [
            esc(r["time"]),
            esc(f"{STATUS_ICONS.get(r['status'], '')} {r['status']}".strip()),
            esc(r["client"]),
            f"<code>{esc(r['tool'])}</code>",
            esc(r["arguments"]),
            esc(r["duration"]),
        ]
        for r in rows
    ]
    return _table(CALL_HEADERS, cells)


def panel_text(
    server: ServerHost,
    clients: list[ClientRow],
    pending: list[PendingEntry],
    questions: list[QuestionEntry],
    rows: list[CallRow],
) -> str:
    names = ", ".join(f"{c['name']} {c['version']}" for c in clients)
    lines = [
        _running(server.endpoint()),
        f"tools: {', '.join(server.tools) or 'none'}",
        *([f"resources: {', '.join(server.resources)}"] if server.resources else []),
        *([f"prompts: {', '.join(server.prompts)}"] if server.prompts else []),
        f"clients: {names or 'none'}",
        f"calls: {server.history.total_calls}",
        *(["PAUSED by the notebook user: client calls are refused"] if server.approvals.paused else []),
        *(f"waiting for approval: {p['call']} from {p['client'] or 'a client'}" for p in pending),
        *(f"{q['tool']} asks you: {q['message']}" for q in questions),
    ]
    recent = calls_text(rows)
    return "\n".join(lines + ([recent] if recent else []))


def panel_html(
    header: Header, clients: list[ClientRow], components: dict[str, list[ComponentRow]], rows: list[CallRow], total: int
) -> str:
    parts = [f"<div><b>MCP server</b> {_running_html(header)} · {esc(header['counts'])}</div>"]
    listed = [[esc(c["name"]), esc(c["version"]), esc(c["era"]), esc(c["since"])] for c in clients]
    parts.append(_table(["client", "version", "protocol", "since"], listed) if listed else "<div>No clients.</div>")
    for kind, items in components.items():
        if items:
            cells = [
                [f"<code>{esc(r['key'])}</code>", str(r["calls"]), str(r["errors"]), "yes" if r["enabled"] else "no"]
                for r in items
            ]
            parts.append(_table([kind, "calls", "errors", "served"], cells))
    parts.append(f"<div>{esc(format_count(total, 'call'))}</div>")
    parts.append(calls_html(rows))
    return _frame("".join(parts))


def _running(endpoint: Endpoint | None) -> str:
    return f"MCP server running {endpoint.phrase()}" if endpoint is not None else "MCP server: not running"


def _running_html(header: Header) -> str:
    if header["url"]:
        return f"running at <code>{esc(header['url'])}</code>"
    return "running over the kernel's channel" if header["channel"] else "not running"
