"""JSON onto the wire as bytes: orjson when it is installed, pydantic's encoder for what orjson refuses.

orjson encodes a result 5-10× faster than ``json.dumps`` and gives bytes, which is what goes out.
It refuses what JSON-RPC results rarely hold (integers past 64 bits, keys that are not strings,
objects it does not know); pydantic-core's ``to_json`` encodes those as the SDK would. Output is
compact and UTF-8 (no ``\\uXXXX`` escapes for non-ASCII text), valid JSON either way.
"""

from __future__ import annotations

from typing import Any

import pydantic_core

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; a source checkout may lack it
    orjson = None  # type: ignore[assignment]


def dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON."""
    if orjson is not None:
        try:
            return orjson.dumps(value)
        except TypeError:
            pass  # a big integer, a non-string key, a model: pydantic knows them
    return pydantic_core.to_json(value)
