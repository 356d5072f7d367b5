"""``<base_url>mcp/oauth/consent``: where the Jupyter user says what a client may do, or says no.

Behind Jupyter's own login (``@web.authenticated``: the login page, or JupyterHub's login through the
single-user server), authorized as running code is (a grant lets a client call tools that run code),
and its form carries Jupyter's XSRF token. The page shows who asks (the client's name, whether a
metadata document at its own URL vouches for it or it registered itself, the host it will send the
browser back to) and what for (the route); the user picks the notebooks (for the routes that span
notebooks), read-only or full access, the notebook tools' mode where the server has them, and for
how long. Allow sends the browser back to the client with a code, Deny with ``access_denied``.
The page may not be framed (``frame-ancestors 'none'``): a consent page in an iframe can be clicked
through.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.extension.handler import ExtensionHandlerMixin
from tornado import web

from jupyter_mcp.serverext.oauth.authority import Pending
from jupyter_mcp.serverext.oauth.signin import SignIn
from jupyter_mcp.serverext.oauth.store import Choices
from jupyter_mcp.serverext.oauth.urls import describe_route
from jupyter_mcp.serverext.union.live.scope import BadScope, Scope

AUTH_RESOURCE = "kernels"
AUTH_ACTION = "execute"  # a grant lets a client call tools, which run code in kernels

DURATIONS: dict[str, tuple[str, float | None]] = {
    "hour": ("1 hour", 3600.0),
    "day": ("1 day", 86400.0),
    "week": ("7 days", 7 * 86400.0),
    "month": ("30 days", 30 * 86400.0),
    "forever": ("Until I revoke it", None),
}
DEFAULT_DURATION = "month"
MAX_NOTEBOOKS_TEXT = 4000
"""What a grant's notebooks may add up to (they travel with each of its requests to the kernels)."""

_templates = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"), autoescape=select_autoescape(default=True)
)


MODE_LABELS = {
    "off": "None: no notebook tools",
    "read": "Read: list and read notebooks",
    "edit": "Edit: also edit and create notebooks",
    "run": "Run: also run cells",
}


@dataclass(frozen=True)
class NotebookToolModes:
    """The agent notebook tools' modes a grant may choose from (none: the server has no such tools)."""

    modes: Sequence[str] = ()
    default: str | None = None


class ConsentHandler(ExtensionHandlerMixin, JupyterHandler):
    """The consent page (GET) and the user's answer (POST)."""

    auth_resource = AUTH_RESOURCE

    def initialize(self, name: str, signin: SignIn, notebook_tools: Callable[[], NotebookToolModes]) -> None:
        super().initialize(name)
        self.signin = signin
        self.notebook_tools = notebook_tools

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header(
            "Content-Security-Policy",
            "frame-ancestors 'none'; default-src 'none'; style-src 'unsafe-inline'; img-src 'self'",
        )
        self.set_header("Cache-Control", "no-store")
        self.set_header(
            "Referrer-Policy", "same-origin"
        )  # no-referrer would send "Origin: null", which Jupyter refuses

    @web.authenticated
    @authorized(AUTH_ACTION, resource=AUTH_RESOURCE)
    def get(self) -> None:
        self._page(self._pending())

    @web.authenticated
    @authorized(AUTH_ACTION, resource=AUTH_RESOURCE)
    def post(self) -> None:
        pending = self._pending()
        authority = self.signin.authority
        if self.get_body_argument("decision", "") != "allow":
            self.redirect(authority.deny(pending.request_id))
            return
        try:
            choices = self._choices(pending)
        except BadScope as error:
            self.set_status(400)
            self._page(pending, error=str(error))
            return
        _, seconds = DURATIONS.get(self.get_body_argument("duration", DEFAULT_DURATION), DURATIONS[DEFAULT_DURATION])
        user = (_username(self.current_user), _display_name(self.current_user))
        self.redirect(authority.allow(pending.request_id, user, choices, seconds))

    def _pending(self) -> Pending:
        request_id = self.get_argument("auth_request", "")
        pending = self.signin.authority.pending(request_id)
        if pending is None:
            raise web.HTTPError(
                400, "This sign-in request has expired or was answered already: start again from your MCP client."
            )
        return pending

    def _choices(self, pending: Pending) -> Choices:
        notebooks: tuple[str, ...] = ()
        if _spans_notebooks(pending) and self.get_body_argument("notebooks", "all") == "some":
            listed = self.get_body_argument("notebook_paths", "")
            notebooks = Scope.parse("notebooks=" + listed.replace("&", "%26")).entries
            if not notebooks:
                raise BadScope("Name at least one notebook or folder, or choose all notebooks.")
            if len(",".join(notebooks)) > MAX_NOTEBOOKS_TEXT:
                raise BadScope(f"Name fewer notebooks (at most {MAX_NOTEBOOKS_TEXT} characters): folders hold many.")
        tools = self.notebook_tools()
        mode = self.get_body_argument("notebook_tools", tools.default or "") or None
        if tools.modes and mode not in tools.modes:
            raise BadScope(f"Notebook tools: choose one of {', '.join(tools.modes)}.")
        return Choices(self.get_body_argument("access", "full") == "read", notebooks, mode if tools.modes else None)

    def _page(self, pending: Pending, error: str = "") -> None:
        self.finish(_templates.get_template("consent.html").render(**self._context(pending, error)))

    def _context(self, pending: Pending, error: str) -> dict[str, Any]:
        client, site = pending.client, self.signin.site(self.request)
        return {
            "client": client,
            "route": describe_route(unquote(site.relative(_path(pending.params.resource or "")))),
            "resource": pending.params.resource,
            "spans_notebooks": _spans_notebooks(pending),
            "read_only_asked": pending.read_only_asked,
            "user": _display_name(self.current_user),
            "durations": DURATIONS,
            "default_duration": DEFAULT_DURATION,
            "notebook_tools": self.notebook_tools(),
            "mode_labels": MODE_LABELS,
            "request_id": pending.request_id,
            "xsrf_form_html": self.xsrf_form_html(),
            "error": error,
            "action": site.endpoint("consent"),
        }

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, web.HTTPError) and (error.log_message or error.reason):
            message = error.log_message or error.reason
        else:
            message = _phrase(status_code)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(_templates.get_template("consent_error.html").render(message=message, status=status_code))


def _phrase(status_code: int) -> str:
    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return "Error"


def _spans_notebooks(pending: Pending) -> bool:
    """The route reaches every notebook (``/mcp``, ``/mcp/scope/…``), so the grant may name some."""
    path = _path(pending.params.resource or "").rstrip("/")
    return path.endswith("/mcp") or "/mcp/scope/" in path


def _path(url: str) -> str:
    return urlsplit(url).path


def _username(user: Any) -> str:
    return str(getattr(user, "username", None) or user)


def _display_name(user: Any) -> str:
    return str(getattr(user, "display_name", None) or getattr(user, "name", None) or _username(user))
