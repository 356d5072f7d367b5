"""Who an MCP client of the notebook tools is: the one place that says it.

Today a client is known by the name it gives itself (``clientInfo`` in a 2025-era ``initialize``, the
request's ``_meta`` in the 2026 era), which is what the approvals, the read-only limits and the
collaborator shown in a notebook call it. Once the MCP routes take OAuth tokens, the name the token
carries belongs here instead, and everything that names an agent follows.
"""

from __future__ import annotations

from jupyter_mcp.tools.calls.context import Context

UNNAMED = "an MCP client"


def agent_name(ctx: Context) -> str:
    """The name a client goes by in the notebooks (its collaborator name, its undo history)."""
    info = ctx.client_info
    return info.name if info is not None and info.name else UNNAMED
