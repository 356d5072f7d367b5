"""``Observers``: a thread-safe list of callbacks, each isolated from the others' failures."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Observers(Generic[T]):
    """Add/remove from any thread; iterate a snapshot while others change the list (copy on write)."""

    def __init__(self, owner: str) -> None:
        self._items: tuple[T, ...] = ()
        self._lock = threading.Lock()
        self._logger = logging.getLogger(owner)

    def add(self, observer: T) -> Callable[[], None]:
        """Add ``observer``; returns the function that removes it."""
        with self._lock:
            self._items = (*self._items, observer)

        def remove() -> None:
            with self._lock:
                self._items = tuple(o for o in self._items if o is not observer)

        return remove

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def each(self, call: Callable[[T], object]) -> None:
        """``call(observer)`` for each; a failing observer is logged and the rest still run."""
        for observer in self._items:
            try:
                call(observer)
            except Exception:  # one observer (a widget, a listener) must never break the others or a call
                self._logger.exception("observer %r failed", observer)
