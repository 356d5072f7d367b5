"""``JupyterClient``: an OAuth client as this server knows it (the SDK's record, and how it was identified)."""

from __future__ import annotations

from urllib.parse import urlsplit

from mcp.shared.auth import InvalidRedirectUriError, OAuthClientInformationFull
from pydantic import AnyUrl

from jupyter_mcp.serverext.oauth.store import SCOPES

_LOOPBACK = {"127.0.0.1", "[::1]", "localhost"}


class JupyterClient(OAuthClientInformationFull):
    """The SDK's client record, with where its identity came from and loopback redirects per RFC 8252."""

    verified: bool = False
    """Described by a metadata document at its ``client_id`` URL (else: it registered itself here)."""

    def validate_redirect_uri(self, redirect_uri: AnyUrl | None) -> AnyUrl:
        """As the SDK's, except that a loopback redirect URI may differ from a registered one in its port
        (RFC 8252 §7.3: a native app listens on whatever port it gets)."""
        try:
            return super().validate_redirect_uri(redirect_uri)
        except InvalidRedirectUriError:
            if redirect_uri is not None and any(
                _same_but_port(redirect_uri, known) for known in self.redirect_uris or ()
            ):
                return redirect_uri
            raise

    def validate_scope(self, requested_scope: str | None) -> list[str] | None:
        """The scopes of ours among those asked for; others (``openid``, ``offline_access``...) are ignored, as
        RFC 6749 §3.3 lets a server do: the user decides what the client gets, on the consent page."""
        if requested_scope is None:
            return None
        ours = [scope for scope in requested_scope.split() if scope in SCOPES]
        return ours or None

    @property
    def display_name(self) -> str:
        """What the user is shown: the name it gives, else the host its identity or redirects are on."""
        if self.client_name:
            return self.client_name
        if self.verified:
            return urlsplit(self.client_id).netloc
        return self.redirect_host or self.client_id

    @property
    def redirect_host(self) -> str:
        hosts = sorted({urlsplit(str(uri)).netloc for uri in self.redirect_uris or ()})
        return ", ".join(hosts)


def with_our_scopes(client: OAuthClientInformationFull, *, verified: bool) -> JupyterClient:
    """The SDK's record as ours, allowed to ask for every scope this server has (the user narrows them)."""
    return JupyterClient.model_validate({**client.model_dump(), "scope": " ".join(SCOPES), "verified": verified})


def _same_but_port(uri: AnyUrl, known: AnyUrl) -> bool:
    asked, registered = urlsplit(str(uri)), urlsplit(str(known))
    return (
        asked.scheme == registered.scheme == "http"
        and asked.hostname is not None
        and _host(asked.netloc) in _LOOPBACK
        and _host(asked.netloc) == _host(registered.netloc)
        and (asked.path, asked.query) == (registered.path, registered.query)
    )


def _host(netloc: str) -> str:
    return netloc.rsplit(":", 1)[0] if not netloc.endswith("]") else netloc
