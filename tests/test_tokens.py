"""``jupyter_mcp.tokens``: generated tokens are never dash-led; user tokens are checked."""

from __future__ import annotations

import base64
import re

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from jupyter_mcp.tokens import check_token, env_token, generate_token

URL_SAFE = re.compile(r"[A-Za-z0-9_-]+")
# Random bytes whose URL-safe base64 starts with "-": a first byte of 0xf8-0xfb (its top six bits are 62).
DASH_LED = st.binary(min_size=1, max_size=64).map(lambda b: bytes([0xF8 | b[0] & 3]) + b[1:])


@given(st.data(), st.integers(min_value=1, max_value=64))
def test_generated_tokens_are_never_dash_led(data: st.DataObject, nbytes: int) -> None:
    """Whatever the random source yields (dash-led draws included), the token is usable and full strength."""
    draws: list[bytes] = []

    def random_bytes(n: int) -> bytes:
        raw = data.draw(st.one_of(st.binary(), DASH_LED).map(lambda b: (b * n)[:n] if b else bytes(n)))
        draws.append(raw)
        return raw

    token = generate_token(nbytes, random_bytes)
    event("redrawn" if len(draws) > 1 else "first draw kept")
    assert not token.startswith("-")
    assert URL_SAFE.fullmatch(token)
    assert base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)) == draws[-1]  # the last draw, unaltered
    assert all(base64.urlsafe_b64encode(raw).startswith(b"-") for raw in draws[:-1])  # only dash-led ones redrawn


@given(st.integers(min_value=1, max_value=64))
def test_generated_tokens_from_the_system_source(nbytes: int) -> None:
    token = generate_token(nbytes)
    assert not token.startswith("-")
    assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) == nbytes


def test_many_default_tokens() -> None:
    tokens = {generate_token() for _ in range(5000)}  # ~78 dash-led draws expected among them
    assert len(tokens) == 5000
    assert not [t for t in tokens if t.startswith("-")]
    assert {len(t) for t in tokens} == {43}  # 32 bytes, as secrets.token_urlsafe(32) gives


@pytest.mark.parametrize("token", ["-abc", "--x", "a=b", "-=-", "tok~!$&'()*+,;=:@/?"])
def test_odd_tokens_are_accepted(token: str) -> None:
    assert check_token(token) == token


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("", "the token is empty"),
        ("a b", "the token must be printable ASCII without spaces (an HTTP header carries it)"),
        ("tök", "the token must be printable ASCII without spaces (an HTTP header carries it)"),
        ("a\n", "the token must be printable ASCII without spaces (an HTTP header carries it)"),
    ],
)
def test_unusable_tokens_are_refused(token: str, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        check_token(token)


def test_env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUPYTER_MCP_TOKEN", raising=False)
    assert env_token() is None
    monkeypatch.setenv("JUPYTER_MCP_TOKEN", "")
    assert env_token() is None
    monkeypatch.setenv("JUPYTER_MCP_TOKEN", "--x=y")
    assert env_token() == "--x=y"
    monkeypatch.setenv("JUPYTER_MCP_TOKEN", "two words")
    with pytest.raises(ValueError, match=r"^\$JUPYTER_MCP_TOKEN must be printable ASCII"):
        env_token()
