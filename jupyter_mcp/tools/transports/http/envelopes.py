"""``Envelopes``: a 2026-era client's connection, its envelope validated once, built (or copied) for each request.

A 2026-era request carries its client's identity in ``_meta`` (``clientInfo``, capabilities), and a
client sends the same ones with every request. ``Connection.from_envelope`` validates them into
models and builds the connection's parts each time; here the models are kept per envelope, and on
the fast path (``copies``) the connection too, each request getting a copy of it with its own
per-request parts (``state``, ``exit_stack``: the SDK adapter's ``copy_connection``).
"""

from __future__ import annotations

from typing import Any

import mcp_types as mt
from mcp.server.connection import Connection
from pydantic import BaseModel, ValidationError

from jupyter_mcp.adapters.sdk import copy_connection
from jupyter_mcp.tools import codec


class Envelopes:
    """The connections of the envelopes seen lately, by protocol version and envelope JSON text.

    A value that is not a valid model is given to the SDK raw, to treat as it does (not supplied).
    """

    SIZE = 256
    """Envelopes kept (one per client version in practice); when full, the memory starts over."""

    def __init__(self, *, copies: bool = True) -> None:
        self.copies = copies
        """Copy a connection built once per envelope (the fast path), or build one per request."""
        self._born: dict[tuple[str, bytes], Connection] = {}
        self._typed: dict[tuple[str, bytes], tuple[Any, Any]] = {}

    def connection(self, protocol_version: str, client_info: Any, capabilities: Any) -> Connection:
        """A connection for one request, as ``Connection.from_envelope`` builds it."""
        try:
            key = (protocol_version, codec.dumps([client_info, capabilities]))
        except (TypeError, ValueError):
            return Connection.from_envelope(protocol_version, client_info, capabilities)
        if not self.copies:
            return Connection.from_envelope(protocol_version, *self._models(key, client_info, capabilities))
        born = self._born.get(key)
        if born is None:
            if len(self._born) >= self.SIZE:
                self._born.clear()
            born = self._born[key] = Connection.from_envelope(
                protocol_version, *self._models(key, client_info, capabilities)
            )
        return copy_connection(born)

    def _models(self, key: tuple[str, bytes], client_info: Any, capabilities: Any) -> tuple[Any, Any]:
        typed = self._typed.get(key)
        if typed is None:
            if len(self._typed) >= self.SIZE:
                self._typed.clear()
            typed = self._typed[key] = (
                _model(mt.Implementation, client_info),
                _model(mt.ClientCapabilities, capabilities),
            )
        return typed


def _model(model: type[BaseModel], raw: Any) -> Any:
    try:
        return model.model_validate(raw, by_name=False)
    except ValidationError:
        return raw
