"""``ShellIntake``: which shell messages the kernel channel takes in ipykernel's shell-channel thread.

Real ``jupyter_client`` sessions sign the messages, as the Jupyter server's would; the kernel is
only what the intake reads of it (its session)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import zmq
from jupyter_client.session import Session

from jupyter_mcp.adapters.fastpaths import PUBLIC, FastPaths
from jupyter_mcp.kernel.serving.shellintake import ShellIntake

KEY = b"the-kernels-key"
COMM = "c0ffee"


QUICK = FastPaths(frozenset({"jupyter_client"}))
"""jupyter_client's fast path (``adapters.jupyter_client.verified``); ``PUBLIC`` checks with ``Session.deserialize``."""


@pytest.fixture(params=[QUICK, PUBLIC], ids=["fast", "public"])
def checking(request: pytest.FixtureRequest) -> FastPaths:
    return request.param  # type: ignore[no-any-return]


def intake(taken: list[dict[str, Any]], fast: FastPaths = PUBLIC) -> ShellIntake:
    kernel = SimpleNamespace(session=Session(key=KEY))
    return ShellIntake(kernel, COMM, lambda msg, parent: taken.append(msg), fast)


def wire(msg_type: str, content: dict[str, Any], key: bytes = KEY, buffers: tuple[bytes, ...] = ()) -> list[Any]:
    """A message as the shell socket hands it over (``copy=False``: frames), with a sender identity."""
    sender = Session(key=key)
    parts = sender.serialize(sender.msg(msg_type, content), ident=[b"server-identity"])
    return [zmq.Frame(part) for part in [*parts, *buffers]]


def test_a_signed_comm_msg_to_the_channels_comm_is_taken_once(checking: FastPaths) -> None:
    taken: list[dict[str, Any]] = []
    shell = intake(taken, checking)
    parts = wire("comm_msg", {"comm_id": COMM, "data": {"op": "hello", "id": "1"}}, buffers=(b"body",))
    parent = shell._ours(parts)
    assert parent is not None
    assert parent.idents == [b"server-identity"]
    assert parent.msg["content"]["data"] == {"op": "hello", "id": "1"}
    assert parent.msg["buffers"] == [b"body"]
    assert shell._ours(parts) is None  # a replay


def test_what_is_not_the_channels_is_left_to_ipykernel(checking: FastPaths) -> None:
    shell = intake([], checking)
    forged = wire("comm_msg", {"comm_id": COMM, "data": {}}, key=b"another key")
    assert shell._ours(forged) is None
    assert shell._ours(wire("execute_request", {"code": f"print('{COMM}')"})) is None
    other = wire("comm_msg", {"comm_id": "another", "data": {"note": COMM}})
    assert shell._ours(other) is None
    _, frames = shell.kernel.session.feed_identities(other, copy=False)
    assert shell.kernel.session.deserialize(frames, copy=False)["content"]["comm_id"] == "another"  # not used up
