"""Fuzzing the approval and question routes of a server's own app (what the Jupyter extension forwards
JupyterLab's answers to): any path, body and admin header, against a call really waiting for approval
and a question really waiting for an answer. Each case: no 5xx, ``{"error": <one sentence>}`` for a
refusal, no traceback in the log, and the server answers a normal call afterwards.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from jupyter_mcp.discovery import ADMIN_HEADER
from jupyter_mcp.tools import Context, ToolServer
from tests.conftest import served
from tests.reliability.fuzzing import LogWatch, budget, json_values, modern_call, watched_log

TOKEN = "approvals-fuzz"


def call(url: str, tool: str, arguments: dict[str, Any]) -> httpx.Response:
    return modern_call(url, TOKEN, tool, arguments, timeout=120)  # a call waiting for approval waits long


class Waiting:
    """A ``ToolServer`` with one call waiting for approval and one question waiting, always."""

    def __init__(self, server: ToolServer, url: str) -> None:
        self.server, self.url = server, url
        self.threads: list[threading.Thread] = []

    def keep_waiting(self) -> None:
        if not self.server.pending:
            self._start("wipe", {})
        if not self.server.questions:
            self._start("ask", {})
        for _ in range(200):
            if self.server.pending and self.server.questions:
                return
            threading.Event().wait(0.01)
        raise AssertionError("the calls did not start waiting")

    def _start(self, tool: str, arguments: dict[str, Any]) -> None:
        thread = threading.Thread(target=call, args=(self.url, tool, arguments), daemon=True)
        thread.start()
        self.threads.append(thread)

    def release(self) -> None:
        for pending in self.server.pending:
            pending.deny("done")
        for question in self.server.questions:
            question.decline()
        for thread in self.threads:
            thread.join(10)


@pytest.fixture(scope="module")
def waiting() -> Iterator[Waiting]:
    server = ToolServer()

    @server.tool(confirm=True)
    def wipe() -> str:
        """Wipes nothing, after the notebook user allows it."""
        return "wiped"

    @server.tool
    async def ask(ctx: Context) -> str:
        """Asks the notebook user for a table and a count."""
        schema = {"type": "object", "properties": {"table": {"type": "string"}, "rows": {"type": "integer"}}}
        answer = await ctx.ask_notebook_user("Which table?", schema)
        return str(answer.action)

    @server.tool
    def adds(a: int, b: int = 0) -> int:
        """Adds b to a."""
        return a + b

    with served(server, TOKEN) as url:
        helper = Waiting(server, url)
        try:
            yield helper
        finally:
            helper.release()


@pytest.fixture
def log() -> Iterator[LogWatch]:
    with watched_log() as watch:
        yield watch


answers = st.fixed_dictionaries(
    {},
    optional={
        "decision": st.sampled_from(["allow", "deny", "maybe"]) | json_values,
        "reason": json_values,
        "minutes": st.floats() | json_values,
        "action": st.sampled_from(["accept", "decline"]) | json_values,
        "content": st.fixed_dictionaries({}, optional={"table": json_values, "rows": json_values}) | json_values,
        "paused": st.booleans() | json_values,
        "client": st.text(max_size=6) | json_values,
        "read_only": st.booleans() | json_values,
    },
)
bodies = answers.map(json.dumps) | json_values.map(json.dumps) | st.binary(max_size=30)
bodies |= st.just('{"decision": ' + "[" * 5000 + "]" * 5000 + "}")


@budget(70)
@given(
    route=st.sampled_from(["approvals/{pending}", "questions/{question}", "pause", "limits", "approvals/{other}"]),
    body=bodies,
    admin=st.sampled_from(["right", "wrong", "none"]),
    other=st.text(max_size=8).map(lambda text: quote(text, safe="") or "x"),
)
def test_the_answer_routes_take_anything(
    waiting: Waiting, log: LogWatch, route: str, body: str | bytes, admin: str, other: str
) -> None:
    waiting.keep_waiting()
    path = route.format(pending=waiting.server.pending[0].id, question=waiting.server.questions[0].id, other=other)
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    headers |= {
        "right": {ADMIN_HEADER: waiting.server.approvals.admin_token},
        "wrong": {ADMIN_HEADER: "x"},
        "none": {},
    }[admin]
    note(f"{path} {admin} {body!r:.200}")
    base = waiting.url.removesuffix("/mcp")
    reply = httpx.post(f"{base}/{path}", content=body, headers=headers, timeout=20)
    assert reply.status_code in (200, 400, 403, 404), (reply.status_code, reply.text[:300])
    said = reply.json()
    if reply.status_code != 200:
        assert isinstance(said["error"], str), said
        assert said["error"].strip(), said
        assert "\n" not in said["error"], said
    if admin != "right":
        assert reply.status_code == 403
    waiting.server.resume()
    for name in list(waiting.server.approvals.read_only_clients):
        waiting.server.limit_client(name, read_only=False)
    assert call(waiting.url, "adds", {"a": 2, "b": 3}).json()["result"]["structuredContent"] == {"result": 5}
    log.assert_clean()


@pytest.mark.parametrize("route", ["approvals/0%2F", "approvals/%2F", "questions/a%2Fb"])
def test_an_id_with_an_encoded_slash_is_answered_by_its_route(waiting: Waiting, log: LogWatch, route: str) -> None:
    """Found by the fuzzer: the decoded path ends in "/", and Starlette answered 307 with an empty body."""
    base = waiting.url.removesuffix("/mcp")
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    unasked = httpx.post(f"{base}/{route}", content="{}", headers=headers | {ADMIN_HEADER: "x"})
    assert (unasked.status_code, unasked.json()) == (403, {"error": unasked.json()["error"]})
    asked = httpx.post(
        f"{base}/{route}", content="{}", headers=headers | {ADMIN_HEADER: waiting.server.approvals.admin_token}
    )
    assert asked.status_code == 404
    assert "no" in asked.json()["error"]
    log.assert_clean()


def test_a_route_nobody_serves_is_a_json_404(waiting: Waiting) -> None:
    base = waiting.url.removesuffix("/mcp")
    reply = httpx.post(f"{base}/nothing/here", headers={"Authorization": f"Bearer {TOKEN}"})
    assert reply.status_code == 404
    assert reply.json() == {"error": "no such route: POST /nothing/here"}
