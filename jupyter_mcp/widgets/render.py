"""HTML for calls: rows, a collapsible JSON tree, content blocks, and a call's full detail."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from jupyter_mcp.tools.budget.preview import format_size
from jupyter_mcp.widgets._html import badge, esc, heading, pre, progress_bar, span, status_html, table
from jupyter_mcp.widgets.format import format_clock, format_duration
from jupyter_mcp.widgets.model import CallRow, client_label, progress_text, waiting_text
from jupyter_mcp.widgets.structured import json_tree, repeats, structured_html

if TYPE_CHECKING:
    from jupyter_mcp.tools.calls.history import CallRecord

MAX_CSV_ROWS = 200
_TABLE_SEPARATOR = re.compile(r"^\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*\|?$")

CALL_HEADERS = ("time", "status", "client", "name", "arguments", "duration")


# ---- rows ----------------------------------------------------------------------------------------


def call_row_html(row: CallRow, *, selected: bool = False) -> str:
    """One history row: a CSS grid line; progress (while running) or the error goes under the arguments."""
    arguments = f"<div>{esc(row['arguments']) or '&nbsp;'}</div>"
    if row["progress"] is not None or row["progress_text"]:
        bar = progress_bar(row["progress"]) if row["progress"] is not None else ""
        arguments += f'<div class="jmcp-progress-line">{bar}{span(row["progress_text"], "jmcp-muted")}</div>'
    elif row["error"]:
        arguments += f"<div>{span(row['error'], 'jmcp-error')}</div>"
    cells = [
        span(row["time"], "jmcp-muted"),
        status_html(row["status"]),
        span(row["client"], title=row["client"]),
        _name_html(row["kind"], row["tool"])
        + (" " + badge("task", "task", f"task {row['task']}") if row["task"] else ""),
        f'<span class="jmcp-args" title="{esc(row["arguments"])}">{arguments}</span>',
        span(row["duration"], "jmcp-num"),
    ]
    cls = "jmcp-callrow jmcp-selected" if selected else "jmcp-callrow"
    return f'<div class="{cls}" data-call="{esc(row["id"])}">{"".join(cells)}</div>'


def _name_html(kind: str, name: str) -> str:
    """The name (or URI) called, after a small badge for resources and prompts."""
    marker = span(kind, "jmcp-kind") if kind != "tool" else ""
    return f'<span class="jmcp-mono" title="{esc(name)}">{marker}{esc(name)}</span>'


def call_header_html() -> str:
    cells = "".join(span(h, "jmcp-num" if h == "duration" else "") for h in CALL_HEADERS)
    return f'<div class="jmcp-callrow jmcp-header">{cells}</div>'


def call_list_html(rows: Sequence[CallRow], empty: str = "No calls yet.") -> str:
    """A static list of rows with a header (tool cards, text/HTML fallbacks)."""
    if not rows:
        return span(empty, "jmcp-muted")
    return call_header_html() + "".join(call_row_html(row) for row in rows)


# ---- content blocks ------------------------------------------------------------------------------


def content_html(blocks: Sequence[Mapping[str, Any]]) -> str:
    """MCP content blocks rendered: text (markdown tables as tables), images, audio, resources."""
    return "".join(_block_html(block) for block in blocks)


def _block_html(block: Mapping[str, Any]) -> str:
    role = block.get("role")
    if role is not None:  # a prompt's message: who says it, then what
        body = _block_html({k: v for k, v in block.items() if k != "role"})
        label = f'<div class="jmcp-role">{esc(role)}</div>'
        return f'{label}<div class="jmcp-message jmcp-{esc(role)}">{body}</div>'
    kind = block.get("type")
    if kind == "text":
        return _text_html(str(block.get("text", "")))
    if kind in ("image", "audio"):
        return _media_html(block)
    if kind == "resource_link":
        return f"<div>🔗 {span(block.get('name') or '', 'jmcp-mono')} {span(block.get('uri', ''), 'jmcp-muted')}</div>"
    if kind == "resource":
        return _resource_html(block.get("resource") or {})
    return pre(json.dumps(block, ensure_ascii=False, indent=2))


def _text_html(text: str) -> str:
    split = split_markdown_table(text)
    if split is None:
        return pre(text)
    rows, note = split
    body = table(rows[0], [[esc(cell) for cell in row] for row in rows[1:]])
    return body + (f"<div>{span(note, 'jmcp-muted')}</div>" if note else "")


def split_markdown_table(text: str) -> tuple[list[list[str]], str] | None:
    """A leading GitHub markdown table's cells (header row first) and the text after it, else ``None``."""
    lines = text.strip().splitlines()
    count = next((i for i, line in enumerate(lines) if not line.strip().startswith("|")), len(lines))
    if count < 2 or not _TABLE_SEPARATOR.match(lines[1].strip()):
        return None
    rows = [_cells(line) for i, line in enumerate(lines[:count]) if i != 1]
    return rows, "\n".join(lines[count:]).strip()


def _cells(line: str) -> list[str]:
    inner = line.strip().strip("|")
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", inner)]


def _media_html(block: Mapping[str, Any]) -> str:
    mime, data = str(block.get("mimeType", "")), block.get("data")
    if not data:
        size = block.get("truncated")
        return span(f"[{block.get('type')} {mime}, {size or '?'} bytes of base64, not kept]", "jmcp-muted")
    source = f"data:{esc(mime)};base64,{esc(data)}"
    if block.get("type") == "audio":
        return f'<audio controls src="{source}"></audio>'
    return f'<img class="jmcp-img" alt="{esc(mime)}" src="{source}">'


def _resource_html(resource: Mapping[str, Any]) -> str:
    uri = span(resource.get("uri", ""), "jmcp-muted")
    mime = span(resource.get("mimeType") or "", "jmcp-muted")
    return f"<div>{uri} {mime}</div>{contents_html(resource)}"


def contents_html(contents: Mapping[str, Any]) -> str:
    """One resource's contents as the notebook would show them: table, image, JSON tree, or text."""
    mime = str(contents.get("mimeType") or "")
    if "blob" in contents:
        return _blob_html(mime, contents.get("blob"))
    text = str(contents.get("text", ""))
    if mime == "application/json" or mime.endswith("+json"):
        try:
            return structured_html(json.loads(text))
        except ValueError:
            return pre(text)
    if mime == "text/csv":
        rows = list(csv.reader(io.StringIO(text)))[: MAX_CSV_ROWS + 1]
        if rows:
            return table(rows[0], [[esc(cell) for cell in row] for row in rows[1:]])
    return _text_html(text)


def _blob_html(mime: str, data: Any) -> str:
    if not data:
        return span(f"[{mime or 'binary'}, not kept]", "jmcp-muted")
    if mime.startswith(("image/", "audio/")):
        return _media_html({"type": mime.split("/", maxsplit=1)[0], "mimeType": mime, "data": data})
    size = len(base64.b64decode(data)) if isinstance(data, str) else 0
    return span(f"[{mime or 'binary'}, {size:,} bytes]", "jmcp-muted")


# ---- results and details -------------------------------------------------------------------------


def outcome_html(
    structured: Any, content: Sequence[Mapping[str, Any]], *, is_error: bool, error: str | None = None
) -> str:
    """A call's result: error first, then the structured result (table or tree), then the content blocks."""
    parts = []
    if is_error or error:
        message = error or " ".join(str(b.get("text", "")) for b in content if b.get("type") == "text")
        parts.append(heading("Error") + pre(message.strip() or "(no message)", "jmcp-error"))
    if structured is not None:
        parts.append(heading("Structured result") + structured_html(structured))
    # The JSON text block that accompanies structuredContent says the same thing again.
    shown = [block for block in content if structured is None or not repeats(block, structured)]
    if shown and not is_error:
        parts.append(heading("Content") + content_html(shown))
    return "".join(parts)


def record_detail_html(record: CallRecord) -> str:
    """Everything about one call: arguments, result, error and traceback, output, logs, progress."""
    parts = [
        _detail_header(record),
        heading("Arguments") + json_tree(record.arguments),
        _result_or_progress(record),
        _sent_preview(record),
        _traceback(record),
        _output(record),
        _logs(record),
    ]
    return '<div class="jmcp-detail">' + "".join(parts) + "</div>"


def _detail_header(record: CallRecord) -> str:
    when = f"{format_clock(record.started_at)} · {format_duration(record.duration)} · {client_label(record)}"
    bits = [
        span(f"#{record.number}", "jmcp-muted"),
        span(record.tool, "jmcp-name"),
        status_html(record.status),
        span(when, "jmcp-muted"),
    ]
    if record.protocol_version:
        bits.append(span(f"protocol {record.protocol_version}", "jmcp-muted"))
    if record.task_id:
        bits.append(badge("task", "task", "the call became a task: the client polls it by this id"))
        bits.append(span(f"task {record.task_id}", "jmcp-muted"))
    bits.append(span(f"id {record.id}", "jmcp-muted"))
    late = f"<div class='jmcp-status-timeout'>{esc(record.late)}</div>" if record.late else ""
    return f'<div class="jmcp-head">{" ".join(bits)}</div>{late}'


def _result_or_progress(record: CallRecord) -> str:
    if record.status == "waiting":
        return heading("Waiting for input") + f"<div>{esc(waiting_text(record.waiting))}</div>"
    if record.status == "running":
        latest = record.latest_progress
        if latest is None:
            return heading("Running") + span("waiting for the result…", "jmcp-muted")
        bar = progress_bar(latest.progress / latest.total) if latest.total else ""
        return heading("Progress") + f"<div>{esc(progress_text(latest))}</div>{bar}"
    return outcome_html(record.structured, record.content, is_error=record.is_error, error=record.error)


def _sent_preview(record: CallRecord) -> str:
    """Over the result budget: the client got a preview and a link, shown beside the full value above."""
    preview = record.preview
    if preview is None:
        return ""
    what, full = ("error", "its full text") if record.error is not None else ("result", "the full value")
    note = (
        f"The {what} is {format_size(preview.size)} as JSON, over the result budget of {format_size(preview.budget)}: "
        f"the client got a preview and a link to {full}, {preview.uri}."
    )
    shown = f"<details><summary>What the client got</summary>{content_html(preview.content)}</details>"
    return heading("Sent as a preview") + f"<div class='jmcp-preview-note'>{esc(note)}</div>" + shown


def _traceback(record: CallRecord) -> str:
    if not record.traceback:
        return ""
    return f"<details><summary>Traceback</summary>{pre(record.traceback, 'jmcp-traceback')}</details>"


def _output(record: CallRecord) -> str:
    parts = []
    if record.stdout:
        parts.append(heading("stdout") + pre(record.stdout))
    if record.stderr:
        parts.append(heading("stderr") + pre(record.stderr, "jmcp-stderr"))
    return "".join(parts)


def _logs(record: CallRecord) -> str:
    if not record.logs:
        return ""
    rows = [
        [span(format_clock(e.at), "jmcp-muted"), esc(e.level), esc(e.logger or ""), esc(e.message)] for e in record.logs
    ]
    return heading("Log messages") + table(["time", "level", "logger", "message"], rows)
