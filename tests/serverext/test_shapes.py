"""The REST replies, ``jupyter_mcp/shapes`` and ``labextension/src/types.ts`` say the same thing.

types.ts is generated from the shapes (checked here to be up to date), and real replies of a
real Jupyter server are checked against the shapes key for key: a field added on one side only
fails one of the two tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import mcp_types as mt
from typing_extensions import is_typeddict

from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp.clientconfig import CLIENTS
from jupyter_mcp.discovery import PromptSummary, ResourceSummary, ServerInfo, ToolSummary
from jupyter_mcp.serverext.carriers.base import HttpCarrier
from jupyter_mcp.serverext.directory import Located
from jupyter_mcp.serverext.servers import describe
from jupyter_mcp.shapes.rest import ConfigReply, ServerEntry
from jupyter_mcp.shapes.status import ServerStatus
from jupyter_mcp.tools import ToolServer
from tests.serverext.conftest import Notebook, jupyter_client
from tests.serverext.test_proxy import TOOLS, kernel_url

ROOT = Path(__file__).resolve().parents[2]


def test_types_ts_is_generated_from_the_shapes() -> None:
    script = ROOT / "scripts" / "labextension_types.py"
    done = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def mismatches(value: Any, shape: Any, where: str = "reply") -> list[str]:
    """Every place where a JSON value differs from a type: missing or extra keys, wrong types."""
    origin, args = get_origin(shape), get_args(shape)
    if shape is Any:
        return []
    if is_typeddict(shape):
        return _typed_dict(value, shape, where)
    if origin in (types.UnionType, typing.Union):
        fits = any(not mismatches(value, arm, where) for arm in args)
        return [] if fits else [f"{where}: {value!r} is none of {shape}"]
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [problem for i, item in enumerate(value) for problem in mismatches(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        return [problem for key, item in value.items() for problem in mismatches(item, args[1], f"{where}.{key}")]
    return [] if _scalar_fits(value, shape) else [f"{where}: {value!r} is not {shape.__name__}"]


def _typed_dict(value: Any, shape: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {value!r} is not a {shape.__name__} object"]
    hints = get_type_hints(shape)
    problems = [f"{where}: {key!r} is in the reply but not in {shape.__name__}" for key in value.keys() - hints]
    problems += [f"{where}: {key!r} is missing" for key in shape.__required_keys__ - value.keys()]
    for key in value.keys() & hints.keys():
        problems += mismatches(value[key], hints[key], f"{where}.{key}")
    return problems


def _scalar_fits(value: Any, shape: Any) -> bool:
    if shape is float:  # a JSON number; bool is no number
        return isinstance(value, int | float) and not isinstance(value, bool)
    if shape is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, shape)


def test_the_checker_finds_a_field_on_one_side_only() -> None:
    counts = {"calls": 1, "errors": 0, "refused": 0, "running": 0, "mean_duration": 0.5}
    tool = {"name": "t", "title": None, "description": "d", "enabled": True, "tags": [], "run_on": "worker", **counts}
    entry = {
        "kernel_id": "k", "notebook_path": None, "started": 1.5, "version": "1", "live": True, "transport": "http",
        "tools": [tool],
        "resources": [], "prompts": [], "clients": [], "calls": 1, "routes": {"kernel": "/k", "notebook": None},
        "paused": False, "pending": [], "questions": [], "read_only_clients": [],
    }  # fmt: skip
    assert mismatches(entry, ServerEntry) == []
    assert mismatches({**entry, "extra": 1}, ServerEntry) == ["reply: 'extra' is in the reply but not in ServerEntry"]
    assert mismatches({**entry, "tools": [{**tool, "calls": "1"}]}, ServerEntry) == [
        "reply.tools[0].calls: '1' is not int"
    ]
    del entry["live"]
    assert mismatches(entry, ServerEntry) == ["reply: 'live' is missing"]


def test_a_servers_own_status_is_its_shape() -> None:
    """What a kernel's ``GET /status`` says, key for key (the REST API passes its entries through)."""
    server = ToolServer(name="shapes")

    @server.tool(tags={"demo"})
    def add(a: int, b: int = 0) -> int:
        """Adds."""
        return a + b

    @server.resource("data://cities", mime_type="application/json")
    def cities() -> list[str]:
        return ["Oslo"]

    @server.resource("data://t/{id}")
    def table(id: str) -> str:
        return id

    @server.prompt
    def review(code: str) -> str:
        return f"Review {code}"

    status = server.status()
    assert mismatches(status, ServerStatus) == []
    assert [entry["run_on"] for entry in status["tools"]] == ["worker"]
    assert [entry["template"] for entry in status["resources"]] == [False, True]
    assert status["prompts"][0]["arguments"] == ["code"]


def test_a_kernel_that_does_not_answer_is_listed_from_its_discovery_file() -> None:
    """No status in time: the entry says what the file says (components as of its last write, no
    counters) with ``live: false``, in the same shape."""
    info = ServerInfo(
        "http://127.0.0.1:5001/mcp", "t", os.getpid(), "k-1", "a.ipynb",
        tools=[ToolSummary("add", "Add", "Adds.", run_on="main", tags=["math"])],
        resources=[ResourceSummary("data://t/{id}", "t", template=True)],
        prompts=[PromptSummary("review", arguments=["code"], enabled=False)],
        calls=7,
    )  # fmt: skip
    entry = describe(Located(info, "a.ipynb", HttpCarrier(ConnectionPool(), info)), None, "/base/")
    assert mismatches(entry, ServerEntry) == []
    assert (entry["live"], entry["calls"], entry["transport"]) == (False, 7, "http")
    none = {"calls": 0, "errors": 0, "refused": 0, "running": 0, "mean_duration": None}
    assert entry["tools"] == [
        {"name": "add", "title": "Add", "description": "Adds.", "enabled": True, "tags": ["math"], "run_on": "main"}
        | none
    ]
    assert [(r["uri"], r["template"]) for r in entry["resources"]] == [("data://t/{id}", True)]
    assert [(p["name"], p["arguments"], p["enabled"]) for p in entry["prompts"]] == [("review", ["code"], False)]


async def get_json(jp_fetch: Any, *parts: str, **params: str) -> Any:
    return json.loads((await jp_fetch(*parts, params=params)).body)


async def test_real_replies_match_the_shapes(
    jp_fetch: Any, notebook: Notebook, server_url: str, jupyter_token: str
) -> None:
    await notebook.run(TOOLS)
    info = mt.Implementation(name="shapes-test", version="1")
    async with jupyter_client(kernel_url(server_url, notebook), jupyter_token, mode="legacy", client_info=info) as c:
        await c.call_tool("get_var", {"name": "__name__"})
        servers = await get_json(jp_fetch, "api", "mcp", "servers")
    assert len(servers) == 1
    assert servers[0]["tools"]
    assert servers[0]["clients"]  # every nested shape is exercised
    assert mismatches(servers, list[ServerEntry]) == []
    for client in CLIENTS:
        for target in ({"notebook": notebook.path}, {"kernel": notebook.kernel_id}):
            reply = await get_json(jp_fetch, "api", "mcp", "config", client=client, **target)
            assert mismatches(reply, ConfigReply) == [], (client, target)
