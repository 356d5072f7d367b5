"""The border with other libraries: one adapter per library holds every reach past its public API.

The rest of the package names no other library's private parts (``tests/test_private_names.py``
and ruff's ``SLF001`` hold it so). Each adapter lists what it reaches, why, and the public API that
would make the reach unnecessary; each checks at start-up that what it relies on is still there
and still behaves (``check()``), and when it is not, its fast paths stay off and the server serves
through the library's public API instead (``fastpaths.settle`` logs one warning saying why).

- ``sdk``: mcp 2.x's session manager, transports, dispatcher and runner (2025-era requests answered in
  their own task, lists from bytes in a session, results shaped in one dump, envelopes copied).
- ``stdlib``: asyncio's running-loop slot (quick sync tools run inline) and an exit stack's callbacks.
- ``ipykernel``: the kernel's status publisher and its shell-channel stream (the kernel channel).
- ``jupyter_client``: a message's signature noted as used, without ``Session.deserialize``.
- ``jupyter_server``: which kernels its kernel manager is shutting down.

This package imports no other part of ``jupyter_mcp``; ``fastpaths`` is what the servers use.
"""
