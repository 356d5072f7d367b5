"""Calls kept as tests: what a kept ``CallRecord`` becomes, and the sidecar file they persist in.

``%mcp keep`` (or the panel's "keep as test" button) writes ``NAME.mcp-calls.json`` beside
``NAME.ipynb``, so ``jupyter-mcp export NAME.ipynb`` replays them too. Each call keeps what a client saw:
the structured result, the content blocks (as ``describe_block`` sees them), or the error text.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from jupyter_mcp.tools.calls.history import CallRecord
from jupyter_mcp.tools.replay import describe_block

SIDECAR_SUFFIX = ".mcp-calls.json"
_FORMAT = 1


class Expected(TypedDict, total=False):
    """Exactly one key: what the replayed call must give (the keywords of ``replay.check``)."""

    structured: Any
    content: list[dict[str, Any]]
    error: str


class RecordedCall(TypedDict):
    tool: str
    arguments: dict[str, Any]
    expect: Expected
    call: NotRequired[int]
    """Its number in the notebook's ``%mcp history``."""
    recorded_at: NotRequired[str]


def recorded_call(record: CallRecord) -> RecordedCall:
    """A finished call as a test case (the caller checked it is keepable: ``history.unkeepable``)."""
    texts = [str(block.get("text", "")) for block in record.content if block.get("type") == "text"]
    expect: Expected
    if record.is_error:
        expect = {"error": "\n".join(texts)}
    elif record.structured is not None:
        expect = {"structured": record.structured}
    else:
        expect = {"content": [describe_block(block) for block in record.content]}
    when = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(record.started_at))
    return {
        "tool": record.tool,
        "arguments": record.arguments,
        "expect": expect,
        "call": record.number,
        "recorded_at": when,
    }


def sidecar_path(notebook: Path) -> Path:
    """``analysis.ipynb`` -> ``analysis.mcp-calls.json`` beside it."""
    return notebook.with_name(notebook.stem + SIDECAR_SUFFIX)


def read_sidecar(notebook: Path) -> list[RecordedCall]:
    """The calls kept for ``notebook`` (none when it has no sidecar); ``ValueError`` if the file is not one."""
    path = sidecar_path(notebook)
    if not path.exists():
        return []
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        calls: list[RecordedCall] = document["calls"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path} is not a kept-calls file: {exc}") from None
    return calls


def write_sidecar(notebook: Path, calls: list[RecordedCall]) -> Path:
    path = sidecar_path(notebook)
    document = {"format": _FORMAT, "notebook": notebook.name, "calls": calls}
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
