"""HTTP protection for a served MCP app: Host/Origin checks (DNS rebinding), then a bearer token."""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Collection
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from jupyter_mcp.shapes.signedin import HEADER, decode
from jupyter_mcp.tools import signedin

logger = logging.getLogger(__name__)

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def protect(app: ASGIApp, *, token: str, extra_hosts: Collection[str] = ()) -> ASGIApp:
    """Wrap ``app`` so every HTTP request passes the Host/Origin check, then presents ``token``.

    Header values reach ``app`` without surrounding white space, whichever HTTP parser read them
    (httptools keeps a value's trailing spaces; a routing header must still match the body).
    """
    if not token:
        raise ValueError("a token is required: the server never runs without one")
    return _Guard(app, token, tuple(LOOPBACK_HOSTS) + tuple(extra_hosts))


def token_from(headers: Headers, query_string: bytes) -> str | None:
    """The credential a request presents: ``Authorization: Bearer`` or ``?token=``."""
    authorization = headers.get("authorization", "")
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() == "bearer" and value:
        return value.strip()
    values = parse_qs(query_string.decode("latin-1")).get("token")
    return values[0] if values else None


def host_allowed(host_header: str | None, hosts: Collection[str]) -> bool:
    if not host_header:
        return False
    return _hostname(host_header) in hosts


def origin_allowed(origin: str | None, hosts: Collection[str]) -> bool:
    if not origin:
        return True  # same-origin requests and non-browser clients send none
    scheme, _, rest = origin.partition("://")
    return scheme in ("http", "https") and _hostname(rest) in hosts


def _hostname(host_port: str) -> str:
    host_port = host_port.strip().lower()
    if host_port.startswith("["):
        return host_port[: host_port.find("]") + 1]
    return host_port.rsplit(":", 1)[0] if host_port.count(":") == 1 else host_port


class _Guard:
    def __init__(self, app: ASGIApp, token: str, hosts: tuple[str, ...]) -> None:
        self.app = app
        self._token = token.encode()
        self._hosts = frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        _strip_values(scope)
        headers = Headers(scope=scope)
        if not host_allowed(headers.get("host"), self._hosts):
            logger.warning("refused a request with Host %r", headers.get("host"))
            await _refuse(send, 421, "Misdirected request: Host header not allowed")
            return
        if not origin_allowed(headers.get("origin"), self._hosts):
            logger.warning("refused a request with Origin %r", headers.get("origin"))
            await _refuse(send, 403, "Forbidden: Origin not allowed")
            return
        presented = token_from(headers, scope.get("query_string", b""))
        if presented is None or not hmac.compare_digest(presented.encode(), self._token):
            await _refuse(send, 401, "Unauthorized: send the server token as 'Authorization: Bearer <token>'")
            return
        vouched = headers.get(HEADER)
        if vouched is None:
            await self.app(scope, receive, send)
            return
        grant = decode(vouched)
        if grant is None:  # never the token holder's full powers for a client it meant to hold to its grant
            await _refuse(send, 400, f"Bad request: a malformed {HEADER} header")
            return
        # The token holder (the Jupyter server) vouches for a signed-in client: its requests go by its grant.
        reset = signedin.current.set(grant)
        try:
            await self.app(scope, receive, send)
        finally:
            signedin.current.reset(reset)


def _strip_values(scope: Scope) -> None:
    """Drop the optional white space around header values (RFC 9110 5.5), as h11 does."""
    raw: list[tuple[bytes, bytes]] = scope["headers"]
    if any(value[-1:] in _OWS or value[:1] in _OWS for _, value in raw):
        scope["headers"] = [(name, value.strip(b" \t")) for name, value in raw]


_OWS = (b" ", b"\t")


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="jupyter-mcp"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
