"""``Authority``: the authorization server's state and rules, whoever asks (the SDK's handlers through the
provider, the consent page, the MCP routes' bearer check, the Connected apps API).

A flow, from its side: a client's authorization request waits here (``Pending``, in memory for
``PENDING_SECONDS``) while the user looks at the consent page; Allow makes a ``Grant`` (the user's
choices) and a one-time code bound to the request's PKCE challenge, redirect URI and resource;
the code buys an access token (short-lived) and a refresh token (rotated on each use); revoking
ends the grant and every secret issued for it. A spent code or refresh token presented again is a
replay: its grant is revoked (RFC 9700 §4.14).
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from mcp.server.auth.provider import AccessToken, AuthorizationParams, construct_redirect_uri
from mcp.shared.auth import OAuthToken

from jupyter_mcp.serverext.oauth.clients import JupyterClient
from jupyter_mcp.serverext.oauth.store import READ_SCOPE, WRITE_SCOPE, Choices, Grant, Store, scopes_of

PENDING_SECONDS = 600.0
"""How long an authorization request waits for the user's answer on the consent page."""
CODE_SECONDS = 300.0
_MAX_PENDING = 200
_TOUCH_EVERY = 60.0
"""A grant's last use is written at most this often (a call is a read, not a write)."""


@dataclass(frozen=True)
class Lifetimes:
    access: float = 3600.0
    refresh: float = 30 * 86400.0


@dataclass(frozen=True)
class Pending:
    """An authorization request waiting on the consent page."""

    request_id: str
    client: JupyterClient
    params: AuthorizationParams
    issuer: str
    created: float

    @property
    def read_only_asked(self) -> bool:
        """The client asked only for ``mcp:read``."""
        asked = set(self.params.scopes or ())
        return bool(asked) and WRITE_SCOPE not in asked and READ_SCOPE in asked


class GrantedToken(AccessToken):
    """An access token with the grant it was issued for."""

    grant: Grant


class Authority:
    """Grants, codes and tokens (in ``store``), and the requests waiting for the user."""

    def __init__(self, store: Store, lifetimes: Lifetimes | None = None) -> None:
        self.store = store
        self.lifetimes = lifetimes or Lifetimes()
        self._pending: OrderedDict[str, Pending] = OrderedDict()

    # ---- waiting for the user --------------------------------------------------------------------

    def wait(self, client: JupyterClient, params: AuthorizationParams, issuer: str) -> str:
        """Hold an authorization request for the consent page; its id (unguessable: it names the request)."""
        now = time.time()
        self._drop_stale(now)
        request_id = secrets.token_urlsafe(24)
        self._pending[request_id] = Pending(request_id, client, params, issuer, now)
        while len(self._pending) > _MAX_PENDING:
            self._pending.popitem(last=False)
        return request_id

    def pending(self, request_id: str) -> Pending | None:
        self._drop_stale(time.time())
        return self._pending.get(request_id)

    def _drop_stale(self, now: float) -> None:
        for request_id in [key for key, item in self._pending.items() if now - item.created > PENDING_SECONDS]:
            del self._pending[request_id]

    def allow(self, request_id: str, subject: tuple[str, str], choices: Choices, duration: float | None) -> str:
        """The user (``subject``: username, display name) said Allow: a grant, a code, and where to send the
        browser (the client's redirect URI)."""
        pending = self._take(request_id)
        now = time.time()
        client, params = pending.client, pending.params
        grant = Grant(
            grant_id=secrets.token_urlsafe(16), client_id=client.client_id, client_name=client.display_name,
            verified=client.verified, redirect_host=urlsplit(str(params.redirect_uri)).netloc, subject=subject[0],
            resource=params.resource or "", choices=choices, created=now,
            expires_at=now + duration if duration is not None else None, subject_name=subject[1],
        )  # fmt: skip
        self.store.add_grant(grant)
        detail = {
            "challenge": params.code_challenge,
            "redirect_uri": str(params.redirect_uri),
            "explicit": params.redirect_uri_provided_explicitly,
        }
        code = self.store.issue("code", grant.grant_id, min(now + CODE_SECONDS, _end(grant, now)), detail)
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, iss=pending.issuer)

    def deny(self, request_id: str) -> str:
        """The user said Deny: where to send the browser (the client's redirect URI, with ``access_denied``)."""
        pending = self._take(request_id)
        return construct_redirect_uri(
            str(pending.params.redirect_uri), error="access_denied", state=pending.params.state,
            error_description="The Jupyter user denied the request", iss=pending.issuer,
        )  # fmt: skip

    def _take(self, request_id: str) -> Pending:
        pending = self.pending(request_id)
        if pending is None:
            raise KeyError(request_id)
        del self._pending[request_id]
        return pending

    # ---- tokens ----------------------------------------------------------------------------------

    def tokens(self, grant: Grant, scopes: list[str]) -> OAuthToken:
        """A new access token and refresh token for ``grant`` (``scopes``: at most the grant's)."""
        now = time.time()
        end = _end(grant, now)
        access_until = min(now + self.lifetimes.access, end)
        access = self.store.issue("access", grant.grant_id, access_until, {"scopes": scopes})
        refresh = self.store.issue(
            "refresh", grant.grant_id, min(now + self.lifetimes.refresh, end), {"scopes": scopes}
        )
        return OAuthToken(
            access_token=access,
            expires_in=max(1, int(access_until - now)),
            scope=" ".join(scopes),
            refresh_token=refresh,
        )

    async def verify_token(self, token: str) -> GrantedToken | None:
        """The SDK's ``TokenVerifier``: the access token's grant, if it is in force (its last use noted)."""
        issued = self.store.find(token, "access")
        if issued is None or issued.spent:
            return None
        grant = issued.grant
        now = time.time()
        if grant.last_used is None or now - grant.last_used > _TOUCH_EVERY:
            self.store.used(grant.grant_id, now)
            grant = replace(grant, last_used=now)
        scopes = list(issued.detail.get("scopes", grant.scopes))
        return GrantedToken(
            token=token, client_id=grant.client_id, scopes=scopes, expires_at=int(issued.expires_at),
            resource=grant.resource, subject=grant.subject, grant=grant,
        )  # fmt: skip

    def grants(self) -> list[Grant]:
        return self.store.grants()

    def revoke(self, grant_id: str) -> bool:
        return self.store.revoke(grant_id)


def _end(grant: Grant, now: float) -> float:
    return grant.expires_at if grant.expires_at is not None else now + 10 * 365 * 86400.0


__all__ = ["Authority", "Choices", "GrantedToken", "Lifetimes", "Pending", "scopes_of"]
