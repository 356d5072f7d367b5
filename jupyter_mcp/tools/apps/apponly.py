"""The app-only tools (``_meta.ui.visibility: ["app"]``): what an app asks its server while the user looks.

``jupyter_mcp_app_status`` tells the app how the call it was opened for goes (running with its
progress, waiting for the notebook user's approval, a task, finished); ``jupyter_mcp_app_read``
gives a ``result://`` link's full value in chunks of at most ``CHUNK_BYTES``, so a value over the
result budget reaches the app and never the model's context. Hosts keep these tools from the model
(they are listed only to clients that render apps, marked for the app) and each answers only about
its requester's own calls (``live.py``). Neither is a call of the notebook's: nothing is recorded.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

import mcp_types as mt
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from jupyter_mcp.tools.apps.live import LiveCall, LiveCalls, Requester
from jupyter_mcp.tools.budget.links import ResultLinks
from jupyter_mcp.tools.components.component import format_validation_error
from jupyter_mcp.tools.components.resource_contents import ResourceContents

STATUS_TOOL = "jupyter_mcp_app_status"
READ_TOOL = "jupyter_mcp_app_read"
CHUNK_BYTES = 500_000
"""At most this many bytes of a full value (as JSON text) per answer of ``jupyter_mcp_app_read``."""

_CALL_ID = re.compile(r"^result://(?:[^/?#]+/)*([^/?#]+)$")
"""A link's call id; a prefix before it (``result://sales/<id>`` at the all-notebooks address) is ignored."""
_WAITING = {
    "notebook/approve": "for the notebook user's approval",
    "notebook/answer": "for the notebook user's answer",
    "elicitation/create": "for your answer",
    "sampling/createMessage": "for the model (sampling)",
    "roots/list": "for the client's roots",
}
"""What a waiting call waits for, after the status word ("waiting")."""


class _StatusArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tool: str = Field(description="The tool whose call the app shows.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="The call's arguments (tool-input).")


class _ReadArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    uri: str = Field(description="The result:// link of a preview.")
    item: int = Field(0, ge=0, description="Which of the value's contents (usually the only one, 0).")
    offset: int = Field(0, ge=0, description="Where to start, in characters of the item's text (base64 for binary).")


def _definition(name: str, title: str, description: str, args: type[BaseModel]) -> mt.Tool:
    return mt.Tool(
        name=name,
        title=title,
        description=description,
        input_schema=args.model_json_schema(),
        annotations=mt.ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
        meta={"ui": {"visibility": ["app"]}},
    )


DEFINITIONS = (
    _definition(
        STATUS_TOOL,
        "Call status (for the tool's app)",
        "How a call of a tool goes: running with its progress, waiting for the notebook user, a task, finished.",
        _StatusArgs,
    ),
    _definition(
        READ_TOOL,
        "Full value (for the tool's app)",
        "A chunk of a preview's full value behind its result:// link, for the tool's app to draw.",
        _ReadArgs,
    ),
)
"""What ``tools/list`` adds for clients that render apps (the host keeps them from the model)."""
NAMES = frozenset(tool.name for tool in DEFINITIONS)


class AppOnlyTools:
    """Answers ``tools/call`` of the app-only tools for one server (its live calls and kept full values)."""

    def __init__(self, live: LiveCalls, links: Callable[[], ResultLinks]) -> None:
        self.live = live
        self.links = links

    def call(self, name: str, arguments: Mapping[str, Any] | None, requester: Requester) -> mt.CallToolResult:
        try:
            if name == STATUS_TOOL:
                status = _StatusArgs.model_validate(dict(arguments or {}))
                return _answer(self.status(status.tool, status.arguments, requester))
            read = _ReadArgs.model_validate(dict(arguments or {}))
            return _answer(self.read(read.uri, read.item, read.offset, requester))
        except ValidationError as exc:
            return _error(
                format_validation_error(
                    name, exc, list(_StatusArgs.model_fields if name == STATUS_TOOL else _ReadArgs.model_fields)
                )
            )
        except LookupError as exc:
            return _error(str(exc.args[0]))

    def status(self, tool: str, arguments: dict[str, Any], requester: Requester) -> dict[str, Any]:
        """``{"found": false}``, or the newest matching call of this requester as the app draws it."""
        call = self.live.find(tool, arguments, requester)
        return {"found": False} if call is None else {"found": True, "call": describe(call)}

    def read(self, uri: str, item: int, offset: int, requester: Requester) -> dict[str, Any]:
        """A chunk of item ``item`` of the value behind ``uri``, from character ``offset``."""
        match = _CALL_ID.match(uri)
        call_id = match.group(1) if match else None
        contents = self.links().get(call_id) if call_id is not None and self.live.owner(call_id) == requester else None
        if contents is None:
            raise LookupError(f"{uri} is not kept (any more) for this client: call the tool again")
        if item >= len(contents):
            raise LookupError(f"{uri} has {len(contents)} item(s); there is no item {item}")
        return _chunk(uri, contents, item, offset)


def describe(call: LiveCall) -> dict[str, Any]:
    """A live call as the app's status line draws it."""
    running = call.finished_at is None
    status = ("waiting" if call.waiting else "running") if running else call.status
    progress = call.progress
    fraction = progress.progress / progress.total if progress and progress.total else None
    if call.waiting:
        text = "; ".join(dict.fromkeys(_WAITING.get(method, f"for {method}") for method in call.waiting.values()))
    elif progress is not None:
        total = f"/{progress.total:g}" if progress.total else ""
        text = f"{progress.progress:g}{total}" + (f" · {progress.message}" if progress.message else "")
    else:
        text = ""
    return {
        "id": call.call_id,
        "status": status,
        "progress": None if fraction is None else max(0.0, min(1.0, fraction)),
        "text": text,
        "task": call.task_id or "",
        "elapsed": round((call.finished_at or time.time()) - call.started_at, 3),
    }


def _chunk(uri: str, contents: list[ResourceContents], item: int, offset: int) -> dict[str, Any]:
    content = contents[item]
    binary = isinstance(content, mt.BlobResourceContents)
    whole = content.blob if isinstance(content, mt.BlobResourceContents) else content.text
    size = CHUNK_BYTES
    while True:  # characters whose JSON text fits in CHUNK_BYTES (escapes and UTF-8 may take more than one byte)
        data = whole[offset : offset + size]
        encoded = len(json.dumps(data, ensure_ascii=False).encode())
        if encoded <= CHUNK_BYTES:
            break
        size = max(1, int(size * CHUNK_BYTES / encoded * 0.98))
    end = offset + len(data)
    return {
        "uri": uri,
        "item": item,
        "items": len(contents),
        "mimeType": content.mime_type,
        "encoding": "base64" if binary else "text",
        "offset": offset,
        "next": end if end < len(whole) else None,
        "total": len(whole),
        "data": data,
    }


def _answer(value: dict[str, Any]) -> mt.CallToolResult:
    summary = {key: item for key, item in value.items() if key != "data"}
    return mt.CallToolResult(
        content=[mt.TextContent(type="text", text=json.dumps(summary, ensure_ascii=False))],
        structured_content=value,
    )


def _error(message: str) -> mt.CallToolResult:
    return mt.CallToolResult(content=[mt.TextContent(type="text", text=message)], is_error=True)
