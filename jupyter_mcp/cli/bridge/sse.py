"""An incremental ``text/event-stream`` parser: bytes in, the ``data`` of each message event out."""

from __future__ import annotations


class EventStream:
    """Feed body chunks; get the data of every complete ``message`` event (comments and pings skipped).

    Example::

        stream = EventStream()
        stream.feed(b'event: message\\r\\ndata: {"id":1}\\r\\n\\r\\n')  # [b'{"id":1}']
    """

    def __init__(self) -> None:
        self._pending = b""
        self._data: list[bytes] = []
        self._event = b"message"

    def feed(self, chunk: bytes) -> list[bytes]:
        text = self._pending + chunk
        # A chunk may end between CR and LF: keep the CR until the next chunk says which it was.
        held = b"\r" if text.endswith(b"\r") else b""
        if held:
            text = text[:-1]
        lines = text.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        self._pending = lines.pop() + held
        events: list[bytes] = []
        for line in lines:
            if line:
                self._field(line)
            else:
                data = b"\n".join(self._data)
                if data and self._event == b"message":  # an empty event (a resumption primer) carries nothing
                    events.append(data)
                self._data = []
                self._event = b"message"
        return events

    def _field(self, line: bytes) -> None:
        name, _, value = line.partition(b":")
        value = value.removeprefix(b" ")
        if name == b"data":
            self._data.append(value)
        elif name == b"event":
            self._event = value or b"message"
        # "id", "retry" and comments (empty name) do not matter to a relay that never resumes.
