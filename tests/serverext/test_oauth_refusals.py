"""Sign-in with Jupyter refuses what it must, each time with a clear OAuth error and nothing granted: no PKCE,
a wrong verifier, a reused code, an unregistered redirect URI, a token for another route, an expired, revoked
or forged token, a consent without XSRF, an open redirect. Spoken at the HTTP level, as a hostile client would."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import httpx2
import pytest

from tests.oauth import Consent, challenge_fields

REDIRECT = "http://127.0.0.1:9/callback"
INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}  # fmt: skip
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


@dataclass
class RawClient:
    """A client registered by RFC 7591, driving the flow by hand."""

    http: httpx2.AsyncClient
    server_url: str
    client_id: str = ""
    client_secret: str = ""

    @property
    def issuer(self) -> str:
        return f"{self.server_url}mcp/oauth"

    async def register(self, redirect_uris: list[str] | None = None) -> None:
        body = {"client_name": "Raw client", "redirect_uris": redirect_uris or [REDIRECT]}
        reply = await self.http.post(f"{self.issuer}/register", json=body)
        assert reply.status_code == 201, reply.text
        registered = reply.json()
        self.client_id, self.client_secret = registered["client_id"], registered["client_secret"]

    def authorization_url(self, challenge: str | None, route: str = "mcp", **extra: str) -> str:
        query = {"response_type": "code", "client_id": self.client_id, "redirect_uri": REDIRECT, "state": "s1",
                 "resource": f"{self.server_url}{route}"}  # fmt: skip
        if challenge is not None:
            query |= {"code_challenge": challenge, "code_challenge_method": "S256"}
        query |= extra
        return f"{self.issuer}/authorize?{urlencode(query)}"

    async def code(self, token: str, route: str = "mcp", **form: str) -> tuple[str, str]:
        """A code (and its verifier) through the consent page, allowed by the Jupyter user."""
        verifier = secrets.token_urlsafe(48)
        location = await Consent(token, dict(form)).visit(self.authorization_url(_challenge(verifier), route))
        return parse_qs(urlsplit(location).query)["code"][0], verifier

    async def exchange(self, code: str, verifier: str, **extra: str) -> httpx2.Response:
        form = {"grant_type": "authorization_code", "code": code, "code_verifier": verifier, "redirect_uri": REDIRECT,
                "client_id": self.client_id, "client_secret": self.client_secret, **extra}  # fmt: skip
        return await self.http.post(f"{self.issuer}/token", data=form)

    async def refresh(self, refresh_token: str) -> httpx2.Response:
        form = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": self.client_id,
                "client_secret": self.client_secret}  # fmt: skip
        return await self.http.post(f"{self.issuer}/token", data=form)

    async def tokens(self, token: str, route: str = "mcp", **form: str) -> dict[str, Any]:
        code, verifier = await self.code(token, route, **form)
        reply = await self.exchange(code, verifier)
        assert reply.status_code == 200, reply.text
        return dict(reply.json())

    async def call(self, access_token: str, route: str = "mcp") -> httpx2.Response:
        headers = {**MCP_HEADERS, "Authorization": f"Bearer {access_token}"}
        return await self.http.post(f"{self.server_url}{route}", json=INITIALIZE, headers=headers)


def _challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


@pytest.fixture
async def raw(server_url: str, jp_fetch: Any) -> AsyncIterator[RawClient]:
    """(``jp_fetch``: the Jupyter server listens only once something asks for its HTTP client.)"""
    async with httpx2.AsyncClient(timeout=30) as http:
        client = RawClient(http, server_url)
        await client.register()
        yield client


def grants(jp_serverapp: Any) -> list[Any]:
    return list(jp_serverapp.extension_manager.extension_points["jupyter_mcp"].app.services.signin.authority.grants())


def assert_refused(reply: httpx2.Response, error: str, words: str = "") -> None:
    assert reply.status_code in (400, 401), reply.text
    body = reply.json()
    assert body["error"] == error, body
    assert words in body.get("error_description", ""), body


async def test_a_token_works_on_its_route_only(raw: RawClient, jupyter_token: str, notebook: Any) -> None:
    tokens = await raw.tokens(jupyter_token)
    assert (await raw.call(tokens["access_token"])).status_code == 200
    for other in ("mcp/scope/ops/", f"mcp/kernels/{notebook.kernel_id}"):
        refused = await raw.call(tokens["access_token"], other)
        assert refused.status_code == 401, other
        assert challenge_fields(refused.headers["WWW-Authenticate"])["error"] == "invalid_token"
    # and a token request naming another route than the grant's
    code, verifier = await raw.code(jupyter_token)
    assert_refused(await raw.exchange(code, verifier, resource=f"{raw.server_url}mcp/scope/ops/"), "invalid_target")


async def test_no_pkce_or_plain_pkce_is_refused_before_any_consent(raw: RawClient, jp_serverapp: Any) -> None:
    for url in (raw.authorization_url(None), raw.authorization_url("x" * 43, code_challenge_method="plain")):
        sent = await raw.http.get(url)
        assert sent.status_code == 302
        location = sent.headers["Location"]
        assert location.startswith(REDIRECT)  # a valid client and redirect URI: the error goes back to the client
        query = parse_qs(urlsplit(location).query)
        assert query["error"] == ["invalid_request"]
        assert "code_challenge" in query["error_description"][0]
    assert grants(jp_serverapp) == []


async def test_a_wrong_verifier_and_a_reused_code_get_invalid_grant_and_the_reuse_revokes(
    raw: RawClient, jupyter_token: str, jp_serverapp: Any
) -> None:
    code, verifier = await raw.code(jupyter_token)
    assert_refused(await raw.exchange(code, "w" * 64), "invalid_grant", "incorrect code_verifier")
    first = await raw.exchange(code, verifier)
    assert first.status_code == 200
    assert_refused(await raw.exchange(code, verifier), "invalid_grant")
    # a code used twice may be in a thief's hands: what it bought stops working
    assert (await raw.call(first.json()["access_token"])).status_code == 401
    assert grants(jp_serverapp) == []


async def test_refresh_rotates_and_a_rotated_refresh_token_used_again_revokes(
    raw: RawClient, jupyter_token: str
) -> None:
    tokens = await raw.tokens(jupyter_token)
    renewed = await raw.refresh(tokens["refresh_token"])
    assert renewed.status_code == 200
    fresh = renewed.json()
    assert fresh["refresh_token"] != tokens["refresh_token"]
    assert (await raw.call(fresh["access_token"])).status_code == 200
    assert_refused(await raw.refresh(tokens["refresh_token"]), "invalid_grant")
    assert (await raw.call(fresh["access_token"])).status_code == 401


async def test_an_unregistered_redirect_uri_is_never_redirected_to(raw: RawClient, jp_serverapp: Any) -> None:
    for target in (
        "https://evil.example/steal",
        "http://127.0.0.1:9/other",
        "http://127.0.0.1.evil.example:9/callback",
    ):
        url = raw.authorization_url("c" * 43).replace(
            urlencode({"redirect_uri": REDIRECT}), urlencode({"redirect_uri": target})
        )
        sent = await raw.http.get(url)
        assert sent.status_code == 400, target
        assert "Location" not in sent.headers
        assert sent.json()["error"] == "invalid_request"
        assert "not registered" in sent.json()["error_description"]
    # an unknown client: no redirect either
    sent = await raw.http.get(raw.authorization_url("c" * 43).replace(raw.client_id, "nobody"))
    assert (sent.status_code, "Location" in sent.headers) == (400, False)
    assert grants(jp_serverapp) == []


async def test_a_resource_that_is_not_one_of_our_routes_is_invalid_target(raw: RawClient) -> None:
    for resource in (
        "https://elsewhere.example/mcp",
        f"{raw.server_url}api/contents",
        f"{raw.server_url}mcp/oauth/token",
    ):
        url = raw.authorization_url("c" * 43)
        url = url.replace(urlencode({"resource": f"{raw.server_url}mcp"}), urlencode({"resource": resource}))
        location = (await raw.http.get(url)).headers["Location"]
        assert parse_qs(urlsplit(location).query)["error"] == ["invalid_target"], resource


async def test_unknown_scopes_are_ignored_and_mcp_read_alone_asks_for_read_only(
    raw: RawClient, jupyter_token: str
) -> None:
    url = raw.authorization_url(_challenge("v" * 64), scope="openid offline_access mcp:read")
    consent = Consent(jupyter_token, {"decision": "deny"})
    await consent.visit(url)
    assert 'name="access" value="read" checked' in consent.pages[0]


@pytest.fixture
def mcp_settings(request: pytest.FixtureRequest) -> dict[str, Any]:
    return dict(getattr(request, "param", {}))


@pytest.mark.parametrize("mcp_settings", [{"oauth_access_token_lifetime": 2.0}], indirect=True)
async def test_expired_revoked_and_forged_tokens_get_401(
    raw: RawClient, jupyter_token: str, jp_fetch: Any, jp_serverapp: Any
) -> None:
    short = await raw.tokens(jupyter_token)
    assert short["expires_in"] <= 2
    assert (await raw.call(short["access_token"])).status_code == 200
    await asyncio.sleep(2.5)
    assert (await raw.call(short["access_token"])).status_code == 401
    # RFC 7009 revocation by the client
    tokens = await raw.tokens(jupyter_token)
    form = {"token": tokens["access_token"], "client_id": raw.client_id, "client_secret": raw.client_secret}
    assert (await raw.http.post(f"{raw.issuer}/revoke", data=form)).status_code == 200
    assert (await raw.call(tokens["access_token"])).status_code == 401
    assert_refused(await raw.refresh(tokens["refresh_token"]), "invalid_grant")
    # revoked by the user (Connected apps)
    tokens = await raw.tokens(jupyter_token)
    newest = max(grants(jp_serverapp), key=lambda grant: grant.created)
    await jp_fetch("api", "mcp", "apps", newest.grant_id, method="DELETE")
    assert (await raw.call(tokens["access_token"])).status_code == 401
    # forged: our prefix, no such token; and no prefix at all (Jupyter's business: a wrong token is 403)
    assert (await raw.call("jmcp_at_" + secrets.token_urlsafe(32))).status_code == 401
    assert (await raw.call(secrets.token_urlsafe(32))).status_code == 403


async def test_a_consent_post_without_xsrf_grants_nothing(
    raw: RawClient, jupyter_token: str, server_url: str, jp_serverapp: Any
) -> None:
    async with httpx2.AsyncClient(timeout=30) as browser:  # a browser with Jupyter's login cookie
        login = await browser.get(f"{server_url}login?token={jupyter_token}")
        assert login.status_code in (200, 302)
        sent = await browser.get(raw.authorization_url(_challenge("v" * 64)))
        consent_url = urljoin(str(sent.url), sent.headers["Location"])
        page = await browser.get(consent_url)
        assert page.status_code == 200
        request_id = parse_qs(urlsplit(consent_url).query)["auth_request"][0]
        forged = await browser.post(consent_url, data={"auth_request": request_id, "decision": "allow"})
        assert forged.status_code == 403
        assert "Location" not in forged.headers
        assert grants(jp_serverapp) == []
        # the page's own form (with its _xsrf field) works
        xsrf = page.text.split('name="_xsrf" value="')[1].split('"')[0]
        allowed = await browser.post(consent_url, data={"auth_request": request_id, "decision": "allow", "_xsrf": xsrf})
        assert allowed.status_code == 302
        assert allowed.headers["Location"].startswith(REDIRECT + "?code=")


async def test_deny_sends_access_denied_and_the_request_cannot_be_answered_twice(
    raw: RawClient, jupyter_token: str, jp_serverapp: Any
) -> None:
    consent = Consent(jupyter_token, {"decision": "deny"})
    location = await consent.visit(raw.authorization_url(_challenge("v" * 64)))
    query = parse_qs(urlsplit(location).query)
    assert location.startswith(REDIRECT)
    assert (query["error"], query["state"]) == (["access_denied"], ["s1"])
    assert grants(jp_serverapp) == []
    # the pending request is gone: a second answer (allow, this time) finds nothing
    request_id = consent.pages[0].split('name="auth_request" value="')[1].split('"')[0]
    again = await raw.http.post(
        f"{raw.issuer}/consent", data={"auth_request": request_id, "decision": "allow"},
        headers={"Authorization": f"token {jupyter_token}"},
    )  # fmt: skip
    assert again.status_code == 400
    assert "expired or was answered already" in again.text


async def test_the_store_holds_no_secret_and_no_log_line_holds_one(
    raw: RawClient, jupyter_token: str, jp_serverapp: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")
    code, verifier = await raw.code(jupyter_token)
    tokens = (await raw.exchange(code, verifier)).json()
    await raw.call(tokens["access_token"])
    store = jp_serverapp.extension_manager.extension_points["jupyter_mcp"].app.services.signin.authority.store
    on_disk = b"".join(path.read_bytes() for path in store.path.parent.glob(store.path.name + "*"))
    server_side = "\n".join(
        record.getMessage() for record in caplog.records if not record.name.startswith(("httpx", "httpcore"))
    )  # (the test's own HTTP client logs what it receives, as any client's debug log would)
    for secret in (code, tokens["access_token"], tokens["refresh_token"], raw.client_secret):
        assert secret.encode() not in on_disk
        assert secret not in server_side
    assert oct(store.path.stat().st_mode & 0o777) == "0o600"
    assert json.dumps(tokens)  # (a plain JSON answer, Cache-Control: no-store checked by the SDK's own tests)
