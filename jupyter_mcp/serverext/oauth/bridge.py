"""Answering a tornado request with an ASGI app (the SDK's auth handlers are Starlette apps).

The request is whole by the time a handler runs (these endpoints take small form or JSON bodies),
so the app gets it in one ``http.request`` message; the response is collected and written back
through the handler, headers included (a ``Location``, ``Cache-Control: no-store``, CORS).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Scope
from tornado.web import RequestHandler


@dataclass
class Answer:
    """What the app sent."""

    status: int = 500
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""


def asgi_scope(handler: RequestHandler) -> Scope:
    """The ASGI ``http`` scope of a tornado request (path and query as the client sent them)."""
    request = handler.request
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request.method or "GET",
        "scheme": request.protocol,
        "path": request.path,
        "raw_path": request.path.encode(),
        "query_string": request.query.encode(),
        "root_path": "",
        "headers": [
            (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.get_all()
        ],
        "client": (request.remote_ip or "", 0),
        "server": None,  # Starlette builds URLs from the Host header
    }


async def run(app: ASGIApp, scope: Scope, body: bytes) -> Answer:
    """Run ``app`` for one request whose body is ``body``; what it answered."""
    answer = Answer()
    delivered = False

    async def receive() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the app asks again only to learn of a disconnect: there is none
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer.status = message["status"]
            answer.headers = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in message["headers"]]
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")

    await app(scope, receive, send)
    return answer


def write(handler: RequestHandler, answer: Answer) -> None:
    """Write ``answer`` through ``handler`` (its own default headers stay, the app's win)."""
    handler.set_status(answer.status)
    handler.clear_header("Content-Type")
    for name in {name.lower() for name, _ in answer.headers}:
        handler.clear_header(name)
    for name, value in answer.headers:
        if name.lower() != "content-length":
            handler.add_header(name, value)
    handler.finish(answer.body)


async def answer_with(handler: RequestHandler, app: ASGIApp) -> None:
    """Answer ``handler``'s request with ``app``."""
    write(handler, await run(app, asgi_scope(handler), handler.request.body))
