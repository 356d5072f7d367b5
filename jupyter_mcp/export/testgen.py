"""The exported project's tests: one per kept call, and the notebook's tools/list as a snapshot.

They run against server.py through an in-memory client, or against any live server (the
notebook's kernel included) with ``pytest --jupyter-mcp-url URL --token T``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from jupyter_mcp.export.recorded import RecordedCall
from jupyter_mcp.export.translate.literals import literal

CONFTEST = '''"""Fixtures: ``client`` is an in-memory MCP client on server.py, or a live server given as an option.

    pytest                                        # against server.py
    pytest --jupyter-mcp-url URL --token TOKEN    # against a live server: the notebook's kernel, or this one
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType

import pytest
from mcp import Client

from jupyter_mcp.tools.replay import http_client

SERVER = Path(__file__).resolve().parents[1] / "server.py"
MODULE = {module!r}  # the name server.py is installed under


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--jupyter-mcp-url", help="replay against this MCP endpoint instead of server.py")
    parser.addoption("--token", help="bearer token for --jupyter-mcp-url (default: $JUPYTER_MCP_TOKEN)")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client(request: pytest.FixtureRequest) -> AsyncIterator[Client]:
    url = request.config.getoption("--jupyter-mcp-url")
    if url:
        connection = http_client(url, request.config.getoption("--token") or os.environ.get("JUPYTER_MCP_TOKEN"))
    else:
        connection = Client(load_server().server.lowlevel)
    async with connection as connected:
        yield connected


def load_server() -> ModuleType:
    """server.py, imported once per run: like the notebook's, its state carries over from call to call."""
    if MODULE not in sys.modules:
        spec = importlib.util.spec_from_file_location(MODULE, SERVER)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[MODULE] = module
        spec.loader.exec_module(module)
    return sys.modules[MODULE]
'''

_CALLS_HEADER = '''"""Calls kept in {notebook}, replayed in order: each gives the same result, content or error.

Kept with `%mcp keep N` or the history panel's "keep as test" button. The server starts in the state
server.py builds; calls that changed it in the notebook change it here too, in the same order.
"""

import pytest
from mcp import Client

from jupyter_mcp.tools.replay import check

pytestmark = pytest.mark.anyio
'''

_NO_CALLS = """
# No calls were kept: keep some with `%mcp keep N` (numbers as `%mcp history` shows them) or the
# history panel's "keep as test" button, then export again.
"""

TOOLS_TEST = '''"""The server lists the notebook's tools: the same names, descriptions, schemas, annotations."""

import json
from pathlib import Path

import pytest
from mcp import Client

pytestmark = pytest.mark.anyio

NOTEBOOK_TOOLS = json.loads((Path(__file__).parent / "tools.json").read_text(encoding="utf-8"))


async def test_the_tools_are_the_notebooks(client: Client) -> None:
    tools = (await client.list_tools()).tools
    listed = [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]
    assert sorted(listed, key=by_name) == sorted(NOTEBOOK_TOOLS, key=by_name)


def by_name(tool: dict) -> str:
    return tool["name"]
'''


def conftest(module: str) -> str:
    return CONFTEST.replace("{module!r}", repr(module))


def recorded_tests(notebook: str, calls: list[RecordedCall]) -> str:
    """``tests/test_recorded_calls.py``: one test per kept call, literals only."""
    names: set[str] = set()
    tests = [_test(call, index, names) for index, call in enumerate(calls, 1)]
    return _CALLS_HEADER.format(notebook=notebook) + ("".join(tests) if tests else _NO_CALLS)


def _test(call: RecordedCall, index: int, taken: set[str]) -> str:
    name = _unique(f"test_{_identifier(call['tool'])}_call_{call.get('call', index)}", taken)
    when = f" ({call['recorded_at']})" if "recorded_at" in call else ""
    origin = f"Call #{call['call']} in the notebook{when}." if "call" in call else f"Kept call {index}{when}."
    arguments = literal(call["arguments"], indent=4)
    return (
        f"\n\nasync def {name}(client: Client) -> None:\n"
        f'    """{origin}"""\n'
        f"    result = await client.call_tool({literal(call['tool'])}, {arguments})\n"
        f"    check(result, {_expectation(call['expect'])})\n"
    )


def _expectation(expect: Mapping[str, Any]) -> str:
    (key, value), *_ = expect.items()
    return f"{key}={literal(value, indent=4)}"


def _identifier(text: str) -> str:
    return re.sub(r"\W+", "_", text).strip("_").lower() or "tool"


def _unique(name: str, taken: set[str]) -> str:
    candidate, suffix = name, 2
    while candidate in taken:
        candidate, suffix = f"{name}_{suffix}", suffix + 1
    taken.add(candidate)
    return candidate


def listing_json(listing: list[dict[str, Any]]) -> str:
    """``tests/tools.json``: the notebook's tools/list entries."""
    return json.dumps(listing, indent=1, ensure_ascii=False) + "\n"
