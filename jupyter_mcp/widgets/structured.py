"""Structured values as HTML: a collapsible JSON tree, and record lists as tables."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from jupyter_mcp.widgets._html import esc, span, table
from jupyter_mcp.widgets.format import format_count

MAX_ITEMS = 100
"""Items shown per JSON array/object level; the rest are counted, not rendered."""
MAX_TABLE_ROWS = 200


def json_tree(value: Any, *, open_depth: int = 2, key: str | None = None, depth: int = 0) -> str:
    """``value`` as nested ``<details>`` (collapsible with no script); levels below ``open_depth`` start closed."""
    label = f'<span class="jmcp-k">{esc(json.dumps(key))}</span>: ' if key is not None else ""
    is_open = depth < open_depth
    if isinstance(value, Mapping) and value:
        items = list(value.items())
        children = [json_tree(v, open_depth=open_depth, key=str(k), depth=depth + 1) for k, v in items[:MAX_ITEMS]]
        return _branch(label, "{}", format_count(len(items), "key"), children, total=len(items), is_open=is_open)
    if isinstance(value, list) and value:
        children = [json_tree(v, open_depth=open_depth, depth=depth + 1) for v in value[:MAX_ITEMS]]
        return _branch(label, "[]", format_count(len(value), "item"), children, total=len(value), is_open=is_open)
    leaf = f"<div>{label}{_scalar(value)}</div>"
    return f'<div class="jmcp-json">{leaf}</div>' if depth == 0 else leaf


def _branch(label: str, brackets: str, size: str, children: list[str], *, total: int, is_open: bool) -> str:
    more = f"<li>{span(f'… {total - MAX_ITEMS} more', 'jmcp-muted')}</li>" if total > MAX_ITEMS else ""
    body = "".join(f"<li>{child}</li>" for child in children) + more
    summary = f"{label}{brackets[0]} {span(size, 'jmcp-muted')} {brackets[1]}"
    details = f"<details{' open' if is_open else ''}><summary>{summary}</summary><ul>{body}</ul></details>"
    return details if label else f'<div class="jmcp-json">{details}</div>'


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return span(json.dumps(value, ensure_ascii=False), "jmcp-s")
    if isinstance(value, bool) or value is None:
        return span(json.dumps(value), "jmcp-b")
    if isinstance(value, int | float):
        return span(json.dumps(value), "jmcp-n")
    if isinstance(value, Mapping | list):
        return span("{}" if isinstance(value, Mapping) else "[]", "jmcp-muted")
    return span(repr(value), "jmcp-s")


# ---- records -------------------------------------------------------------------------------------


def records(value: Any) -> list[Mapping[str, Any]] | None:
    """Rows to show as a table: a list of flat objects (bare, as ``{"result": [...]}``, or a
    DataFrame's ``{"columns": ..., "records": [...]}``); ``None`` for anything else."""
    if isinstance(value, Mapping):
        keys = set(value)
        if keys == {"result"}:
            value = value["result"]
        elif keys == {"columns", "records"}:
            value = value["records"]
    if not isinstance(value, list) or not value or len(value) > MAX_TABLE_ROWS:
        return None
    if all(isinstance(row, Mapping) and all(not isinstance(v, Mapping | list) for v in row.values()) for row in value):
        return value
    return None


def records_table(rows: list[Mapping[str, Any]]) -> str:
    columns = list(dict.fromkeys(key for row in rows for key in row))
    cells = [[esc(_cell(row.get(column))) for column in columns] for row in rows]
    return table(columns, cells, "jmcp-records")


def _cell(value: Any) -> str:
    return "" if value is None else value if isinstance(value, str) else json.dumps(value)


def structured_html(value: Any) -> str:
    """A table when ``value`` is a list of records (its JSON one click away), else a JSON tree."""
    rows = records(value)
    if rows is None:
        return json_tree(value, open_depth=3)
    return records_table(rows) + f"<details><summary>JSON</summary>{json_tree(value, open_depth=3)}</details>"


def repeats(block: Mapping[str, Any], structured: Any) -> bool:
    """Whether a text block is just ``structured`` (or its wrapped ``result``) as JSON."""
    if block.get("type") != "text":
        return False
    try:
        value = json.loads(str(block.get("text", "")))
    except ValueError:
        return False
    wrapped = isinstance(structured, Mapping) and set(structured) == {"result"}
    return bool(value == structured or (wrapped and value == structured["result"]))
