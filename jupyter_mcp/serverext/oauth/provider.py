"""``JupyterOAuthProvider``: what the SDK's handlers (``mcp.server.auth.handlers``) ask of an authorization
server, answered by the ``Authority`` for one ``Site`` (the origin a client reached).

Two things the SDK's handlers cannot know are handed in by the endpoint through context variables:
the client secret presented on a token or revocation request (the store keeps only its digest, so
the client record is given the presented secret when its digest matches, for the SDK's constant-
time comparison), and the ``resource`` of a token request (RFC 8707: it must name the route the
code or refresh token was granted for).
"""

from __future__ import annotations

import contextvars
import hmac
import secrets
import time

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    RefreshToken,
    RegistrationError,
    TokenError,
)
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from jupyter_mcp.serverext.oauth.authority import Authority
from jupyter_mcp.serverext.oauth.clients import JupyterClient, with_our_scopes
from jupyter_mcp.serverext.oauth.documents import DocumentError, MetadataDocuments, is_document_url
from jupyter_mcp.serverext.oauth.store import Grant, digest
from jupyter_mcp.serverext.oauth.urls import CONSENT, Site, same_resource

presented_secret: contextvars.ContextVar[str | None] = contextvars.ContextVar("presented_secret", default=None)
"""The client secret a token or revocation request carries (set by the endpoint around the SDK's handler)."""
requested_resource: contextvars.ContextVar[str | None] = contextvars.ContextVar("requested_resource", default=None)
"""The ``resource`` a token request names, if any."""

_IDLE_REGISTRATION = 86400.0
"""Seconds a registration that never got a grant is kept."""
_MAX_REGISTRATIONS = 1000


class GrantCode(AuthorizationCode):
    grant_id: str


class GrantRefresh(RefreshToken):
    grant_id: str


class JupyterOAuthProvider:
    """The SDK's ``OAuthAuthorizationServerProvider`` for one site."""

    def __init__(
        self, authority: Authority, site: Site, documents: MetadataDocuments | None, registration: bool
    ) -> None:
        self.authority = authority
        self.site = site
        self.documents = documents
        self.registration = registration

    # ---- clients ---------------------------------------------------------------------------------

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        if is_document_url(client_id):
            return await self._described(client_id)
        found = self.authority.store.client(client_id)
        if found is None:
            return None
        metadata, secret_digest = found
        client = JupyterClient.model_validate(metadata)
        if secret_digest is None:
            return client
        presented = presented_secret.get()
        matches = presented is not None and hmac.compare_digest(digest(presented), secret_digest)
        # The SDK compares secrets itself: give it the presented one when it is right, a random one if not.
        return client.model_copy(update={"client_secret": presented if matches else secrets.token_hex(32)})

    async def _described(self, client_id: str) -> JupyterClient | None:
        if self.documents is None:
            return None
        try:
            return with_our_scopes(await self.documents.client(client_id), verified=True)
        except DocumentError as error:
            raise AuthorizeError("invalid_request", str(error)) from None

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        if not self.registration:
            raise RegistrationError("invalid_client_metadata", "dynamic client registration is turned off here")
        store = self.authority.store
        store.forget_idle_clients(older_than=time.time() - _IDLE_REGISTRATION, keep=_MAX_REGISTRATIONS)
        ours = with_our_scopes(client_info, verified=False)
        kept = ours.model_dump(mode="json", exclude={"client_secret", "verified"}, exclude_none=True)
        store.save_client(client_info.client_id, kept, client_info.client_secret)

    # ---- authorization -----------------------------------------------------------------------------

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        if params.resource is None:
            raise AuthorizeError("invalid_request", "name the MCP route in 'resource' (RFC 8707)")
        if not self.site.owns_resource(params.resource):
            raise AuthorizeError("invalid_target", f"{params.resource} is not an MCP route of this Jupyter server")
        ours = client if isinstance(client, JupyterClient) else with_our_scopes(client, verified=False)
        request_id = self.authority.wait(ours, params, self.site.issuer)
        return self.site.endpoint(CONSENT) + f"?auth_request={request_id}"

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> GrantCode | None:
        issued = self.authority.store.find(authorization_code, "code")
        if issued is None or issued.grant.client_id != client.client_id:
            return None
        if issued.spent:  # a code used twice: whoever holds its tokens may not be the client
            self.authority.revoke(issued.grant.grant_id)
            return None
        detail = issued.detail
        return GrantCode(
            code=authorization_code, scopes=issued.grant.scopes, expires_at=issued.expires_at,
            client_id=client.client_id, code_challenge=detail["challenge"], redirect_uri=detail["redirect_uri"],
            redirect_uri_provided_explicitly=detail["explicit"], resource=issued.grant.resource,
            subject=issued.grant.subject, grant_id=issued.grant.grant_id,
        )  # fmt: skip

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: GrantCode
    ) -> OAuthToken:
        grant = self._grant_for(authorization_code.grant_id, authorization_code.resource)
        if not self.authority.store.spend(authorization_code.code):
            raise TokenError("invalid_grant", "authorization code was already used")
        return self.authority.tokens(grant, grant.scopes)

    # ---- refresh -------------------------------------------------------------------------------------

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> GrantRefresh | None:
        issued = self.authority.store.find(refresh_token, "refresh")
        if issued is None or issued.grant.client_id != client.client_id:
            return None
        if issued.spent:  # a rotated refresh token used again: revoke (RFC 9700 §4.14.2)
            self.authority.revoke(issued.grant.grant_id)
            return None
        return GrantRefresh(
            token=refresh_token, client_id=client.client_id, scopes=list(issued.detail.get("scopes", [])),
            expires_at=int(issued.expires_at), resource=issued.grant.resource, subject=issued.grant.subject,
            grant_id=issued.grant.grant_id,
        )  # fmt: skip

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: GrantRefresh, scopes: list[str]
    ) -> OAuthToken:
        grant = self._grant_for(refresh_token.grant_id, refresh_token.resource)
        if not self.authority.store.spend(refresh_token.token):
            raise TokenError("invalid_grant", "refresh token was already used")
        return self.authority.tokens(grant, scopes)

    def _grant_for(self, grant_id: str, resource: str | None) -> Grant:
        grant = self.authority.store.grant(grant_id)
        if grant is None:
            raise TokenError("invalid_grant", "the grant was revoked or has expired")
        asked = requested_resource.get()
        if asked is not None and not same_resource(asked, resource or ""):
            raise TokenError("invalid_target", f"this grant is for {resource}, not {asked}")
        return grant

    # ---- access tokens and revocation ----------------------------------------------------------------

    async def load_access_token(self, token: str) -> AccessToken | None:
        return await self.authority.verify_token(token)

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        grant = getattr(token, "grant", None)
        grant_id = grant.grant_id if isinstance(grant, Grant) else getattr(token, "grant_id", None)
        if isinstance(grant_id, str):
            self.authority.revoke(grant_id)

    async def exchange_identity_assertion(self, client: OAuthClientInformationFull, params: object) -> OAuthToken:
        raise TokenError("unsupported_grant_type", "this server does not accept identity assertions")
