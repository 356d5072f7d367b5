"""The union as it is now and as it changes.

Lowest first: ``upstream`` (one message to a kernel), ``members`` (which notebooks serve, under
which prefix; names from ``jupyter_mcp.prefixes``), ``scope`` (which of them a client sees),
``watch`` (noticing changes), ``catalog`` (the merged lists), ``sessions`` and ``listeners``
(2025-era client sessions, 2026-era listen streams), ``union`` (the state that holds them all).
"""
