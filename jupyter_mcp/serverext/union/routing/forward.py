"""A client's request on its way to the notebook that owns it, and the kernel's answer on its way back.

The kernel's answer keeps its form: a JSON body stays a JSON body, an SSE stream stays a stream,
relayed message by message as it comes (progress, logs, a kernel's questions to the client, then
the result), each with the union's names. A kernel that breaks off (restarted or shut down mid-call)
leaves the client an answer that says which notebook and what happened, never a silent cut.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcp_types import SERVER_INFO_META_KEY

from jupyter_mcp._wire.errors import HttpError
from jupyter_mcp.capabilities import SERVER_INFO
from jupyter_mcp.serverext.carriers.base import UpstreamResponse
from jupyter_mcp.serverext.union.live import upstream
from jupyter_mcp.serverext.union.live.members import Member
from jupyter_mcp.serverext.union.live.sessions import ClientSession, Link
from jupyter_mcp.serverext.union.routing.replies import INTERNAL_ERROR, Reply, encode, error_message, tool_error
from jupyter_mcp.serverext.union.routing.rewrite import might_carry_names, notification_to_client, result_to_client

if TYPE_CHECKING:
    from jupyter_mcp.serverext.union.live.union import Union

_RESUMPTIONS = 3
"""How many times a 2025-era stream the kernel ended before answering is resumed (Last-Event-ID)."""
_JSON = "application/json"
_SSE = "text/event-stream"


@dataclass
class Job:
    """One request forwarded to one member."""

    member: Member
    request_id: Any
    method: str
    name: str
    """What the client called (a tool or prompt name, a URI, a task id), for messages."""
    modern: bool
    session: ClientSession | None = None
    link: Link | None = None
    """The client's session with the member's kernel (2025 era)."""


async def forward(union: Union, job: Job, body: bytes, headers: Iterable[tuple[str, str]]) -> Reply:
    """Send ``body`` to the member's kernel; its answer as the client gets it."""
    await union.ready(job.member)
    try:
        response = await upstream.post(job.member.carrier, job.member.info, body, headers)
    except HttpError:
        return Reply(200, encode(await lost(union, job)))
    if response.status >= 500:  # the kernel's server failing (it answers 500 as its kernel shuts down)
        response.close()
        return Reply(200, encode(await lost(union, job)))
    if response.status != 200 or response.content_type not in (_JSON, _SSE):
        return await _as_is(union, job, response)
    if response.content_type == _JSON:
        try:
            data = await response.read()
        except HttpError:
            return Reply(200, encode(await lost(union, job)))
        return Reply(200, translate(job, data)[0] or data)
    return Reply(200, events=_relay(union, job, response))


async def _as_is(union: Union, job: Job, response: UpstreamResponse) -> Reply:
    """A refusal (HTTP 4xx with the kernel's JSON-RPC error, a 202) passes through unchanged."""
    try:
        data = await response.read()
    except HttpError:
        return Reply(200, encode(await lost(union, job)))
    return Reply(response.status, data or None, headers={"Content-Type": response.headers.get("content-type", _JSON)})


async def _relay(union: Union, job: Job, response: UpstreamResponse) -> AsyncIterator[bytes]:
    relay = _Relay(job)
    try:
        async for message in relay.messages(response):
            yield message
        for _ in range(_RESUMPTIONS):
            if relay.answered or job.link is None or not relay.last_event:
                break
            # 2025 era: a kernel may end a call's stream early on purpose (SEP-1699) and deliver the rest on
            # a GET with Last-Event-ID. The union resumes it itself; its client just sees one longer stream.
            headers = [*job.link.headers(), ("Last-Event-ID", relay.last_event.decode("latin-1"))]
            resumed = await upstream.get_stream(job.member.carrier, job.member.info, headers)
            if resumed.status != 200:
                resumed.close()
                break
            async for message in relay.messages(resumed):
                yield message
    except HttpError:
        pass  # answered below: the kernel went away mid-answer
    if not relay.answered:
        yield encode(await lost(union, job))


class _Relay:
    """The kernel's messages for one request, translated; whether the answer came; where to resume."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.answered = False
        self.last_event = b""

    async def messages(self, response: UpstreamResponse) -> AsyncIterator[bytes]:
        async for event_id, data in upstream.events(response):
            self.last_event = event_id or self.last_event
            if not data:
                continue  # a priming event: only its id matters
            message, is_answer = translate(self.job, data)
            self.answered = self.answered or is_answer
            if message is not None:
                yield message


def translate(job: Job, data: bytes) -> tuple[bytes | None, bool]:
    """One kernel message for the client (``None``: the union keeps it), and whether it is the answer."""
    if not might_carry_names(data):
        return data, True  # no method: the answer, and nothing in it to rename
    try:
        message = json.loads(data)
    except ValueError:
        return None, False
    if not isinstance(message, dict):
        return None, False
    if "method" not in message:
        if message.get("id") != job.request_id:
            return data, False
        result = message.get("result")
        if isinstance(result, dict):
            message = {**message, "result": result_to_client(job.member, job.method, result)}
            return encode(message), True
        return data, True
    return _from_kernel(job, message, data), False


def _from_kernel(job: Job, message: dict[str, Any], data: bytes) -> bytes | None:
    """A kernel's request to the client (2025 era: its id becomes the union's) or notification."""
    if "id" in message:
        if job.session is None or job.link is None:
            return data
        return encode({**message, "id": job.session.ask(job.link, message["id"])})
    if message.get("method") == "notifications/cancelled":
        return _cancelled(job, message)
    named = notification_to_client(job.member, message)
    if named is None:
        return None
    return data if named is message else encode(named)


def _cancelled(job: Job, message: dict[str, Any]) -> bytes | None:
    """The kernel withdrew one of its requests to the client: name it by the union's id."""
    params = message.get("params") or {}
    if job.session is None or not isinstance(params, dict):
        return None
    for asked, (link, original) in job.session.asked.items():
        if link is job.link and original == params.get("requestId"):
            return encode({**message, "params": {**params, "requestId": asked}})
    return None


async def lost(union: Union, job: Job) -> dict[str, Any]:
    """The answer for a request whose kernel went away before answering it."""
    what = await union.what_happened(job.member)
    text = (
        f"jupyter-mcp: the kernel of {job.member.label} {what} while {job.method} {job.name!r} was under way, "
        "so its outcome is unknown. Run the notebook's cells again to serve its tools."
    )
    if job.method != "tools/call":
        return error_message(job.request_id, INTERNAL_ERROR, text)
    value = tool_error(text)
    if job.modern:
        value = {**value, "resultType": "complete", "_meta": {SERVER_INFO_META_KEY: SERVER_INFO}}
    return {"jsonrpc": "2.0", "id": job.request_id, "result": value}
