"""The kernel channel without a kernel: a ``ToolServer``'s app answering frames (``MessageExchanges``)
on its own loop (``AppLoop``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from jupyter_mcp._wire.frames import PIECE, from_text
from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.transports.messages.apploop import AppLoop
from jupyter_mcp.tools.transports.messages.exchanges import MessageExchanges

TOKEN = "frame-token"
HEADERS = [["host", "127.0.0.1"], ["authorization", f"Bearer {TOKEN}"]]


class Kernel:
    """The app on its own loop, answering into a list of (frame, buffers)."""

    def __init__(self, server: ToolServer) -> None:
        self.runner = AppLoop(server.protected_http_app(TOKEN))
        self.runner.start()
        assert self.runner.loop is not None
        self.frames: list[tuple[dict[str, Any], list[bytes]]] = []
        self.ended = threading.Event()
        self.exchanges = MessageExchanges(self.runner.app, self.runner.loop, self._send, hello=lambda: {"k": 1})

    def _send(self, frame: Any, buffers: list[bytes], reply_to: object) -> None:
        self.frames.append((dict(frame), buffers))
        if frame["op"] != "response" or not frame.get("more"):
            self.ended.set()

    def ask(self, frame: dict[str, Any], body: bytes = b"") -> list[tuple[dict[str, Any], list[bytes]]]:
        self.ended.clear()
        self.frames.clear()
        self.exchanges.receive(frame, [body] if body else [], "session", None)
        assert self.ended.wait(10)
        return list(self.frames)


@pytest.fixture
def kernel() -> Iterator[Kernel]:
    server = ToolServer("frames", result_budget="20MB")

    @server.tool
    def echo(text: str) -> str:
        """Echo."""
        return text

    running = Kernel(server)
    try:
        yield running
    finally:
        running.runner.stop()


def test_a_small_answer_is_one_frame_with_its_head_and_body(kernel: Kernel) -> None:
    ((frame, buffers),) = kernel.ask(
        {"op": "request", "id": "1", "method": "GET", "target": "/status", "headers": HEADERS}
    )
    assert (frame["op"], frame["seq"], frame["status"], frame["more"]) == ("response", 0, 200, False)
    assert json.loads(buffers[0])["tools"][0]["name"] == "echo"


def test_the_token_is_checked_as_over_http(kernel: Kernel) -> None:
    ((frame, _),) = kernel.ask({"op": "request", "id": "2", "method": "GET", "target": "/status", "headers": []})
    assert frame["status"] == 421  # no Host: refused before the token, as the HTTP app refuses it


def test_a_large_body_goes_in_numbered_pieces_and_as_text_when_asked(kernel: Kernel) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "x" * 3 * PIECE}},
    }
    headers = [*HEADERS, ["content-type", "application/json"], ["accept", "application/json, text/event-stream"]]
    headers += [["mcp-protocol-version", "2026-07-28"], ["mcp-method", "tools/call"], ["mcp-name", "echo"]]
    call["params"]["_meta"] = {  # type: ignore[index]
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    body = json.dumps(call).encode()
    request = {"op": "request", "id": "3", "method": "POST", "target": "/mcp", "headers": headers, "text": True}
    frames = kernel.ask(request, body)
    assert [frame["seq"] for frame, _ in frames] == list(range(len(frames)))
    assert len(frames) > 3  # the 3 MiB answer (and its JSON) in pieces of at most 1 MiB
    assert all(buffers == [] for _, buffers in frames)  # text in the frames, no buffers
    answer = b"".join(from_text(frame) for frame, _ in frames)  # type: ignore[arg-type]
    assert b'"isError":false' in answer
    assert answer.count(b"x" * 1000) >= 3 * PIECE // 1000 - 1


def test_a_malformed_request_is_an_error_frame(kernel: Kernel) -> None:
    ((frame, _),) = kernel.ask({"op": "request", "id": "4", "method": "GET", "target": "status"})
    assert frame == {
        "op": "error",
        "id": "4",
        "message": "a malformed request frame: method and target must be text, the target a path",
    }


def test_an_event_streams_opening_goes_with_its_first_event(kernel: Kernel) -> None:
    """2025 era: the priming event (an id, no data) waits with the head for the answer's event."""
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    body = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": params}).encode()
    headers = [*HEADERS, ["content-type", "application/json"], ["accept", "application/json, text/event-stream"]]
    request = {"op": "request", "id": "5", "method": "POST", "target": "/mcp", "headers": headers}
    (first, first_body), (last, last_body) = kernel.ask(request, body)
    assert (first["status"], first["more"], last["more"]) == (200, True, False)
    assert dict(first["headers"])["content-type"].startswith("text/event-stream")
    events = first_body[0].decode().replace("\r\n", "\n").split("\n\n")
    assert events[0].startswith("id: ")  # the priming event
    assert '"serverInfo"' in events[1]
    assert last_body == []
