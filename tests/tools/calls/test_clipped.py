"""ClippedText keeps head and tail within its budget and counts exactly what it dropped."""

from hypothesis import given
from hypothesis import strategies as st

from jupyter_mcp.tools.calls.clipped import DROPPED, ClippedText


def test_short_output_is_kept_whole() -> None:
    text = ClippedText(100)
    text.append("hello ")
    text.append("world\n")
    assert (str(text), text.dropped, text.total) == ("hello world\n", 0, 12)


def test_long_output_keeps_head_and_tail_and_says_how_much_is_gone() -> None:
    text = ClippedText(100_000)
    for i in range(50_000):
        text.append(f"{i:09d}\n")
    rendered = str(text)
    assert rendered.startswith("000000000\n000000001\n")
    assert rendered.endswith("000049998\n000049999\n")
    assert text.dropped == 500_000 - 100_000
    assert DROPPED.format(400_000, 50_000, 50_000) in rendered


@given(st.lists(st.text(max_size=40), max_size=60), st.integers(min_value=2, max_value=120))
def test_any_sequence_of_writes(writes: list[str], limit: int) -> None:
    text = ClippedText(limit)
    for chunk in writes:
        text.append(chunk)
    full = "".join(writes)
    assert text.total == len(full)
    if len(full) <= limit:
        assert str(text) == full
        assert text.dropped == 0
        return
    head, tail = limit // 2, limit - limit // 2
    assert text.dropped == len(full) - limit
    assert str(text) == full[:head] + DROPPED.format(len(full) - limit, head, tail) + full[len(full) - tail :]
