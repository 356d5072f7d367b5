"""``Envelopes``: a 2026-era client's connection, built once from its envelope and copied for each request.

A 2026-era request carries its client's identity in ``_meta`` (``clientInfo``, capabilities), and a
client sends the same ones with every request. ``Connection.from_envelope`` validates them into
models and builds the connection's parts each time; here that is done once per envelope, and each
request gets a copy of that connection with its own per-request parts (``state``, ``exit_stack``).
"""

from __future__ import annotations

import copy
from contextlib import AsyncExitStack
from typing import Any

import mcp_types as mt
from mcp.server.connection import Connection
from pydantic import BaseModel, ValidationError

from jupyter_mcp.tools import codec

SHARED = frozenset({"outbound", "protocol_version", "session_id", "client_capabilities", "_client_params"})
"""The attributes a born-ready connection's copies share: fixed by the envelope, never written per request
(``initialized`` is set at birth and stays set: shared too)."""
FRESH = {"state": dict, "exit_stack": AsyncExitStack}
"""The attributes each request gets new, for what handlers and middleware keep and unwind per request."""


class Envelopes:
    """The connections of the envelopes seen lately, by protocol version and envelope JSON text.

    A value that is not a valid model is given to the SDK raw, to treat as it does (not supplied).
    """

    SIZE = 256
    """Envelopes kept (one per client version in practice); when full, the memory starts over."""

    def __init__(self) -> None:
        self._born: dict[tuple[str, bytes], Connection] = {}

    def connection(self, protocol_version: str, client_info: Any, capabilities: Any) -> Connection:
        """A connection for one request, as ``Connection.from_envelope`` builds it."""
        try:
            key = (protocol_version, codec.dumps([client_info, capabilities]))
        except (TypeError, ValueError):
            return Connection.from_envelope(protocol_version, client_info, capabilities)
        born = self._born.get(key)
        if born is None:
            if len(self._born) >= self.SIZE:
                self._born.clear()
            typed = _model(mt.Implementation, client_info), _model(mt.ClientCapabilities, capabilities)
            born = self._born[key] = Connection.from_envelope(protocol_version, *typed)
        fresh = copy.copy(born)
        for name, make in FRESH.items():
            setattr(fresh, name, make())
        return fresh


def _model(model: type[BaseModel], raw: Any) -> Any:
    try:
        return model.model_validate(raw, by_name=False)
    except ValidationError:
        return raw
