"""Fuzzing the magic lines of ``%%mcp_tool``, ``%%mcp_resource`` and ``%%mcp_prompt`` in a real kernel:
any line registers the component or gives a one-line usage error (never a traceback), the server's
log (``%mcp log``) stays free of tracebacks, and the kernel's server answers a normal call afterwards.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from tests.harness import Execution, Kernel
from tests.kernel.conftest import endpoint
from tests.reliability.fuzzing import budget, modern_call

FLAGS = [
    *("--title", "--description", "--tags", "--disabled", "--read-only", "--destructive", "--idempotent"),
    *("--closed-world", "--timeout", "--strict", "--main-thread", "--result-budget", "--confirm", "--task"),
    *("--task=required", "--task=maybe", "--headers", "--name", "--mime-type", "--bogus", "-h", "--help", "--"),
]
VALUES = ["0", "-1", "1e309", "nan", "abc", "a=B", "a=", "=B", ",", "a,b", "'x y'", '"', "'", "\\", "text/plain"]
SIGNATURES = ["f(x: int) -> int", "f(x: int = ) -> int", "f(x", "f(*args)", "f(**k)", "f() -> ", "1f()", "f(x: 'int')"]
URIS = ["data://x", "data://{name}", "x", "data://{", "data://{a}/{a}", "file:///etc/passwd", "://", "res://{n}{m}"]

tokens = (
    st.sampled_from(FLAGS)
    | st.sampled_from(VALUES)
    | st.text(
        # What one line can hold: no control characters or line separators (IPython splits a cell at them).
        st.characters(codec="utf-8", exclude_categories=("Cc", "Zl", "Zp")),
        max_size=12,
    )
)


def line_for(magic: str) -> st.SearchStrategy[str]:
    """A magic's line: its usual first word (a name, a signature, a URI), then any flags and words."""
    first = {"mcp_tool": st.sampled_from(["", "f", *SIGNATURES]), "mcp_prompt": st.sampled_from(["", "f", *SIGNATURES])}
    head = first.get(magic, st.sampled_from(URIS))
    return st.tuples(head, st.lists(tokens, max_size=6)).map(lambda parts: " ".join([parts[0], *parts[1]]))


BODY = '''
def f(x: int = 1) -> int:
    """Returns x."""
    return x
'''
RESOURCE_BODY = '''
def f(name: str = "a") -> str:
    """A text."""
    return name
'''


@pytest.fixture
def served(kernel: Kernel) -> Kernel:
    kernel.run('%%mcp_tool base\ndef base(a: int) -> int:\n    "Returns a."\n    return a')
    kernel.run(
        "from jupyter_mcp.kernel.serving.logs import ring as fuzz_ring  # the server's log, as %mcp log shows it"
    )
    return kernel


def assert_usage_or_ok(out: Execution) -> None:
    """Registered (no error), or one line of ``UsageError`` (IPython's way: stderr, no traceback)."""
    assert out.error is None, f"a magic line raised {out.error and out.error['ename']}: {out.error}"
    lines = [line for line in out.stderr.strip().splitlines() if line]
    assert len(lines) <= 1, out.stderr
    if lines:
        assert lines[0].startswith("UsageError: "), lines[0]


def assert_alive(kernel: Kernel, url: str, token: str) -> None:
    assert modern_call(url, token, "base", {"a": 7}).json()["result"]["structuredContent"] == {"result": 7}
    ring: Any = kernel.value("list(fuzz_ring.lines)")
    assert not [line for line in ring if "Traceback" in line or " ERROR " in line], ring[-5:]


@budget(60)
@given(data=st.data(), magic=st.sampled_from(["mcp_tool", "mcp_resource", "mcp_prompt"]))
def test_any_magic_line(served: Kernel, data: st.DataObject, magic: str) -> None:
    line = data.draw(line_for(magic))
    body = RESOURCE_BODY if magic == "mcp_resource" else BODY
    note(f"%%{magic} {line}")
    assert_usage_or_ok(served.execute(f"%%{magic} {line}\n{body}"))
    assert_alive(served, *endpoint(served))
