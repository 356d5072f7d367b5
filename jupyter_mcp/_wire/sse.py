"""The one incremental ``text/event-stream`` parser (WHATWG HTML, "Server-sent events"), bytes in; what goes out.

The bridge reads MCP messages out of it; the proxy asks it whether a stream sits between two
events, where a keepalive comment can go without splitting one. Values stay the bytes on the
wire (UTF-8): the bridge relays ``data`` as it came, with no decode and re-encode. Every event
written (a kernel's, the union's) carries its JSON ``line_safe``.
"""

from __future__ import annotations

from dataclasses import dataclass

_CR, _LF = b"\r", b"\n"


@dataclass(frozen=True, slots=True)
class Event:
    """One dispatched event: its ``data`` lines joined by LF, its type, and the last event id so far."""

    data: bytes
    event: bytes = b"message"
    id: bytes = b""


_LINE_BREAKS = [(chr(c).encode(), f"\\u{c:04x}".encode()) for c in (0x85, 0x2028, 0x2029)]
"""Characters JSON may carry raw that ``str.splitlines`` (not SSE) takes for line breaks, and their escapes."""


def line_safe(data: bytes) -> bytes:
    """``data`` (UTF-8 JSON) with U+0085, U+2028 and U+2029 written as JSON escapes: an SSE ``data`` line ends
    only at CR or LF, but readers that split lines as Python's ``str.splitlines`` does (several SSE libraries)
    would cut the event at those characters. The same string once parsed."""
    if b"\xc2\x85" not in data and b"\xe2\x80" not in data:  # the UTF-8 leads of all three: most data has none
        return data
    for raw, escaped in _LINE_BREAKS:
        if raw in data:
            data = data.replace(raw, escaped)
    return data


def comment(text: str) -> bytes:
    """A comment line and the blank line after it: every client ignores it (``: keepalive``)."""
    if "\r" in text or "\n" in text:
        raise ValueError("an SSE comment cannot contain a line break")
    return b": " + text.encode() + b"\n\n"


class EventParser:
    """Feed body chunks as they arrive, cut anywhere; get each complete event.

    Lines may end in CRLF, LF or CR; comments are skipped; ``id`` persists across events as the
    spec says; ``retry`` updates ``retry`` (milliseconds). An event without ``data`` is not
    dispatched, and neither is an unfinished one when the stream ends.

    Example::

        parser = EventParser()
        parser.feed(b'event: message\\r\\ndata: {"id":1}\\r')  # [Event(data=b'{"id":1}')]
        parser.at_boundary                                    # False: a blank line must follow
    """

    def __init__(self) -> None:
        self._partial: list[bytes] = []
        self._after_cr = False
        self._data: list[bytes] = []
        self._event = b""
        self._in_event = False
        self.last_event_id = b""
        self.retry: int | None = None

    @property
    def at_boundary(self) -> bool:
        """Whether everything fed so far ends at an event boundary (no line, no event under way)."""
        return not self._partial and not self._in_event

    def feed(self, chunk: bytes) -> list[Event]:
        if not chunk:
            return []
        if self._after_cr:  # the previous chunk ended in CR: an LF here belongs to that line end
            self._after_cr = False
            chunk = chunk.removeprefix(_LF)
        if _LF not in chunk and _CR not in chunk:
            if chunk:
                self._partial.append(chunk)  # pieces of one long line are joined once, when it ends
            return []
        self._after_cr = chunk.endswith(_CR)
        if self._partial:
            chunk = b"".join([*self._partial, chunk])
            self._partial = []
        lines = chunk.replace(b"\r\n", _LF).replace(_CR, _LF).split(_LF)
        if rest := lines.pop():
            self._partial.append(rest)
        events: list[Event] = []
        for line in lines:
            if line:
                self._line(line)
            elif (event := self._dispatch()) is not None:
                events.append(event)
        return events

    def _line(self, line: bytes) -> None:
        self._in_event = True
        if line.startswith(b":"):
            return  # a comment
        name, _, value = line.partition(b":")
        value = value.removeprefix(b" ")
        if name == b"data":
            self._data.append(value)
        elif name == b"event":
            self._event = value
        elif name == b"id":
            if b"\0" not in value:
                self.last_event_id = value
        elif name == b"retry" and value.isdigit():
            self.retry = int(value)

    def _dispatch(self) -> Event | None:
        data, event = self._data, self._event
        self._data, self._event, self._in_event = [], b"", False
        if not data:
            return None
        return Event(_LF.join(data), event or b"message", self.last_event_id)
