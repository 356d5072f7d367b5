"""The SSE parser: events split anywhere across chunks, every line ending, comments and primers."""

from __future__ import annotations

import pytest

from jupyter_mcp.cli.bridge.sse import EventStream

STREAM = (
    b": ping - keep-alive\r\n\r\n"
    b"id: 7\r\nevent: message\r\ndata: \r\n\r\n"  # an empty primer for resumption
    b'event: message\r\ndata: {"id":1}\r\n\r\n'
    b'data: {"a":\ndata: 2}\n\n'
    b"event: other\rdata: ignored\r\r"
    b'data: {"id":3}\r\n\r\n'
)
EVENTS = [b'{"id":1}', b'{"a":\n2}', b'{"id":3}']


def test_a_whole_stream() -> None:
    assert EventStream().feed(STREAM) == EVENTS


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 16])
def test_any_chunking_gives_the_same_events(size: int) -> None:
    stream = EventStream()
    events = []
    for start in range(0, len(STREAM), size):
        events += stream.feed(STREAM[start : start + size])
    assert events == EVENTS


def test_an_unfinished_event_waits_for_its_blank_line() -> None:
    stream = EventStream()
    assert stream.feed(b'data: {"id":1}\r\n') == []
    assert stream.feed(b"\r") == []
    assert stream.feed(b"\n") == [b'{"id":1}']
