"""``ByIdentity``: values kept per object, by the object's identity (for objects that need not be hashable)."""

from __future__ import annotations

from typing import Generic, TypeVar

V = TypeVar("V")


class ByIdentity(Generic[V]):
    """A bounded memory of one value per object: each object is held with its value, so its ``id`` stays
    its own while it is kept; when ``size`` objects are kept, the memory starts over.

    Example::

        seen = ByIdentity[bool]()
        seen.put(schema, True)
        seen.get(schema)    # True; None for an object not kept (or an equal but other one)
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._kept: dict[int, tuple[object, V]] = {}

    def get(self, obj: object) -> V | None:
        known = self._kept.get(id(obj))
        return known[1] if known is not None and known[0] is obj else None

    def put(self, obj: object, value: V) -> None:
        if len(self._kept) >= self.size:
            self._kept.clear()
        self._kept[id(obj)] = (obj, value)
