"""The one SSE parser: every line ending, any chunking (inside a field name, a value, a CRLF),
multi-line data, comments, ids and retry; checked by hand and against a whole-text reference."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jupyter_mcp._wire.sse import Event, EventParser, comment

STREAM = (
    b": ping - keep-alive\r\n\r\n"
    b"id: 7\r\nevent: message\r\ndata: \r\n\r\n"  # an empty primer for resumption
    b'event: message\r\ndata: {"id":1}\r\n\r\n'
    b'data: {"a":\ndata: 2}\n\n'
    b"event: other\rdata: typed\r\r"
    b'retry: 1500\r\nid: 9\r\ndata: {"id":3}\r\n\r\n'
)
EVENTS = [
    Event(b"", b"message", b"7"),
    Event(b'{"id":1}', b"message", b"7"),
    Event(b'{"a":\n2}', b"message", b"7"),
    Event(b"typed", b"other", b"7"),
    Event(b'{"id":3}', b"message", b"9"),
]


def feed_in_pieces(data: bytes, cuts: list[int]) -> tuple[EventParser, list[Event]]:
    parser, events, start = EventParser(), [], 0
    for cut in [*sorted(cuts), len(data)]:
        events += parser.feed(data[start:cut])
        start = cut
    return parser, events


def test_a_whole_stream() -> None:
    parser = EventParser()
    assert parser.feed(STREAM) == EVENTS
    assert (parser.retry, parser.last_event_id, parser.at_boundary) == (1500, b"9", True)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 16])
def test_any_chunking_gives_the_same_events(size: int) -> None:
    assert feed_in_pieces(STREAM, list(range(size, len(STREAM), size)))[1] == EVENTS


@pytest.mark.parametrize(
    ("cuts", "where"),
    [([2], "inside the field name"), ([8], "inside the value"), ([14], "between CR and LF"), ([15], "after the CRLF")],
)
def test_a_cut_inside_a_field(cuts: list[int], where: str) -> None:
    assert feed_in_pieces(b'data: {"id":1}\r\n\r\n', cuts)[1] == [Event(b'{"id":1}')], where


def test_an_event_ends_at_its_blank_line_not_at_the_next_chunk() -> None:
    parser = EventParser()
    assert parser.feed(b'data: {"id":1}\r\n') == []
    assert not parser.at_boundary
    assert parser.feed(b"\r") == [Event(b'{"id":1}')]  # a CR ends the line: no need to see what follows
    assert parser.at_boundary
    assert parser.feed(b"\ndata: 2\n\n") == [Event(b"2")]  # that CR's LF is not another blank line


@pytest.mark.parametrize("ending", [b"\r\n", b"\n", b"\r"])
def test_every_line_ending(ending: bytes) -> None:
    text = ending.join([b"event: update", b"data: one", b"data:two", b"data", b"", b""])
    assert EventParser().feed(text) == [Event(b"one\ntwo\n", b"update")]


def test_fields_as_the_spec_reads_them() -> None:
    parser = EventParser()
    text = b"data:  two spaces\nunknown: x\nretry: soon\nid: a\0b\ndata: x:y\n\n"
    assert parser.feed(text) == [Event(b" two spaces\nx:y")]  # one space after the colon is dropped
    assert (parser.retry, parser.last_event_id) == (None, b"")  # a non-numeric retry, an id with NUL: ignored
    assert parser.feed(b"id: 5\ndata: y\n\n") == [Event(b"y", id=b"5")]
    assert parser.feed(b"id\ndata: z\n\n") == [Event(b"z")]  # "id" with no value resets it


def test_comments_and_empty_events_dispatch_nothing() -> None:
    parser = EventParser()
    assert parser.feed(b": keepalive\n\nevent: x\n\n:\n\n") == []
    assert parser.at_boundary


def test_a_long_line_in_many_pieces() -> None:
    parser = EventParser()
    value = b"x" * 100_000
    events = []
    for start in range(0, len(value), 1000):
        events += parser.feed(value[start : start + 1000] if start else b"data: " + value[:1000])
    assert not parser.at_boundary
    assert [*events, *parser.feed(b"\n\n")] == [Event(value)]


def test_boundary_after_each_kind_of_line() -> None:
    parser = EventParser()
    assert parser.at_boundary
    parser.feed(b": a comment line")
    assert not parser.at_boundary
    parser.feed(b"\n")
    assert not parser.at_boundary  # a comment line without its blank line: a keepalive must not end an event here
    parser.feed(b"\r\n")
    assert parser.at_boundary


def test_comment() -> None:
    assert comment("keepalive") == b": keepalive\n\n"
    assert EventParser().feed(comment("keepalive")) == []
    with pytest.raises(ValueError, match="line break"):
        comment("a\nb")


# ---- property: any stream, any chunking, same events as a whole-text reference -------------------


def reference(data: bytes) -> list[Event]:
    """The spec's algorithm over the whole stream at once (an unfinished last event is dropped)."""
    events, buffer, kind, last_id = [], [], b"", b""
    lines = re.split(rb"\r\n|\r|\n", data)
    for line in lines[:-1]:
        if not line:
            if buffer:
                events.append(Event(b"\n".join(buffer), kind or b"message", last_id))
            buffer, kind = [], b""
            continue
        if line.startswith(b":"):
            continue
        name, _, value = line.partition(b":")
        value = value[1:] if value.startswith(b" ") else value
        if name == b"data":
            buffer.append(value)
        elif name == b"event":
            kind = value
        elif name == b"id" and b"\0" not in value:
            last_id = value
    return events


FIELD = st.sampled_from([b"data", b"event", b"id", b"retry", b"", b"other", b"dat"])
VALUE = st.binary(max_size=12).map(lambda v: v.replace(b"\r", b"").replace(b"\n", b""))
LINE = st.one_of(
    st.tuples(FIELD, st.sampled_from([b":", b": ", b""]), VALUE).map(b"".join),
    st.just(b""),
)
ENDING = st.sampled_from([b"\r\n", b"\n", b"\r"])
STREAMS = st.lists(st.tuples(LINE, ENDING).map(b"".join), max_size=30).map(b"".join)


@st.composite
def cut_streams(draw: st.DrawFn) -> tuple[bytes, list[int]]:
    data = draw(STREAMS)
    return data, draw(st.lists(st.integers(min_value=0, max_value=len(data)), max_size=len(data)))


@given(cut_streams())
def test_any_stream_any_chunking_matches_the_reference(case: tuple[bytes, list[int]]) -> None:
    data, cuts = case
    parser, events = feed_in_pieces(data, cuts)
    assert events == reference(data)
    lines = re.split(rb"\r\n|\r|\n", data)
    assert parser.at_boundary == (lines[-1] == b"" and (len(lines) == 1 or lines[-2] == b""))
