"""``CallResult``: what ``await server.call(...)`` returns in a notebook — a ``CallToolResult``
that displays readably in a cell."""

from __future__ import annotations

import html
import json
from typing import Any

import mcp_types as mt


class CallResult(mt.CallToolResult):
    """A ``CallToolResult`` with a readable cell display (structured result, text, error)."""

    @classmethod
    def wrap(cls, result: mt.CallToolResult) -> CallResult:
        return cls.model_construct(**dict(result))

    def summary_lines(self) -> list[str]:
        lines = ["error" if self.is_error else "ok"]
        if self.structured_content is not None:
            lines.append(json.dumps(self.structured_content, ensure_ascii=False, indent=2, default=str))
        else:
            lines.extend(_describe(block) for block in self.content)
        if self.is_error:
            lines[1:] = [_describe(block) for block in self.content]
        return lines

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text("\n".join(self.summary_lines()))

    def _repr_html_(self) -> str:
        status, *body = self.summary_lines()
        colour = "var(--jp-error-color1)" if self.is_error else "var(--jp-success-color1)"
        return (
            f"<div><b style='color:{colour}'>{status}</b>"
            f"<pre style='margin:2px 0'>{html.escape(chr(10).join(body))}</pre></div>"
        )


def _describe(block: Any) -> str:
    if isinstance(block, mt.TextContent):
        return block.text
    mime = getattr(block, "mime_type", None) or getattr(getattr(block, "resource", None), "mime_type", None)
    return f"[{block.type}{' ' + mime if mime else ''}]"
