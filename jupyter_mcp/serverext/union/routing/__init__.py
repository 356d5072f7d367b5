"""The union's protocol: a client's request on its way to its notebook, and the answer back.

Lowest first: ``replies`` (what goes back over HTTP), ``rewrite`` (names in a kernel's terms and
back), ``router`` (the lists answered here, everything else sent to the notebook it names),
``forward`` (one request relayed, the kernel's answer translated), then the two eras: ``modern``
(2026-07-28 stateless requests) and ``legacy`` (2025-era sessions and their streams).
"""
