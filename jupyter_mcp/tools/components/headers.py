"""Custom headers (2026 era, SEP-2243): tool parameters a client mirrors into ``Mcp-Param-*`` headers.

A tool declares ``headers={"region": "Region"}``; its input schema then marks the parameter with
``"x-mcp-header": "Region"``, clients send the value as ``Mcp-Param-Region`` too, and the SDK's
HTTP transport refuses calls whose header and argument disagree (HTTP 400, -32020), so a proxy
or load balancer can route on the header alone.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from mcp.shared.inbound import X_MCP_HEADER_KEY, find_invalid_x_mcp_header

from jupyter_mcp.tools.errors import ToolDefinitionError


def with_param_headers(tool: str, schema: Mapping[str, Any], headers: Mapping[str, str]) -> dict[str, Any]:
    """``schema`` with ``x-mcp-header`` on each parameter ``headers`` names; says what is wrong otherwise."""
    properties: Mapping[str, Any] = schema.get("properties") or {}
    marked = copy.deepcopy(dict(schema))
    for parameter, header in headers.items():
        if parameter not in properties:
            known = ", ".join(map(repr, properties)) or "none"
            raise ToolDefinitionError(f"tool {tool!r}: headers names {parameter!r}, not a parameter (it has {known})")
        marked["properties"][parameter][X_MCP_HEADER_KEY] = header
    problem = find_invalid_x_mcp_header(marked)
    if problem is not None:
        raise ToolDefinitionError(f"tool {tool!r}: headers: {problem}")
    return marked
