"""``<jupyter url>/mcp``: every notebook's tools, resources and prompts as one MCP server.

Rooms, lowest first: ``upstream`` (one message to a kernel), ``members`` (which notebooks serve,
under which prefix, and which a client sees; names from ``jupyter_mcp.prefixes``), ``watch``
(noticing changes), ``catalog`` (the merged lists), ``rewrite`` and ``forward`` (a
request to its notebook and the answer back, names rewritten both ways), ``sessions`` and
``listeners`` (2025-era sessions, 2026-era listen streams), ``union`` (the state), ``router``,
``modern`` and ``legacy`` (the protocol, per era), ``handler`` (HTTP) and ``rest`` (what the
sidebar reads).
"""
