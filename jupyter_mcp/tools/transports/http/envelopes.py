"""``Envelopes``: a 2026-era client's typed envelope, kept for its next requests.

A 2026-era request carries its client's identity in ``_meta`` (``clientInfo``, capabilities), and a
client sends the same ones with every request. ``Connection.from_envelope`` validates them into
models each time; given models, it takes them as they are.
"""

from __future__ import annotations

from typing import Any

import mcp_types as mt
from pydantic import BaseModel, ValidationError

from jupyter_mcp.tools import codec


class Envelopes:
    """The typed ``clientInfo`` and ``capabilities`` of the envelopes seen lately, by their JSON text.

    A value that is not a valid model is given back raw, for the SDK to treat as it does (not supplied).
    """

    SIZE = 256
    """Envelopes kept (one per client version in practice); when full, the memory starts over."""

    def __init__(self) -> None:
        self._typed: dict[bytes, tuple[Any, Any]] = {}

    def typed(self, client_info: Any, capabilities: Any) -> tuple[Any, Any]:
        try:
            key = codec.dumps([client_info, capabilities])
        except (TypeError, ValueError):
            return client_info, capabilities
        found = self._typed.get(key)
        if found is None:
            if len(self._typed) >= self.SIZE:
                self._typed.clear()
            found = (_model(mt.Implementation, client_info), _model(mt.ClientCapabilities, capabilities))
            self._typed[key] = found
        return found


def _model(model: type[BaseModel], raw: Any) -> Any:
    try:
        return model.model_validate(raw, by_name=False)
    except ValidationError:
        return raw
