"""Check cells for workshop notebooks: use a student's tool, resource or prompt as a client would, and
say if it works.

Example (the last cell of a chapter)::

    from jupyter_mcp.kernel.workshop import check_tool
    await check_tool("safe_divide", {"a": 1, "b": 4}, expect=0.25)
    await check_tool("safe_divide", {"a": 1, "b": 0}, error="cannot divide by zero")
    await check_resource("data://cities/fr/names", contains="Paris")
    await check_prompt("haiku", {"topic": "tea"}, contains="tea")
    check_asks_first("reset_sales")
    check_runs_as_task("train")
    check_app("population")                     # clients that render MCP Apps get its card
    check_app("debug_dump", shown=False)        # ... and not this one's
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import mcp_types as mt

from jupyter_mcp.kernel.server import NotebookServer, get_server
from jupyter_mcp.tools.errors import ToolError

_UNSET: Any = object()


async def check_tool(
    name: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    expect: Any = _UNSET,
    error: str | None = None,
    server: NotebookServer | None = None,
) -> Check:
    """Call ``name`` through the clients' call path; print ✓ or ✗ with the reason; true if it passed.

    ``expect``: the value the tool must return (floats compared with a tolerance).
    ``error``: text the tool's error must contain (the call must fail, as a client sees it).
    """
    server = server or get_server()
    problem = _problem(server, name) or _outcome(await server.call(name, arguments), expect, error)
    call = f"{name}({', '.join(f'{k}={v!r}' for k, v in (arguments or {}).items())})"
    return _report(call, problem)


async def check_resource(uri: str, *, contains: str, server: NotebookServer | None = None) -> Check:
    """Read ``uri`` as a client would; print ✓ if its text contains ``contains``, else ✗ with the reason."""
    server = server or get_server()
    try:
        result = await server.read_resource(uri)
    except ToolError as exc:
        return _report(f"read {uri}", f"reading it failed: {exc}")
    text = " ".join(c.text for c in result.contents if isinstance(c, mt.TextResourceContents))
    return _report(f"read {uri}", None if contains in text else f"it reads {text!r}, which does not say {contains!r}")


async def check_prompt(
    name: str, arguments: Mapping[str, Any] | None = None, *, contains: str, server: NotebookServer | None = None
) -> Check:
    """Get prompt ``name`` as a client would; print ✓ if its messages contain ``contains``, else ✗ and why."""
    server = server or get_server()
    call = f"{name}({', '.join(f'{k}={v!r}' for k, v in (arguments or {}).items())})"
    try:
        result = await server.get_prompt(name, arguments)
    except ToolError as exc:
        return _report(call, f"getting it failed: {exc}")
    text = " ".join(m.content.text for m in result.messages if isinstance(m.content, mt.TextContent))
    return _report(call, None if contains in text else f"its messages say {text!r}, not {contains!r}")


def check_asks_first(name: str, *, server: NotebookServer | None = None) -> Check:
    """Print ✓ if a client's call of tool ``name`` waits for the notebook user's approval, else ✗ and why."""
    server = server or get_server()
    problem = _problem(server, name)
    if problem is None and not server.approvals.needs_confirm(server.tools[name]):
        problem = "a client's call would run without asking you (add --confirm, or mark it --destructive "
        "with server.settings.confirm = 'destructive')"
    return _report(name, problem, passed="asks the notebook user first")


def check_runs_as_task(name: str, *, server: NotebookServer | None = None) -> Check:
    """Print ✓ if clients that support tasks may run tool ``name`` as a task, else ✗ and why."""
    server = server or get_server()
    problem = _problem(server, name)
    if problem is None and server.tools[name].task is None:
        problem = "clients cannot run it as a task (add --task, or task=True)"
    return _report(name, problem, passed="can run as a task")


def check_app(name: str, *, shown: bool = True, server: NotebookServer | None = None) -> Check:
    """Print ✓ if clients that render MCP Apps get tool ``name``'s card (``shown=False``: do not), else ✗ and why."""
    from jupyter_mcp.tools.apps.surface import has_app

    server = server or get_server()
    problem = _problem(server, name)
    if problem is None and shown and not server.settings.apps:
        problem = "the notebook serves no apps (server.settings.apps is False)"
    elif problem is None and has_app(server.tools[name]) != shown:
        problem = "it has no card in the chat (drop --no-app)" if shown else "it still has its card (add --no-app)"
    return _report(name, problem, passed="has its card in the chat" if shown else "has no card in the chat")


def _report(what: str, problem: str | None, passed: str = "works") -> Check:
    if problem is None:
        print(f"✓ {what} {passed}")
    elif _first_time_in_this_cell(problem):
        print(f"✗ not yet: {what}: {problem}")
    return Check(problem)


_said: tuple[int | None, set[str]] = (None, set())


def _first_time_in_this_cell(problem: str) -> bool:
    """Whether this cell has not printed ``problem`` yet: two checks of a missing tool say so once."""
    global _said  # noqa: PLW0603 - what this cell printed, reset by the next cell
    from IPython import get_ipython

    shell = get_ipython()
    cell = shell.execution_count if shell is not None else None
    if cell is None:
        return True
    if cell != _said[0]:
        _said = (cell, set())
    if problem in _said[1]:
        return False
    _said[1].add(problem)
    return True


class Check:
    """A check's outcome: true when it passed; shows nothing as a cell's value (the line is printed)."""

    def __init__(self, problem: str | None) -> None:
        self.problem = problem

    def __bool__(self) -> bool:
        return self.problem is None

    def __repr__(self) -> str:
        return f"Check(problem={self.problem!r})"

    def _ipython_display_(self) -> None:
        """Nothing more to show: ``check_tool`` printed the outcome."""


def _problem(server: NotebookServer, name: str) -> str | None:
    if name in server.tools:
        return None
    known = ", ".join(server.tools) or "none yet"
    return f"there is no tool named {name!r} (tools: {known}); run the cell that defines it"


def _outcome(result: mt.CallToolResult, expect: Any, error: str | None) -> str | None:
    text = " ".join(block.text for block in result.content if isinstance(block, mt.TextContent))
    if error is not None:
        if not result.is_error:
            return f"it should fail with {error!r} but returned {text!r}"
        return None if error in text else f"it failed with {text!r}, which does not say {error!r}"
    if result.is_error:
        return f"it failed: {text}"
    if expect is _UNSET:
        return None
    value = _value(result, text)
    return None if _same(value, expect) else f"it returned {value!r}, expected {expect!r}"


def _value(result: mt.CallToolResult, text: str) -> Any:
    structured = result.structured_content
    if isinstance(structured, dict) and set(structured) == {"result"}:
        return structured["result"]
    return structured if structured is not None else text


def _same(value: Any, expect: Any) -> bool:
    if isinstance(expect, float) and isinstance(value, int | float):
        return math.isclose(value, expect, rel_tol=1e-6, abs_tol=1e-9)
    return bool(value == expect)
