"""MCP Apps (the ``io.modelcontextprotocol/ui`` extension): every tool's card, drawn where the chat is.

A client that declares the extension (with the ``text/html;profile=mcp-app`` MIME type) gets, per
request and in both protocol eras, each tool's ``_meta.ui.resourceUri`` (and the flat
``ui/resourceUri``); ``resources/read`` of that ``ui://`` URI answers one self-contained HTML
document (the component set bundled with a small host-protocol layer, ``document.py``), and two
app-only tools (``_meta.ui.visibility: ["app"]``, ``apponly.py``) give the app a call's live status
and a ``result://`` link's full value in chunks. Any other client gets exactly what it got before.

Opening an app adds nothing to the notebook's history: the document and the app-only tools are
answered here, beside the call path, not through it; only what the user does in the app (a re-run)
is a call.

Imports the rooms below it (components, budget, calls, approvals) and the shared modules.
"""
