"""``GET /api/mcp/apps`` and ``DELETE /api/mcp/apps/<grant_id>``: the signed-in clients (Connected apps), and
revoking one (its tokens stop working at once: every request looks its token up)."""

from __future__ import annotations

import json

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.extension.handler import ExtensionHandlerMixin
from tornado import web

from jupyter_mcp.serverext.oauth.signin import SignIn
from jupyter_mcp.serverext.oauth.store import Grant
from jupyter_mcp.shapes.rest import AppEntry

AUTH_RESOURCE = "kernels"


def app_entry(grant: Grant) -> AppEntry:
    return {
        "grant_id": grant.grant_id,
        "client_name": grant.client_name,
        "client_id": grant.client_id,
        "verified": grant.verified,
        "redirect_host": grant.redirect_host,
        "user": grant.subject_name or grant.subject,
        "resource": grant.resource,
        "read_only": grant.choices.read_only,
        "notebooks": list(grant.choices.notebooks),
        "notebook_tools": grant.choices.notebook_tools,
        "created": grant.created,
        "expires_at": grant.expires_at,
        "last_used": grant.last_used,
    }


class _AppsBase(ExtensionHandlerMixin, APIHandler):
    auth_resource = AUTH_RESOURCE

    def initialize(self, name: str, signin: SignIn) -> None:
        super().initialize(name)
        self.signin = signin


class AppsHandler(_AppsBase):
    """Every client signed in with Jupyter here, newest first."""

    @web.authenticated
    @authorized("read", resource=AUTH_RESOURCE)
    def get(self) -> None:
        grants = sorted(self.signin.authority.grants(), key=lambda grant: grant.created, reverse=True)
        self.finish(json.dumps([app_entry(grant) for grant in grants]))


class AppHandler(_AppsBase):
    """One signed-in client: ``DELETE`` revokes it."""

    @web.authenticated
    @authorized("write", resource=AUTH_RESOURCE)
    def delete(self, grant_id: str) -> None:
        if not self.signin.authority.revoke(grant_id):
            raise web.HTTPError(
                404, "no signed-in app %s (revoked or expired already?)", grant_id, reason="Unknown app"
            )
        self.set_status(204)
        self.finish()
