"""``ToolRegistry``: the set of tools, their visibility rules, and change events."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Literal

from jupyter_mcp.tools.observers import Observers
from jupyter_mcp.tools.tool import Tool

logger = logging.getLogger(__name__)

OnDuplicate = Literal["warn", "error", "replace", "ignore"]
ChangeKind = Literal["added", "replaced", "removed", "enabled", "disabled"]


@dataclass(frozen=True)
class RegistryChange:
    """What changed; ``tools`` names the affected tools (empty for a rule-only change)."""

    kind: ChangeKind
    tools: tuple[str, ...]


ChangeListener = Callable[[RegistryChange], None]


class DuplicateToolError(ValueError):
    """Raised by ``add`` when ``on_duplicate="error"`` and the name is taken."""


class ToolRegistry:
    """Thread-safe tools by name, with enable/disable by name and tag and an allow-list mode.

    Every change calls the listeners with a ``RegistryChange`` (outside the lock).
    """

    def __init__(self, on_duplicate: OnDuplicate = "warn") -> None:
        if on_duplicate not in ("warn", "error", "replace", "ignore"):
            raise ValueError(f"on_duplicate must be warn, error, replace or ignore; got {on_duplicate!r}")
        self.on_duplicate: OnDuplicate = on_duplicate
        self._tools: dict[str, Tool] = {}
        self._disabled_tags: set[str] = set()
        self._allowed_names: set[str] | None = None
        self._allowed_tags: set[str] | None = None
        self._lock = threading.RLock()
        self._listeners: Observers[ChangeListener] = Observers(__name__)

    # ---- listeners -------------------------------------------------------------------------------

    def subscribe(self, listener: ChangeListener) -> Callable[[], None]:
        """Call ``listener`` on every change; returns an unsubscribe function."""
        return self._listeners.add(listener)

    def _emit(self, change: RegistryChange) -> None:
        self._listeners.each(lambda listener: listener(change))

    # ---- membership ------------------------------------------------------------------------------

    def add(self, tool: Tool, *, on_duplicate: OnDuplicate | None = None) -> Tool:
        """Add ``tool``; what happens to an existing name follows ``on_duplicate``. Returns the kept tool."""
        policy = on_duplicate or self.on_duplicate
        with self._lock:
            existing = self._tools.get(tool.name)
            if existing is not None:
                if policy == "error":
                    raise DuplicateToolError(f"a tool named {tool.name!r} is already registered")
                if policy == "ignore":
                    return existing
                if policy == "warn":
                    logger.warning("tool %r replaced by a new registration", tool.name)
            self._tools[tool.name] = tool
        self._emit(RegistryChange("replaced" if existing is not None else "added", (tool.name,)))
        return tool

    def remove(self, name: str) -> Tool:
        """Remove and return the tool; ``KeyError`` naming the known tools if absent."""
        with self._lock:
            if name not in self._tools:
                raise KeyError(_unknown(name, self._tools))
            tool = self._tools.pop(name)
        self._emit(RegistryChange("removed", (name,)))
        return tool

    def clear(self) -> None:
        with self._lock:
            names = tuple(self._tools)
            self._tools.clear()
        if names:
            self._emit(RegistryChange("removed", names))

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def all(self) -> dict[str, Tool]:
        """Every registered tool, visible or not."""
        with self._lock:
            return dict(self._tools)

    # ---- visibility ------------------------------------------------------------------------------

    def is_visible(self, tool: Tool) -> bool:
        if not tool.enabled or tool.tags & self._disabled_tags:
            return False
        if self._allowed_names is None and self._allowed_tags is None:
            return True
        return tool.name in (self._allowed_names or ()) or bool(tool.tags & (self._allowed_tags or set()))

    def visible(self) -> list[Tool]:
        """Tools a client may list and call, in registration order."""
        with self._lock:
            return [t for t in self._tools.values() if self.is_visible(t)]

    def get(self, name: str) -> Tool | None:
        """The tool if it exists and is visible; disabled tools look like unknown ones."""
        tool = self._tools.get(name)
        return tool if tool is not None and self.is_visible(tool) else None

    def enable(
        self, names: Collection[str] | None = None, tags: Collection[str] | None = None, *, only: bool = False
    ) -> None:
        """Enable tools by name and tag. ``only=True`` switches to allow-list mode: just these are visible."""
        names, tags = set(names or ()), set(tags or ())
        with self._lock:
            self._check_names(names)
            for name in names:
                self._tools[name].enabled = True
            self._disabled_tags -= tags
            if only:
                self._allowed_names, self._allowed_tags = names, tags
            elif self._allowed_names is not None or self._allowed_tags is not None:
                self._allowed_names = (self._allowed_names or set()) | names
                self._allowed_tags = (self._allowed_tags or set()) | tags
        self._emit(RegistryChange("enabled", tuple(sorted(names))))

    def disable(self, names: Collection[str] | None = None, tags: Collection[str] | None = None) -> None:
        """Hide tools by name and tag from ``tools/list``; calls to them are refused like unknown tools."""
        names, tags = set(names or ()), set(tags or ())
        with self._lock:
            self._check_names(names)
            for name in names:
                self._tools[name].enabled = False
            self._disabled_tags |= tags
        self._emit(RegistryChange("disabled", tuple(sorted(names))))

    def _check_names(self, names: set[str]) -> None:
        missing = sorted(n for n in names if n not in self._tools)
        if missing:
            raise KeyError(_unknown(missing[0], self._tools))


def _unknown(name: str, tools: dict[str, Tool]) -> str:
    known = ", ".join(sorted(tools)) or "none"
    return f"no tool named {name!r} (registered: {known})"
