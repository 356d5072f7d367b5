"""Bearer tokens: generating them, checking the ones users give, and the variable that carries them.

Shared by the kernel (which generates its server's token), the CLI (``--token`` and
``$JUPYTER_MCP_TOKEN``) and the client configs (which pass a token in a config's ``env`` block,
never on a command line, where every user of the machine can read it).
"""

from __future__ import annotations

import base64
import os
import secrets
from collections.abc import Callable

ENV_VAR = "JUPYTER_MCP_TOKEN"
"""Pins a kernel's token (with ``JUPYTER_MCP_PORT``); gives ``connect --url`` and ``serve`` their token."""

TOKEN_BYTES = 32


def generate_token(nbytes: int = TOKEN_BYTES, random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> str:
    """A random URL-safe token of ``nbytes`` random bytes that never starts with "-".

    A dash-led token is read as an option by command-line parsers (``--token -Xyz`` is refused by
    argparse), so such draws are redrawn: the result is uniform over the tokens that do not start
    with "-" (one draw in 64 is redrawn).
    """
    while True:
        token = base64.urlsafe_b64encode(random_bytes(nbytes)).rstrip(b"=").decode("ascii")
        if not token.startswith("-"):
            return token


def check_token(token: str, source: str = "the token") -> str:
    """``token`` if an HTTP header can carry it (printable ASCII, no spaces), else a ``ValueError``."""
    if not token:
        raise ValueError(f"{source} is empty")
    if not all("!" <= char <= "~" for char in token):
        raise ValueError(f"{source} must be printable ASCII without spaces (an HTTP header carries it)")
    return token


def env_token() -> str | None:
    """``$JUPYTER_MCP_TOKEN`` (checked), or ``None`` when it is unset or empty."""
    value = os.environ.get(ENV_VAR)
    return check_token(value, f"${ENV_VAR}") if value else None
