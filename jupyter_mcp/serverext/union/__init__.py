"""``<jupyter url>/mcp``: every notebook's tools, resources and prompts as one MCP server.

Two rooms, lowest first, and the HTTP fronts on top:

- ``live``: the union as it is now and as it changes — which notebooks serve and under which
  prefix, what each client sees, the merged lists, clients' sessions and listen streams, ``Union``.
- ``routing``: the protocol — a client's request to the notebook it names and the answer back,
  names rewritten both ways, per era (``modern`` for 2026-07-28, ``legacy`` for 2025-era sessions).
- ``handler`` (``/mcp`` over HTTP, Jupyter's auth) and ``rest`` (what the sidebar reads).

``live`` never imports ``routing``; neither imports the fronts.
"""
