"""Fuzzing a real kernel's MCP endpoint, both eras: any body gets a clear answer (no 5xx), the kernel's
server log (``%mcp log``) stays free of tracebacks, and a normal call works afterwards. The same bodies
as tests/reliability/test_fuzz.py, fewer of them: the app is the same, the host is a kernel."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from tests.harness import Kernel
from tests.kernel.conftest import endpoint
from tests.reliability.fuzzing import (
    ACCEPT,
    ERA_2025,
    ERA_2026,
    assert_clear,
    bodies,
    budget,
    legacy_session,
    modern_call,
    post,
)

DEEP = b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


@pytest.fixture
def served(kernel: Kernel) -> tuple[Kernel, str, str]:
    kernel.run('%%mcp_tool base\ndef base(a: int) -> int:\n    "Returns a."\n    return a')
    kernel.run(
        "from jupyter_mcp.kernel.serving.logs import ring as fuzz_ring  # the server's log, as %mcp log shows it"
    )
    url, token = endpoint(kernel)
    return kernel, url, token


def headers_for(era: str, url: str, token: str) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}", "Accept": ACCEPT, "Content-Type": "application/json"}
    return headers | {"mcp-protocol-version": ERA_2026} if era == ERA_2026 else legacy_session(url, headers)


def server_log(kernel: Kernel) -> list[str]:
    lines: Any = kernel.value("list(fuzz_ring.lines)")
    kernel.run("fuzz_ring.lines.clear()")
    return [str(line) for line in lines]


def assert_alive(url: str, token: str) -> None:
    assert modern_call(url, token, "base", {"a": 7}).json()["result"]["structuredContent"] == {"result": 7}


def test_the_deep_body_is_a_parse_error_with_one_warning(served: tuple[Kernel, str, str]) -> None:
    kernel, url, token = served
    for era in (ERA_2025, ERA_2026):
        server_log(kernel)
        reply = httpx.post(url, content=DEEP, headers=headers_for(era, url, token))
        assert reply.status_code == 400
        assert reply.json()["error"]["code"] == -32700
        (line,) = [line for line in server_log(kernel) if " WARNING " in line or " ERROR " in line]
        assert (
            "WARNING jupyter_mcp.tools.transports.http.inbound: refused a POST request with HTTP 400: Parse error"
            in line
        )
        assert_alive(url, token)


@budget(50)
@given(era=st.sampled_from([ERA_2025, ERA_2026]), body=bodies)
def test_any_body_through_a_kernel(served: tuple[Kernel, str, str], era: str, body: str | bytes) -> None:
    kernel, url, token = served
    note(repr(body[:200]))
    assert_clear(post(url, body, headers_for(era, url, token)))
    assert_alive(url, token)
    problems = [line for line in server_log(kernel) if "Traceback" in line or " ERROR " in line]
    assert not problems, problems
