"""Sign-in with Jupyter from a client's side, for the tests: the SDK's own OAuth client (``mcp.client.auth``),
the browser's part played without a browser (``Consent``: the Jupyter token stands in for a login), and a
loopback callback server for flows a real browser finishes (``Callback``)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from pydantic import AnyUrl

RESET = '''
%%mcp_tool
def reset(value: int = 0) -> int:
    """Reset the counter (not read-only)."""
    return value
'''
"""A tool cell that is not read-only: what a read-only grant is refused."""
REDIRECT_URI = "http://127.0.0.1:9/callback"
"""Where the headless consent sends the code (never contacted: the test reads the redirect itself)."""


class MemoryStorage:
    """The SDK client's ``TokenStorage``, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


@dataclass
class Consent:
    """The user's part, without a browser: follow the authorization URL to the consent page (as the Jupyter
    user, by the Jupyter token) and answer it. ``form`` overrides the page's defaults (``access``, ``notebooks``,
    ``notebook_paths``, ``duration``, ``decision``)."""

    token: str
    form: dict[str, str] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)
    """The consent pages seen (their HTML)."""
    redirects: list[str] = field(default_factory=list)
    """Where each answer sent the browser (the client's redirect URI, with the code or the error)."""
    _answer: asyncio.Queue[AuthorizationCodeResult] = field(default_factory=asyncio.Queue)

    async def redirect_handler(self, authorization_url: str) -> None:
        self._answer.put_nowait(await self.answer(authorization_url))

    async def callback_handler(self) -> AuthorizationCodeResult:
        return await self._answer.get()

    async def answer(self, authorization_url: str) -> AuthorizationCodeResult:
        location = await self.visit(authorization_url)
        query = parse_qs(urlsplit(location).query)
        if "error" in query:
            raise ConsentRefused(query["error"][0])
        return AuthorizationCodeResult(code=query["code"][0], state=query["state"][0], iss=query.get("iss", [None])[0])

    async def visit(self, authorization_url: str) -> str:
        """GET the authorization URL, GET the consent page, POST the answer; the final redirect."""
        headers = {"Authorization": f"token {self.token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
            sent = await http.get(authorization_url)
            assert sent.status_code == 302, (sent.status_code, sent.text)
            consent_url = urljoin(authorization_url, sent.headers["Location"])
            page = await http.get(consent_url)
            assert page.status_code == 200, (page.status_code, page.text)
            self.pages.append(page.text)
            request_id = parse_qs(urlsplit(consent_url).query)["auth_request"][0]
            answer = {"auth_request": request_id, "decision": "allow", **self.form}
            done = await http.post(consent_url, data=answer)
            assert done.status_code == 302, (done.status_code, done.text)
            self.redirects.append(done.headers["Location"])
            return done.headers["Location"]


class ConsentRefused(Exception):
    """The client's redirect URI got an error (``access_denied``) instead of a code."""


def sdk_provider(
    url: str,
    consent: Consent,
    *,
    client_metadata_url: str | None = None,
    redirect_uri: str = REDIRECT_URI,
    storage: MemoryStorage | None = None,
    name: str = "SDK test client",
) -> OAuthClientProvider:
    """The SDK's OAuth client for ``url``: registers itself (RFC 7591), or with ``client_metadata_url`` is
    described by that document."""
    metadata = OAuthClientMetadata(
        client_name=name, redirect_uris=[AnyUrl(redirect_uri)], grant_types=["authorization_code", "refresh_token"]
    )
    return OAuthClientProvider(
        url, metadata, storage or MemoryStorage(), redirect_handler=consent.redirect_handler,
        callback_handler=consent.callback_handler, client_metadata_url=client_metadata_url,
    )  # fmt: skip


def oauth_client(url: str, auth: httpx2.Auth, **options: Any) -> Client:
    """A real ``mcp.Client`` over streamable HTTP that signs in with ``auth`` (``mode=`` picks the era)."""
    http = httpx2.AsyncClient(auth=auth, timeout=httpx2.Timeout(30, read=300))
    return Client(streamable_http_client(url, http_client=http), **options)


@dataclass
class Callback:
    """A loopback HTTP server standing in for a native client's redirect URI: it records each request's query."""

    url: str = ""
    seen: list[dict[str, str]] = field(default_factory=list)

    async def next(self) -> dict[str, str]:
        """The next visit's query (wrap in ``asyncio.timeout`` to bound the wait)."""
        while not self.seen:
            await asyncio.sleep(0.05)
        return self.seen.pop(0)


@contextmanager
def callback_server(path: str = "/callback") -> Iterator[Callback]:
    """Serve ``http://127.0.0.1:<port><path>`` until the block ends."""
    callback = Callback()

    class _Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = {key: values[0] for key, values in parse_qs(urlsplit(self.path).query).items()}
            callback.seen.append(query)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<!doctype html><title>Signed in</title><p>You can close this window.</p>")

        def log_message(self, *_: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    callback.url = f"http://127.0.0.1:{server.server_port}{path}"
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield callback
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def challenge_fields(www_authenticate: str) -> dict[str, str]:
    """The ``name="value"`` pairs of a ``WWW-Authenticate: Bearer …`` header."""
    assert www_authenticate.startswith("Bearer "), www_authenticate
    return dict(re.findall(r'(\w+)="([^"]*)"', www_authenticate))
