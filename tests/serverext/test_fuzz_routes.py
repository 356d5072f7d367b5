"""Fuzzing the Jupyter server's doors: the ``/mcp/...`` proxy routes, ``/mcp`` itself (every
notebook's tools as one server, also scoped) and the ``/api/mcp/...`` REST routes, with and without
credentials, against a real Jupyter server and a real kernel.

Each case: no 5xx, a clear error (a JSON-RPC error on the MCP routes, Jupyter's JSON ``message``
on the REST routes), no traceback in the Jupyter server's log or the kernel's, and the notebook's
tools still answer through Jupyter afterwards. Bounded by example counts (tests/reliability/fuzzing.py).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from tests.reliability.fuzzing import (
    ACCEPT,
    ERA_2025,
    ERA_2026,
    INITIALIZE,
    META,
    LogWatch,
    assert_clear,
    assert_clear_error,
    bodies,
    budget,
    header_values,
    json_values,
    watched_log,
)
from tests.serverext.conftest import Notebook
from tests.serverext.test_proxy import TOOLS

DEEP = b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
KEEP_LOG = """
import logging
class _Kept(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []
    def emit(self, record):
        self.lines.append((record.levelname, record.name, record.getMessage(), record.exc_info is not None))
kept_log = _Kept()
from jupyter_mcp.kernel.serving.logs import LIBRARY_LOGGERS  # the server's own log (%mcp log) stays out of the root's
for _name in ("", *LIBRARY_LOGGERS):
    logging.getLogger(_name).addHandler(kept_log)
"""


@pytest.fixture
async def served(notebook: Notebook) -> Notebook:
    """The notebook serving ``get_var``, its kernel's log kept (``kept_log.lines``)."""
    await notebook.run(TOOLS + "\n" + "x = 42")
    await notebook.run(KEEP_LOG)
    return notebook


@pytest.fixture
def log(jp_serverapp: Any) -> Iterator[LogWatch]:
    """The Jupyter server's log (its own logger does not propagate) and everything reaching the root logger."""
    with watched_log() as watch:
        jp_serverapp.log.addHandler(watch)
        try:
            yield watch
        finally:
            jp_serverapp.log.removeHandler(watch)


@pytest.fixture
async def http(jupyter_token: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=20, headers={"Authorization": f"token {jupyter_token}"}) as client:
        yield client


async def kernel_log(notebook: Notebook) -> list[tuple[str, str, str, bool]]:
    lines = await notebook.value("kept_log.lines")
    await notebook.run("kept_log.lines.clear()")
    return [tuple(line) for line in lines]


async def assert_kernel_log_clean(notebook: Notebook) -> None:
    for level, name, text, has_traceback in await kernel_log(notebook):
        assert not has_traceback, (name, text)
        assert level == "WARNING", (name, text)
        assert "\n" not in text, (name, text)


def route(server_url: str, notebook: Notebook, which: str) -> str:
    return {
        "notebook": f"{server_url}mcp/notebooks/{quote(notebook.path)}",
        "union": f"{server_url}mcp",
        "union scope": f"{server_url}mcp/scope/{quote(notebook.path)}",
        "union query": f"{server_url}mcp?notebooks={quote(notebook.path)}",
    }.get(which, f"{server_url}mcp/kernels/{notebook.kernel_id}")


async def assert_alive(http: httpx.AsyncClient, server_url: str, notebook: Notebook) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": "alive",
        "method": "tools/call",
        "params": {"name": "get_var", "arguments": {"name": "x"}, "_meta": META},
    }
    headers = {"Accept": ACCEPT, "mcp-protocol-version": ERA_2026, "mcp-method": "tools/call", "mcp-name": "get_var"}
    reply = await http.post(route(server_url, notebook, "notebook"), json=body, headers=headers)
    assert reply.json()["result"]["content"][0]["text"] == "42"
    # And through /mcp, under the name its clients see there.
    union = (await http.get(f"{server_url}api/mcp/union")).json()
    [name] = [tool for entry in union["notebooks"] for tool in entry["tools"] if tool.endswith("_get_var")]
    body["params"]["name"] = headers["mcp-name"] = name
    reply = await http.post(route(server_url, notebook, "union"), json=body, headers=headers)
    assert reply.json()["result"]["content"][0]["text"] == "42"


async def session(http: httpx.AsyncClient, url: str) -> dict[str, str]:
    headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
    reply = await http.post(url, json=INITIALIZE, headers=headers)
    return {**headers, "mcp-session-id": reply.headers["mcp-session-id"], "mcp-protocol-version": ERA_2025}


async def test_the_deep_body_through_jupyter_is_a_parse_error(
    served: Notebook, http: httpx.AsyncClient, server_url: str, log: LogWatch
) -> None:
    """Both routes, both eras (one server and kernel for the four: each costs seconds to start)."""
    for which in ("kernel", "notebook"):
        for era in (ERA_2025, ERA_2026):
            url = route(server_url, served, which)
            headers = (
                await session(http, url) if era == ERA_2025 else {"Accept": ACCEPT, "Content-Type": "application/json"}
            )
            headers["mcp-protocol-version"] = era
            reply = await http.post(url, content=DEEP, headers=headers)
            assert reply.status_code == 400, (which, era)
            assert reply.json()["error"]["code"] == -32700
            assert "more than 100 levels deep" in reply.json()["error"]["message"]
            lines = await kernel_log(served)
            assert [(level, name) for level, name, _, _ in lines] == [
                ("WARNING", "jupyter_mcp.tools.transports.http.inbound")
            ]
            log.assert_clean()
            await assert_alive(http, server_url, served)
    # The kernel's other refusals reach the client through the proxy unchanged too.
    url = route(server_url, served, "kernel")
    reply = await http.post(url, content=b"[1,]", headers={"Accept": ACCEPT, "Content-Type": "application/json"})
    assert reply.status_code == 400
    assert_clear_error(reply.json()["error"])
    reply = await http.post(url, content=b"{}", headers={"Accept": ACCEPT, "Content-Type": "text/plain"})
    assert reply.status_code == 415
    assert (
        reply.json()["error"]["message"]
        == "Invalid request: the Content-Type must be application/json, got 'text/plain'"
    )


credentials = st.sampled_from(["jupyter", "none", "wrong", "kernel"])


def with_credentials(kind: str, kernel_token: str) -> dict[str, str]:
    return {
        "jupyter": {},
        "none": {"Authorization": ""},
        "wrong": {"Authorization": "token wrong"},
        "kernel": {"Authorization": f"Bearer {kernel_token}"},  # the kernel's token is no Jupyter credential
    }[kind]


@budget(60)
@given(
    which=st.sampled_from(["kernel", "notebook", "unknown kernel", "unknown notebook", "union", "union scope"])
    | st.sampled_from(["union query", "union bad scope"]),
    verb=st.sampled_from(["POST", "POST", "POST", "GET", "DELETE"]),
    era=st.sampled_from([ERA_2025, ERA_2026]),
    body=bodies,
    who=credentials,
    extra=st.dictionaries(
        st.sampled_from(["Mcp-Session-Id", "Last-Event-ID", "Content-Type", "Accept", "Mcp-Method", "Mcp-Param-X"]),
        header_values,
        max_size=2,
    ),
)
async def test_the_proxy_routes_take_anything(
    served: Notebook,
    http: httpx.AsyncClient,
    server_url: str,
    log: LogWatch,
    which: str,
    verb: str,
    era: str,
    body: str | bytes,
    who: str,
    extra: dict[str, str],
) -> None:
    note(f"{which} {verb} {era} {who} {extra} {body!r:.200}")
    url = {
        "unknown kernel": f"{server_url}mcp/kernels/{quote('no such kernel')}",
        "unknown notebook": f"{server_url}mcp/notebooks/nowhere/{quote('x y.ipynb')}",
        "union bad scope": f"{server_url}mcp/scope/{quote('../x,', safe='')}",
    }.get(which) or route(server_url, served, which)
    headers = {"Accept": ACCEPT, "Content-Type": "application/json", "mcp-protocol-version": era}
    headers |= extra | with_credentials(who, str(await served.value("server.token")))
    raw = {name: value.encode("latin-1") for name, value in headers.items()}
    async with http.stream(verb, url, content=body if verb == "POST" else None, headers=raw) as reply:
        assert reply.status_code < 500, reply.status_code
        if reply.status_code >= 400 or not reply.headers.get("content-type", "").startswith("text/event-stream"):
            await reply.aread()
            if reply.status_code in (401, 403) and who != "jupyter":
                pass  # Jupyter's own refusal of the credentials, before the route
            else:
                assert_clear(reply, allowed=(200, 202, 400, 404, 405, 406, 413, 415))
    await assert_kernel_log_clean(served)
    log.assert_clean()
    await assert_alive(http, server_url, served)


rest_paths = st.sampled_from(
    [
        *("servers", "config", "kernels/{k}/approvals/{c}", "kernels/{k}/pause", "kernels/{k}/questions/{c}"),
        *("kernels/{k}/limits", "kernels/{k}/nothing", "kernels/{k}/approvals/", "union", "limits"),
    ]
)
rest_bodies = (
    json_values.map(json.dumps)
    | st.fixed_dictionaries(
        {},
        optional={
            "decision": st.sampled_from(["allow", "deny", "maybe"]) | json_values,
            "paused": st.booleans() | json_values,
            "action": st.sampled_from(["accept", "decline"]) | json_values,
            "content": json_values,
            "client": st.text(max_size=8) | json_values,
            "read_only": st.booleans() | json_values,
            "minutes": json_values,
            "reason": json_values,
        },
    ).map(json.dumps)
    | st.binary(max_size=30)
    | st.just(DEEP.decode())
)


@budget(60)
@given(
    path=rest_paths,
    verb=st.sampled_from(["GET", "POST", "POST", "PUT", "DELETE"]),
    kernel=st.sampled_from(["mine", "unknown"]) | st.text(st.characters(codec="utf-8"), min_size=1, max_size=10),
    call_id=st.text(st.characters(codec="utf-8"), min_size=1, max_size=10),
    query=st.dictionaries(
        st.sampled_from(["client", "notebook", "notebooks", "kernel", "token"]), st.text(max_size=10), max_size=3
    ),
    body=rest_bodies,
    who=credentials,
)
async def test_the_rest_routes_take_anything(
    served: Notebook,
    http: httpx.AsyncClient,
    server_url: str,
    log: LogWatch,
    path: str,
    verb: str,
    kernel: str,
    call_id: str,
    query: dict[str, str],
    body: str | bytes,
    who: str,
) -> None:
    kernel_id = {"mine": served.kernel_id, "unknown": "0" * 8}.get(kernel, kernel)
    filled = path.format(k=quote(kernel_id, safe=""), c=quote(call_id, safe=""))
    note(f"{verb} {filled} {query} {who} {body!r:.200}")
    headers = with_credentials(who, str(await served.value("server.token")))
    reply = await http.request(
        verb, f"{server_url}api/mcp/{filled}", params=query, content=body if verb in ("POST", "PUT") else None,
        headers=headers,
    )  # fmt: skip
    assert reply.status_code < 500, (reply.status_code, reply.text[:300])
    if reply.status_code >= 400:
        said = reply.json()
        assert isinstance(said.get("message"), str), said
        assert said["message"].strip(), said
        assert "Traceback" not in said["message"]
    else:
        reply.json()
    await assert_kernel_log_clean(served)
    log.assert_clean()
    await assert_alive(http, server_url, served)
