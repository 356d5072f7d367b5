"""Where a request goes: ``Origin`` (scheme, host, port: what a connection is opened to and pooled by)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Origin:
    """One server a connection can be opened to.

    Example::

        origin, target = split_url("http://127.0.0.1:8888/mcp?token=t")
        origin.host_header  # '127.0.0.1:8888'; target == '/mcp?token=t'
    """

    scheme: str
    host: str
    port: int

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"

    def __str__(self) -> str:
        return f"{self.scheme}://{self.host_header}"


def split_url(url: str) -> tuple[Origin, str]:
    """The origin of an ``http(s)://`` URL and its request target (path and query).

    Anything else is a ``ValueError`` that says why.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {url!r}")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ValueError(f"bad port in URL {url!r}") from None
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Origin(parts.scheme, parts.hostname, port), target
