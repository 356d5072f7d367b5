"""The result budget: a result too big for clients goes out as a preview plus a link to its full value.

The mcp SDK clients refuse a server-sent event over 1 MiB, and a result's value usually travels
twice (a JSON text block and ``structuredContent``), escaped. So a result is measured as it is sent
(its JSON, in bytes); above the budget the client gets a preview (``preview.py``) and a
``ResourceLink`` to ``result://<call id>``, which ``resources/read`` answers with the full value
for as long as ``ResultLinks`` keeps it. The call history records the full value either way.
An error result (``isError``) is no exception: its text is cut to head and tail the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mcp_types as mt

from jupyter_mcp.tools.budget.links import RESULT_TEMPLATE, ResultLinks, full_contents
from jupyter_mcp.tools.budget.preview import build_preview, format_size, result_size, size_at_most
from jupyter_mcp.tools.components.resource_contents import ResourceContents
from jupyter_mcp.tools.components.resources import Found, ResourceTemplate, resource_from_function
from jupyter_mcp.tools.settings import ServerSettings
from jupyter_mcp.tools.sizes import DEFAULT_RESULT_BUDGET, BudgetOption, parse_budget


@dataclass
class Sent:
    """What a call's client gets (``result``) and, when that is a preview, the full value it stands for."""

    result: mt.CallToolResult
    full: mt.CallToolResult | None = None
    uri: str | None = None
    size: int = 0
    """Bytes of the full result as JSON."""
    budget: int = 0


class ResultBudget:
    """Applies the server's (or a tool's) budget to each result; keeps full values for their links."""

    def __init__(self, settings: ServerSettings | None = None) -> None:
        self.settings = settings or ServerSettings()
        self.links = ResultLinks(self.settings)
        template = resource_from_function(
            self.read,
            RESULT_TEMPLATE,
            name="result",
            title="Full result",
            description="The full value of a result that was sent as a preview (over the result budget).",
        )
        assert isinstance(template, ResourceTemplate)
        self.template = template
        """``result://{call_id}``: not listed, but the call path reads every link given out through it."""

    def read(self, call_id: str) -> list[ResourceContents]:
        """The full value behind ``result://<call_id>`` (``ResourceNotFoundError`` once it is gone)."""
        return self.links.read(call_id)

    def find(self, uri: str) -> Found | None:
        """The ``result://{call_id}`` template when ``uri`` is a link this server gives out."""
        values = self.template.match(uri) if uri.startswith("result://") else None
        return Found(self.template, values) if values is not None else None

    def apply(self, result: mt.CallToolResult, call_id: str, tool: Any) -> Sent:
        """``result`` itself when within budget, else a preview + link (the full value kept for the link)."""
        budget = getattr(tool, "result_budget", None) or self.settings.result_budget
        if budget is None or size_at_most(result) <= budget:  # most results: no need to encode them to know
            return Sent(result)
        size = result_size(result)
        if size <= budget:
            return Sent(result)
        return self._preview(result, call_id, tool, size, budget)

    def _preview(self, result: mt.CallToolResult, call_id: str, tool: Any, size: int, budget: int) -> Sent:
        uri = f"result://{call_id}"
        wrapped = bool(getattr(tool, "wrap_result", False))
        contents = full_contents(result, uri, wrapped=wrapped)
        link = self.links.put(call_id, contents, size, _tool_name(tool), error=bool(result.is_error))
        validator = _validator(getattr(tool, "output_schema", None))
        preview = build_preview(result, size=size, budget=budget, link=link, check=validator)
        return Sent(preview, result, uri, size, budget)


__all__ = [
    "DEFAULT_RESULT_BUDGET",
    "BudgetOption",
    "ResultBudget",
    "Sent",
    "format_size",
    "parse_budget",
    "result_size",
]


def _tool_name(tool: Any) -> str:
    return str(getattr(tool, "name", "tool"))


def _validator(schema: dict[str, Any] | None) -> Any:
    if schema is None:
        return None
    import jsonschema  # imported when needed (components/verbatim.py says why)

    validator = jsonschema.validators.validator_for(schema)(schema)
    return validator.is_valid
