"""Registries: the tools, resources or prompts a server holds, their visibility rules, and change events.

``Registry`` is the one implementation; ``ToolRegistry``, ``ResourceRegistry`` (in resources.py) and
``PromptRegistry`` (in prompts.py) say only what kind they hold. Components are filed by ``key``: the
name of a tool or prompt, the URI (or URI template) of a resource.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from jupyter_mcp.tools.components.base import Kind
from jupyter_mcp.tools.components.tool import Tool
from jupyter_mcp.tools.observers import Observers

logger = logging.getLogger(__name__)

OnDuplicate = Literal["warn", "error", "replace", "ignore"]
ChangeKind = Literal["added", "replaced", "removed", "enabled", "disabled"]


class Component(Protocol):
    """What a registry needs from what it holds."""

    name: str
    tags: frozenset[str]
    enabled: bool

    @property
    def key(self) -> str: ...


C = TypeVar("C", bound=Component)


@dataclass(frozen=True)
class RegistryChange:
    """What changed: ``keys`` names the affected components (empty for a rule-only change)."""

    kind: ChangeKind
    keys: tuple[str, ...]
    component: Kind = "tool"
    """Which registry changed: ``"tool"``, ``"resource"`` or ``"prompt"``."""


ChangeListener = Callable[[RegistryChange], None]


class DuplicateToolError(ValueError):
    """Raised by ``add`` when ``on_duplicate="error"`` and the key is taken (for any kind)."""


class Registry(Generic[C]):
    """Thread-safe components by key, with enable/disable by name and tag and an allow-list mode.

    Every change calls the listeners with a ``RegistryChange`` (outside the lock).
    """

    kind: ClassVar[Kind]

    def __init__(self, on_duplicate: OnDuplicate = "warn") -> None:
        if on_duplicate not in ("warn", "error", "replace", "ignore"):
            raise ValueError(f"on_duplicate must be warn, error, replace or ignore; got {on_duplicate!r}")
        self.on_duplicate: OnDuplicate = on_duplicate
        self._items: dict[str, C] = {}
        self._disabled_tags: set[str] = set()
        self._allowed_keys: set[str] | None = None
        self._allowed_tags: set[str] | None = None
        self._lock = threading.RLock()
        self._listeners: Observers[ChangeListener] = Observers(__name__)

    # ---- listeners -------------------------------------------------------------------------------

    def subscribe(self, listener: ChangeListener) -> Callable[[], None]:
        """Call ``listener`` on every change; returns an unsubscribe function."""
        return self._listeners.add(listener)

    def _emit(self, kind: ChangeKind, keys: tuple[str, ...]) -> None:
        change = RegistryChange(kind, keys, self.kind)
        self._listeners.each(lambda listener: listener(change))

    # ---- membership ------------------------------------------------------------------------------

    def add(self, item: C, *, on_duplicate: OnDuplicate | None = None) -> C:
        """Add ``item``; what happens to an existing key follows ``on_duplicate``. Returns the kept one."""
        policy = on_duplicate or self.on_duplicate
        with self._lock:
            existing = self._items.get(item.key)
            if existing is not None:
                if policy == "error":
                    raise DuplicateToolError(f"a {self.kind} {item.key!r} is already registered")
                if policy == "ignore":
                    return existing
                if policy == "warn":
                    logger.warning("%s %r replaced by a new registration", self.kind, item.key)
            self._items[item.key] = item
        self._emit("replaced" if existing is not None else "added", (item.key,))
        return item

    def remove(self, key: str) -> C:
        """Remove and return the component; ``KeyError`` naming the known ones if absent."""
        with self._lock:
            if key not in self._items:
                raise KeyError(self._unknown(key))
            item = self._items.pop(key)
        self._emit("removed", (key,))
        return item

    def clear(self) -> None:
        with self._lock:
            keys = tuple(self._items)
            self._items.clear()
        if keys:
            self._emit("removed", keys)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def all(self) -> dict[str, C]:
        """Every registered component by key, visible or not."""
        with self._lock:
            return dict(self._items)

    def resolve(self, names: Collection[str]) -> set[str]:
        """The keys of the components ``names`` refer to, by key or by name (unknown names are skipped)."""
        with self._lock:
            return {key for key, item in self._items.items() if key in names or item.name in names}

    # ---- visibility ------------------------------------------------------------------------------

    def is_visible(self, item: C) -> bool:
        if not item.enabled or item.tags & self._disabled_tags:
            return False
        if self._allowed_keys is None and self._allowed_tags is None:
            return True
        return item.key in (self._allowed_keys or ()) or bool(item.tags & (self._allowed_tags or set()))

    def visible(self) -> list[C]:
        """Components a client may list and use, in registration order."""
        with self._lock:
            return [item for item in self._items.values() if self.is_visible(item)]

    def get(self, key: str) -> C | None:
        """The component if it exists and is visible; disabled ones look like unknown ones."""
        item = self._items.get(key)
        return item if item is not None and self.is_visible(item) else None

    def enable(
        self, names: Collection[str] | None = None, tags: Collection[str] | None = None, *, only: bool = False
    ) -> None:
        """Enable by key (or name) and tag. ``only=True`` switches to allow-list mode: just these are visible."""
        keys, tags = self._keys(names), set(tags or ())
        with self._lock:
            for key in keys:
                self._items[key].enabled = True
            self._disabled_tags -= tags
            if only:
                self._allowed_keys, self._allowed_tags = keys, tags
            elif self._allowed_keys is not None or self._allowed_tags is not None:
                self._allowed_keys = (self._allowed_keys or set()) | keys
                self._allowed_tags = (self._allowed_tags or set()) | tags
        self._emit("enabled", tuple(sorted(keys)))

    def disable(self, names: Collection[str] | None = None, tags: Collection[str] | None = None) -> None:
        """Hide by key (or name) and tag from listings; requests for them are refused like unknown ones."""
        keys, tags = self._keys(names), set(tags or ())
        with self._lock:
            for key in keys:
                self._items[key].enabled = False
            self._disabled_tags |= tags
        self._emit("disabled", tuple(sorted(keys)))

    def _keys(self, names: Collection[str] | None) -> set[str]:
        wanted = set(names or ())
        keys = self.resolve(wanted)
        found = keys | {self._items[key].name for key in keys}
        missing = sorted(wanted - found)
        if missing:
            raise KeyError(self._unknown(missing[0]))
        return keys

    def _unknown(self, key: str) -> str:
        known = ", ".join(sorted(self._items)) or "none"
        return f"no {self.kind} named {key!r} (registered: {known})"


class ToolRegistry(Registry[Tool]):
    """The tools, by name."""

    kind: ClassVar[Kind] = "tool"


def split_by_registry(
    registries: Sequence[Registry[Any]], names: Collection[str] | None
) -> list[tuple[Registry[Any], set[str]]]:
    """Each registry with the keys ``names`` refer to in it; ``KeyError`` for a name none knows."""
    wanted = set(names or ())
    split = [(registry, registry.resolve(wanted)) for registry in registries]
    known = {name for registry, keys in split for key in keys for name in (key, registry.all()[key].name)}
    missing = sorted(wanted - known)
    if missing:
        everything = sorted(key for registry in registries for key in registry.all())
        raise KeyError(f"nothing named {missing[0]!r} (registered: {', '.join(everything) or 'none'})")
    return split
