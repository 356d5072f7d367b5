"""Which signed-in client the request being served is from (``current``), as the Jupyter server vouches.

The HTTP transport sets it from the ``Jupyter-MCP-Signed-In`` header of a request that presented the
server's token (``jupyter_mcp.shapes.signedin``); the protocol names the client by it and the
approvals hold a read-only grant to read-only tools. Work a request starts (its call, a task) sees the
value the request had, as context variables go.
"""

from __future__ import annotations

from contextvars import ContextVar

from jupyter_mcp.shapes.signedin import SignedIn

current: ContextVar[SignedIn | None] = ContextVar("jupyter_mcp_signed_in", default=None)
