"""``ClippedText``: text that grows without bound, kept as its head and tail within a budget.

A tool that prints megabytes must not fill the kernel's memory, and the notebook user must see
both how the output began and how it ended, with the exact amount left out in between.
"""

from __future__ import annotations

from collections import deque

DROPPED = "\n[… {:,} characters dropped here: the output kept its first {:,} and last {:,} …]\n"


class ClippedText:
    """Keeps the first ``limit // 2`` characters and the last ``limit - limit // 2``; counts the rest.

    Example::

        text = ClippedText(10)
        text.append("0123456789abcdef")
        str(text)  # "01234" + a marker saying 6 characters were dropped + "bcdef"
    """

    def __init__(self, limit: int) -> None:
        if limit < 2:
            raise ValueError("an output budget needs at least 2 characters")
        self.limit = limit
        self._head_limit = limit // 2
        self._tail_limit = limit - self._head_limit
        self._head: list[str] = []
        self._head_size = 0
        self._tail: deque[str] = deque()
        self._tail_size = 0
        self.dropped = 0
        """Characters written but no longer kept."""

    def append(self, text: str) -> None:
        if self._head_size < self._head_limit:
            room = self._head_limit - self._head_size
            self._head.append(text[:room])
            self._head_size += min(room, len(text))
            text = text[room:]
        if text:
            self._tail.append(text)
            self._tail_size += len(text)
            self._trim_tail()

    def _trim_tail(self) -> None:
        excess = self._tail_size - self._tail_limit
        while excess > 0:
            first = self._tail[0]
            if len(first) <= excess:
                self._tail.popleft()
                cut = len(first)
            else:
                self._tail[0] = first[excess:]
                cut = excess
            self._tail_size -= cut
            self.dropped += cut
            excess -= cut

    @property
    def total(self) -> int:
        """Every character ever appended."""
        return self._head_size + self._tail_size + self.dropped

    def __len__(self) -> int:
        return self._head_size + self._tail_size

    def __bool__(self) -> bool:
        return self.total > 0

    def __str__(self) -> str:
        head, tail = "".join(self._head), "".join(self._tail)
        if not self.dropped:
            return head + tail
        return head + DROPPED.format(self.dropped, self._head_size, self._tail_size) + tail
