"""Two agents (one in each protocol era) and a user typing into the shared document edit and run one notebook
for 30 s. The final document holds every accepted edit exactly once, the replacements of the cell both agents
fight over form one chain (a lost update would fork it), every refusal is a clear stale-version error, and
the saved file is valid nbformat."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp_types as mt
import nbformat

from tests.serverext.conftest import jupyter_client
from tests.serverext.notebooks.conftest import structured, write_notebook
from tests.serverext.notebooks.test_read_edit import saved

DURATION = 30.0
PATH = "busy.ipynb"


@dataclass
class Ledger:
    """What the server accepted, as each agent heard it."""

    inserted: dict[str, str] = field(default_factory=dict)
    """Cell id -> the marker source it was inserted with (its last accepted source)."""
    deleted: set[str] = field(default_factory=set)
    chain: dict[str, tuple[str, str]] = field(default_factory=dict)
    """The shared cell: base version -> (new version, source), one link per accepted replacement."""
    stale: list[str] = field(default_factory=list)
    runs: int = 0


async def agent_loop(client: Any, name: str, ledger: Ledger, shared_id: str, stop: float, seed: int) -> None:
    rng = random.Random(seed)
    mine: list[str] = []
    count = 0
    while asyncio.get_running_loop().time() < stop:
        count += 1
        cells = {c["id"]: c for c in structured(await client.call_tool("jupyter_read", {"path": PATH}))["cells"]}
        roll = rng.random()
        if roll < 0.35 or not mine:
            anchor = rng.choice(list(cells))
            source = f"print('{name}-{count}')"
            ops = [{"op": "insert", "after": anchor, "source": source}]
        elif roll < 0.6:
            shared = cells[shared_id]
            source = f"shared = '{name}-{count}'"
            ops = [{"op": "replace", "id": shared_id, "version": shared["version"], "source": source}]
        elif roll < 0.75:
            target = rng.choice(mine)
            source = f"print('{name}-{count}')"
            ops = [{"op": "replace", "id": target, "version": cells[target]["version"], "source": source}]
        elif roll < 0.85:
            target = mine.pop(rng.randrange(len(mine)))
            ops = [{"op": "delete", "id": target, "version": cells[target]["version"]}]
        else:
            target = rng.choice(mine)
            ran = structured(await client.call_tool("jupyter_run", {"path": PATH, "ids": [target]}))
            assert ran["cells"][0]["status"] == "ok", ran
            ledger.runs += 1
            continue
        result = await client.call_tool("jupyter_edit", {"path": PATH, "ops": ops})
        if result.is_error:
            text = result.content[0].text
            # Raced: a cell it named changed, or the cell it inserts after was deleted by the other agent.
            assert "changed since you read it" in text or "deleted since you read it" in text, text
            assert "nothing was applied" in text
            ledger.stale.append(text)
            if ops[0]["op"] == "delete":
                mine.append(ops[0]["id"])  # still there: try again later
            continue
        touched = structured(result)["touched"][0]
        op = ops[0]
        if op["op"] == "insert":
            mine.append(touched["id"])
            ledger.inserted[touched["id"]] = str(op["source"])
        elif op["op"] == "delete":
            ledger.deleted.add(touched["id"])
        elif op["id"] == shared_id:
            assert op["version"] not in ledger.chain, "two replacements accepted on one version: a lost update"
            ledger.chain[str(op["version"])] = (touched["version"], str(op["source"]))
        else:
            ledger.inserted[touched["id"]] = str(op["source"])


async def user_loop(serverapp: Any, typed: list[str], stop: float) -> None:
    """The notebook's user typing into their own cell, through the shared document (as a browser's updates land)."""
    (ydoc,) = serverapp.extension_manager.extension_apps["jupyter_server_ydoc"]
    while asyncio.get_running_loop().time() < stop:
        document = await ydoc.get_document(
            path=PATH, content_type="notebook", file_format="json", copy=False, create=True
        )
        with document.ydoc.transaction(origin="browser-user"):
            ycell = next(cell for cell in document.ycells if cell["source"].to_py().startswith("# user"))
            text = ycell["source"]
            letter = random.choice("abcdefgh")
            text.insert(len(text), letter)
            typed.append(letter)
        await asyncio.sleep(0.03)


async def test_two_agents_and_a_user_for_30_s_lose_nothing_and_duplicate_nothing(
    jp_root_dir: Path, jp_serverapp: Any, jp_fetch: Any, server_url: str, jupyter_token: str
) -> None:
    file = write_notebook(jp_root_dir, PATH, ["shared = 0", "# user ", "x = 1"])
    ledger, typed = Ledger(), []
    url = f"{server_url}mcp"
    alpha = jupyter_client(url, jupyter_token, mode="legacy", client_info=mt.Implementation(name="alpha", version="1"))
    beta = jupyter_client(url, jupyter_token, mode="auto", client_info=mt.Implementation(name="beta", version="1"))
    async with alpha as first, beta as second:
        cells = structured(await first.call_tool("jupyter_read", {"path": PATH}))["cells"]
        shared_id, first_version = cells[0]["id"], cells[0]["version"]
        stop = asyncio.get_running_loop().time() + DURATION
        outcomes = await asyncio.gather(
            agent_loop(first, "alpha", ledger, shared_id, stop, seed=1),
            agent_loop(second, "beta", ledger, shared_id, stop, seed=2),
            user_loop(jp_serverapp, typed, stop),
            return_exceptions=True,
        )
        assert [repr(outcome) for outcome in outcomes if outcome is not None] == []
        final = structured(await first.call_tool("jupyter_read", {"path": PATH}))["cells"]
    sources = [cell["source"] for cell in final]
    ids = [cell["id"] for cell in final]
    assert len(ids) == len(set(ids))
    for cell_id, source in ledger.inserted.items():
        expected = 0 if cell_id in ledger.deleted else 1
        assert ids.count(cell_id) == expected, (cell_id, source)
        if expected:
            assert sources[ids.index(cell_id)] == source
    assert sum(source.startswith("print('") for source in sources) == len(set(ledger.inserted) - ledger.deleted)
    assert sources.count("# user " + "".join(typed)) == 1  # every key the user typed, once, in order
    version, source = first_version, "shared = 0"
    while version in ledger.chain:
        version, source = ledger.chain.pop(version)
    assert ledger.chain == {}, "an accepted replacement of the shared cell fell off the chain"
    assert sources[ids.index(shared_id)] == source
    assert len(ledger.inserted) > 10
    assert ledger.runs > 0
    print(
        f"accepted inserts {len(ledger.inserted)}, deletes {len(ledger.deleted)}, stale {len(ledger.stale)}, runs {ledger.runs}"
    )
    notebook = await saved(file, lambda nb: [cell.source for cell in nb.cells] == sources, within=15)
    assert [cell.source for cell in notebook.cells] == sources
    nbformat.validate(notebook)
    assert json.loads((await jp_fetch("api", "mcp", "notebook-tools")).body)["agents"]
