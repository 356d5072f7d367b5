"""jupyter_client's private parts this package reaches; ``ADAPTER.check()`` tests them.

The reach, why, and the public API that would end it:

- ``Session._add_digest``, with a copy of ``Session.deserialize``'s signature check: the kernel
  channel's messages taken in ipykernel's shell-channel thread are checked (signed with the
  kernel's key, not a replay) and their signature noted as used, without deserializing what they do
  not need: ``deserialize`` took a third of that thread's time (``verified``). Public alternative: a
  ``Session`` method that checks and notes a signature.

When the check fails, or the fast paths are off: those messages are read with
``Session.deserialize``, as every other message is.
"""

from __future__ import annotations

from hmac import compare_digest
from typing import Any

from jupyter_mcp.adapters.fastpaths import Adapter

LIBRARY = "jupyter_client"


def verified(session: Any, signed: list[bytes]) -> bool:
    """Whether ``signed`` (signature, header, parent, metadata, content) carries the key's signature and is no
    replay; a good signature is noted as used, as ``Session.deserialize`` notes it (bounded there)."""
    if session.auth is None:
        return True
    signature = signed[0]
    if not signature or signature in session.digest_history:
        return False
    if not compare_digest(signature, session.sign(signed[1:5])):
        return False
    session._add_digest(signature)
    return True


def check() -> str | None:
    """``None`` when the reach holds in the installed jupyter_client, else why not."""
    from jupyter_client.session import Session

    session = Session(key=b"probe")
    parts = [session.pack(part) for part in ({"msg_id": "1"}, {}, {}, {})]
    signed = [session.sign(parts), *parts]
    if not verified(session, signed):
        return "a message signed with the session's key does not verify"
    if signed[0] not in session.digest_history or verified(session, signed):
        return "Session._add_digest no longer notes a signature as used"
    return None


ADAPTER = Adapter(LIBRARY, check, "Session.deserialize")
