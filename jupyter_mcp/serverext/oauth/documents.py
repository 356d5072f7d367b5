"""Client ID metadata documents: a client whose ``client_id`` is an https URL describes itself there.

draft-ietf-oauth-client-id-metadata-document (which MCP's 2025-11-25 authorization spec adopts):
the authorization server fetches the URL, and the JSON document must name that very URL as its
``client_id``; its ``redirect_uris`` are the only places a code may go. Such a client is public
(no secret: ``token_endpoint_auth_method`` is ``none``), and its identity is as good as the host
that serves the document, which is why the consent page shows that host as verified.

The fetch is careful, since anyone may name any URL: https only, no redirects followed, a size
limit, a timeout, and no connection to a loopback, private or link-local address (checked on the
addresses the connection really uses, so DNS rebinding cannot slip one in) unless the server allows
them (tests, intranets). Documents are cached for their ``Cache-Control: max-age`` (within bounds);
failures for a minute, so one bad ``client_id`` cannot make this server fetch in a loop.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import ssl
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.netutil import DefaultLoopResolver
from tornado.simple_httpclient import SimpleAsyncHTTPClient

from jupyter_mcp.serverext.oauth.clients import JupyterClient

MAX_BYTES = 5 * 1024
"""The draft's recommended limit for a document."""
TIMEOUT = 5.0
_CACHE_SIZE = 256
_MIN_AGE, _DEFAULT_AGE, _MAX_AGE, _FAILURE_AGE = 60.0, 300.0, 86400.0, 60.0
_MAX_AGE_PATTERN = re.compile(r"max-age=(\d+)")
_SECRET_METHODS = {"client_secret_post", "client_secret_basic", "client_secret_jwt"}


class DocumentError(ValueError):
    """Why a client ID metadata document cannot be used (shown to the user as the OAuth error)."""


def is_document_url(client_id: str) -> bool:
    """Whether ``client_id`` names a metadata document (an https URL with a path)."""
    parts = urlsplit(client_id)
    return parts.scheme == "https" and parts.path not in ("", "/")


@dataclass(frozen=True)
class _Cached:
    client: JupyterClient | None
    error: str
    until: float


class MetadataDocuments:
    """Fetches, checks and caches client ID metadata documents."""

    def __init__(self, *, private_addresses: bool = False, ca_file: str = "") -> None:
        self.private_addresses = private_addresses
        self.ca_file = ca_file
        self._cache: OrderedDict[str, _Cached] = OrderedDict()

    async def client(self, url: str) -> JupyterClient:
        """The client the document at ``url`` describes; ``DocumentError`` says why not."""
        cached = self._cache.get(url)
        if cached is None or cached.until < time.monotonic():
            cached = await self._fetch(url)
            self._cache[url] = cached
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        if cached.client is None:
            raise DocumentError(cached.error)
        return cached.client

    async def _fetch(self, url: str) -> _Cached:
        try:
            body, max_age = await self._download(url)
            client = client_from_document(url, body)
        except DocumentError as error:
            return _Cached(None, str(error), time.monotonic() + _FAILURE_AGE)
        return _Cached(client, "", time.monotonic() + max_age)

    async def _download(self, url: str) -> tuple[bytes, float]:
        check_url(url)
        http = SimpleAsyncHTTPClient(
            force_instance=True, resolver=_Addresses(self.private_addresses), max_body_size=MAX_BYTES
        )
        request = HTTPRequest(
            url, follow_redirects=False, connect_timeout=TIMEOUT, request_timeout=TIMEOUT,
            headers={"Accept": "application/json"}, ca_certs=self.ca_file or None,
        )  # fmt: skip
        try:
            response = await http.fetch(request, raise_error=False)
        except (OSError, HTTPClientError, ssl.SSLError) as error:
            raise DocumentError(f"could not fetch the client's metadata document {url}: {error}") from None
        finally:
            http.close()
        if response.code != 200:
            raise DocumentError(f"the client's metadata document {url} answered HTTP {response.code}, not 200")
        return response.body, _max_age(response.headers.get("Cache-Control", ""))


def check_url(url: str) -> None:
    """The draft's rules for a ``client_id`` URL."""
    parts = urlsplit(url)
    segments = parts.path.split("/")
    if parts.scheme != "https" or parts.path in ("", "/"):
        raise DocumentError("a client_id URL must be https and have a path")
    if parts.fragment or parts.username or parts.password or "." in segments or ".." in segments:
        raise DocumentError("a client_id URL must not have a fragment, credentials or dot segments")


def client_from_document(url: str, body: bytes) -> JupyterClient:
    """Check a fetched document and read it as a public client whose ``client_id`` is ``url``."""
    try:
        document: Any = json.loads(body)
    except ValueError:
        raise DocumentError(f"the client's metadata document {url} is not JSON") from None
    if not isinstance(document, dict):
        raise DocumentError(f"the client's metadata document {url} is not a JSON object")
    if document.get("client_id") != url:
        raise DocumentError(f"the metadata document at {url} names another client_id: {document.get('client_id')!r}")
    if "client_secret" in document or document.get("token_endpoint_auth_method") in _SECRET_METHODS:
        raise DocumentError("a client described by a metadata document cannot use a shared secret")
    if document.get("token_endpoint_auth_method", "none") != "none":
        raise DocumentError("this server supports only token_endpoint_auth_method 'none' for such clients")
    if not document.get("redirect_uris"):
        raise DocumentError(f"the metadata document at {url} lists no redirect_uris")
    try:
        return JupyterClient.model_validate({**document, "token_endpoint_auth_method": "none", "verified": True})
    except ValidationError as error:
        raise DocumentError(f"the metadata document at {url} is invalid: {error.errors()[0]['msg']}") from None


def _max_age(cache_control: str) -> float:
    found = _MAX_AGE_PATTERN.search(cache_control)
    if "no-store" in cache_control or "no-cache" in cache_control:
        return _MIN_AGE
    return min(max(float(found.group(1)), _MIN_AGE), _MAX_AGE) if found else _DEFAULT_AGE


class _Addresses(DefaultLoopResolver):
    """Resolves a document's host, keeping only public addresses (unless private ones are allowed)."""

    def initialize(self, private_addresses: bool = False) -> None:
        self.private_addresses = private_addresses

    async def resolve(
        self, host: str, port: int, family: socket.AddressFamily = socket.AF_UNSPEC
    ) -> list[tuple[int, Any]]:
        found = await super().resolve(host, port, family)
        usable = [(kind, address) for kind, address in found if self.private_addresses or _public(address[0])]
        if not usable:
            raise OSError(f"{host} has no public address (this server fetches client metadata from public hosts only)")
        return usable


def _public(address: str) -> bool:
    return ipaddress.ip_address(address.split("%", 1)[0]).is_global
