"""``MCPExtensionApp``: wires the proxy and REST handlers into a Jupyter server.

Routes (under the server's ``base_url``):

- ``/mcp`` (and ``/mcp/scope/<notebooks>``): every notebook's tools, resources and prompts as one MCP
  server, each name prefixed with its notebook's (``serverext/union``);
- ``/mcp/kernels/<kernel_id>`` and ``/mcp/notebooks/<path>``: MCP streamable HTTP, proxied to the
  kernel's in-kernel server with Jupyter's auth, on its loopback port or over the kernel's own
  channels (gateway kernels, ``JupyterMCP.transport = "kernel"``: ``carriers``);
- ``/api/mcp/servers``: live tool servers; ``/api/mcp/config?client=...[&notebook=...]``: client configs;
- ``/api/mcp/union``: the names clients of ``/mcp`` see; ``/api/mcp/limits``: a client's read-only limit there;
- ``/api/mcp/kernels/<kernel_id>/{approvals/<call_id>,pause,questions/<call_id>,limits}``: the notebook
  user's answers and switches, forwarded to the kernel with its admin token;
- ``/api/mcp/notebook-tools`` (and ``.../undo``): the notebook tools' modes and the agents at work (``notebooks``);
- ``/api/mcp/openapi.json``: the OpenAPI document of these REST routes;
- sign-in with Jupyter (``oauth``): ``/mcp/oauth/…`` (the authorization server: authorize, token,
  register, revoke, the consent page, its metadata), ``/.well-known/oauth-protected-resource/mcp…``
  (each MCP route's metadata) and ``/api/mcp/apps`` (the grants, for Connected apps).

The notebook tools (``jupyter_read``, ``jupyter_edit``, ``jupyter_run`` ...) are a tool server of the
extension's own, a member of ``/mcp`` beside the notebooks' (``serverext/notebooks``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_core.paths import jupyter_data_dir
from jupyter_server.extension.application import ExtensionApp
from traitlets import Bool, Enum, Float, Integer, TraitError, Unicode, observe, validate

from jupyter_mcp._version import __version__
from jupyter_mcp._wire.connections import ConnectionPool
from jupyter_mcp.serverext.api_handlers import (
    ApprovalHandler,
    ConfigHandler,
    LimitHandler,
    MissingRouteHandler,
    OpenAPIHandler,
    PauseHandler,
    QuestionHandler,
    ServersHandler,
)
from jupyter_mcp.serverext.carriers.registry import KERNEL_ACTIONS, Carriers, ChannelOptions
from jupyter_mcp.serverext.directory import ToolServerDirectory
from jupyter_mcp.serverext.notebooks.host import PREFIX as NOTEBOOK_TOOLS_PREFIX
from jupyter_mcp.serverext.notebooks.host import NotebookTools
from jupyter_mcp.serverext.notebooks.modes import CONFIRM_HELP, CONFIRMS, MODE_HELP, MODES, NotebookModes
from jupyter_mcp.serverext.notebooks.rest import NotebookToolsHandler, UndoHandler
from jupyter_mcp.serverext.oauth import endpoints
from jupyter_mcp.serverext.oauth.apps import AppHandler, AppsHandler
from jupyter_mcp.serverext.oauth.authority import Lifetimes
from jupyter_mcp.serverext.oauth.consent import ConsentHandler, NotebookToolModes
from jupyter_mcp.serverext.oauth.documents import MetadataDocuments
from jupyter_mcp.serverext.oauth.signin import SignIn
from jupyter_mcp.serverext.proxy import KernelProxyHandler, NotebookProxyHandler
from jupyter_mcp.serverext.services import Services
from jupyter_mcp.serverext.union.handler import UnionHandler
from jupyter_mcp.serverext.union.live.union import Union
from jupyter_mcp.serverext.union.rest import UnionInfoHandler, UnionLimitHandler


class MCPExtensionApp(ExtensionApp):
    """Serve notebooks' MCP tools through this Jupyter server (auth, TLS, base_url, a stable URL)."""

    name = "jupyter_mcp"
    version = __version__
    load_other_extensions = True

    connect_timeout = Float(5.0, help="Seconds to wait when connecting to a kernel's tool server.").tag(config=True)
    keepalive_interval = Float(
        15.0,
        help="Seconds an SSE response may stay silent before the proxy sends a keepalive comment (0: never).",
    ).tag(config=True)
    status_timeout = Float(
        2.0, help="Seconds /api/mcp/servers waits for each kernel's live status before using its discovery file."
    ).tag(config=True)
    max_idle_connections = Integer(
        8, help="Idle keep-alive connections kept open per kernel tool server (reused by later requests)."
    ).tag(config=True)
    idle_connection_timeout = Float(
        3.0, help="Seconds an idle connection is kept; below the kernel server's own keep-alive timeout (5 s)."
    ).tag(config=True)
    discovery_dir = Unicode(
        "", help="Directory of the kernels' jupyter-mcp-<kernel_id>.json files (default: the Jupyter runtime dir)."
    ).tag(config=True)
    public_url = Unicode(
        "",
        help="Scheme and host that clients use to reach this server, for /api/mcp/config "
        "(e.g. https://hub.example.org); default: the host of the request.",
    ).tag(config=True)
    config_includes_token = Bool(
        True, help="Whether /api/mcp/config embeds this server's token (else a placeholder to fill in)."
    ).tag(config=True)

    channel_timeout = Float(
        5.0, help="Seconds a kernel has to answer the kernel channel's control requests (and its hello)."
    ).tag(config=True)
    channel_watch_interval = Float(
        2.0,
        help="Seconds between checks, while requests over a kernel channel are under way, that the kernel "
        "still serves (a restart behind this server's back then fails them at once, with a clear error).",
    ).tag(config=True)
    channel_probe_interval = Float(
        10.0,
        help="Seconds /api/mcp/servers trusts that a kernel reached over its channel (a gateway's) serves no "
        "tools before asking it again; a request to a kernel's route always asks.",
    ).tag(config=True)

    channel_route = Enum(
        ["subshell", "control"],
        "subshell",
        help="Where kernel-channel requests go in a kernel with subshells (ipykernel 7): a subshell of the "
        "extension's own, or the control channel (kernels without subshells always get the control channel).",
    ).tag(config=True)

    union_interval = Float(
        0.5,
        help="Seconds between looks at which notebooks serve tools, for <base_url>/mcp (kernels that stop are "
        "noticed at once; this is for those that start).",
    ).tag(config=True)

    notebook_tools = Enum(list(MODES), "read", help=MODE_HELP).tag(config=True)
    notebook_tools_confirm = Enum(list(CONFIRMS), "edits_and_runs", help=CONFIRM_HELP).tag(config=True)

    @observe("notebook_tools", "notebook_tools_confirm")
    def _modes_changed(self, change: Any) -> None:
        modes: NotebookModes | None = getattr(self, "modes", None)
        if modes is not None:
            modes.set(mode=self.notebook_tools, confirm=self.notebook_tools_confirm)

    oauth = Bool(
        True,
        help="Offer sign-in with Jupyter on the MCP routes: a client that knows only the URL gets a 401 that starts "
        "the MCP authorization flow (OAuth 2.1), the user allows it on a consent page behind Jupyter's login, and "
        "the client gets tokens for that route alone. Needs HTTPS, except on loopback. The Jupyter token and hub "
        "API tokens work the same either way.",
    ).tag(config=True)
    oauth_store = Unicode(
        "",
        help="SQLite file where sign-in keeps registrations, grants and the digests of codes and tokens (default: "
        "jupyter_mcp/oauth.sqlite in the Jupyter data dir, which is per user under JupyterHub).",
    ).tag(config=True)
    oauth_access_token_lifetime = Float(
        3600.0, help="Seconds a signed-in client's access token is good for (it gets a new one with its refresh token)."
    ).tag(config=True)
    oauth_refresh_token_lifetime = Float(
        30 * 86400.0,
        help="Seconds a refresh token may lie unused (each use replaces it); never beyond what the user chose on the "
        "consent page.",
    ).tag(config=True)
    oauth_dynamic_registration = Bool(
        True, help="Let clients register themselves (RFC 7591); the consent page says their names are unverified."
    ).tag(config=True)
    oauth_client_metadata_documents = Bool(
        True,
        help="Accept clients whose client_id is the https URL of their metadata document (fetched by this server; "
        "the consent page shows them as verified by that host).",
    ).tag(config=True)
    oauth_client_metadata_private_addresses = Bool(
        False,
        help="Fetch client metadata documents from loopback and private addresses too (an intranet's clients). Off: "
        "public addresses only, so a client_id cannot make this server reach into its own network.",
    ).tag(config=True)
    oauth_client_metadata_ca_file = Unicode(
        "", help="CA bundle (PEM file) to verify the hosts of client metadata documents with (default: the system's)."
    ).tag(config=True)

    @validate("oauth_access_token_lifetime", "oauth_refresh_token_lifetime")
    def _positive(self, proposal: Any) -> float:
        if proposal["value"] <= 0:
            raise TraitError(f"{proposal['trait'].name} must be a positive number of seconds")
        return float(proposal["value"])

    def initialize_settings(self) -> None:
        assert self.serverapp is not None
        pool = ConnectionPool(
            connect_timeout=self.connect_timeout,
            max_idle=self.max_idle_connections,
            idle_timeout=self.idle_connection_timeout,
        )
        options = ChannelOptions(
            self.channel_timeout, self.channel_watch_interval, self.channel_probe_interval, self.channel_route
        )
        carriers = Carriers(self.serverapp.kernel_manager, pool, options)
        if self.serverapp.event_logger is not None:
            self.serverapp.event_logger.add_listener(schema_id=KERNEL_ACTIONS, listener=carriers.kernel_action)
        directory = ToolServerDirectory(
            self.serverapp.kernel_manager,
            self.serverapp.session_manager,
            carriers,
            Path(self.discovery_dir) if self.discovery_dir else None,
        )
        union = Union(directory, interval=self.union_interval)
        self.modes = NotebookModes(self.notebook_tools, self.notebook_tools_confirm)
        self.notebooks = NotebookTools(self.serverapp, self.modes, union.serving)
        directory.in_process.append(self.notebooks.located)
        directory.reserved[NOTEBOOK_TOOLS_PREFIX] = "the notebook tools"  # stable names, the tools on or off
        self.modes.listeners.append(lambda modes: union.refresh())
        if self.serverapp.event_logger is not None:
            self.serverapp.event_logger.add_listener(
                schema_id=KERNEL_ACTIONS, listener=self.notebooks.kernels.kernel_action
            )
        self.services = Services(
            directory=directory,
            pool=pool,
            carriers=carriers,
            keepalive_interval=self.keepalive_interval,
            status_timeout=self.status_timeout,
            public_url=self.public_url,
            config_includes_token=self.config_includes_token,
            union=union,
            signin=self._sign_in() if self.oauth else None,
        )

    def _sign_in(self) -> SignIn:
        assert self.serverapp is not None
        store = (
            Path(self.oauth_store) if self.oauth_store else Path(jupyter_data_dir()) / "jupyter_mcp" / "oauth.sqlite"
        )
        documents = MetadataDocuments(
            private_addresses=self.oauth_client_metadata_private_addresses, ca_file=self.oauth_client_metadata_ca_file
        )
        return SignIn(
            store,
            base_url=self.serverapp.base_url,
            public_url=self.public_url,
            lifetimes=Lifetimes(self.oauth_access_token_lifetime, self.oauth_refresh_token_lifetime),
            registration=self.oauth_dynamic_registration,
            documents=documents if self.oauth_client_metadata_documents else None,
        )

    def notebook_tool_modes(self) -> NotebookToolModes:
        """The notebook tools' modes a consent may choose: up to the server's own now (``notebook_tools``, which
        the sidebar may change; a grant never gets more than the server allows at the time of a call)."""
        current = self.modes.mode
        allowed = MODES[: MODES.index(current) + 1]
        return NotebookToolModes(allowed, current) if len(allowed) > 1 else NotebookToolModes()

    def initialize_handlers(self) -> None:
        options: dict[str, Any] = {"services": self.services}
        self.handlers.extend(self._sign_in_handlers())
        self.handlers.extend(
            [
                (r"/mcp/?", UnionHandler, options),
                (r"/mcp/scope/(?P<scope>.+)", UnionHandler, options),
                (r"/mcp/kernels/(?P<kernel_id>[^/]+)/?", KernelProxyHandler, options),
                (r"/mcp/notebooks/(?P<path>.+)", NotebookProxyHandler, options),
                (r"/api/mcp/servers/?", ServersHandler, options),
                (r"/api/mcp/config/?", ConfigHandler, options),
                (r"/api/mcp/union/?", UnionInfoHandler, options),
                (r"/api/mcp/limits/?", UnionLimitHandler, options),
                (r"/api/mcp/kernels/(?P<kernel_id>[^/]+)/approvals/(?P<call_id>[^/]+)/?", ApprovalHandler, options),
                (r"/api/mcp/kernels/(?P<kernel_id>[^/]+)/pause/?", PauseHandler, options),
                (r"/api/mcp/kernels/(?P<kernel_id>[^/]+)/questions/(?P<call_id>[^/]+)/?", QuestionHandler, options),
                (r"/api/mcp/kernels/(?P<kernel_id>[^/]+)/limits/?", LimitHandler, options),
                (r"/api/mcp/notebook-tools/?", NotebookToolsHandler, {"notebooks": self.notebooks}),
                (r"/api/mcp/notebook-tools/undo/?", UndoHandler, {"notebooks": self.notebooks}),
                (r"/api/mcp/openapi.json", OpenAPIHandler, options),
                (r"/api/mcp/.*", MissingRouteHandler, options),
            ]
        )

    def _sign_in_handlers(self) -> list[tuple[str, Any, dict[str, Any]]]:
        """The flow's routes below the base URL; its discovery places at the origin's root go to the web app."""
        signin = self.services.signin
        if signin is None:
            return []
        below, root = endpoints.handlers(signin)
        assert self.serverapp is not None
        rules = [(path, kind, {"name": self.name, **kw}) for path, kind, kw in root]
        self.serverapp.web_app.add_handlers(".*$", rules)  # type: ignore[no-untyped-call]
        apps = {"signin": signin}
        return [
            *below,
            (r"/mcp/oauth/consent", ConsentHandler, {"signin": signin, "notebook_tools": self.notebook_tool_modes}),
            (r"/api/mcp/apps/?", AppsHandler, apps),
            (r"/api/mcp/apps/(?P<grant_id>[^/]+)/?", AppHandler, apps),
        ]

    async def stop_extension(self) -> None:
        if self.services.signin is not None:
            self.services.signin.close()
        await self.notebooks.close()
        self.services.union.stop()
        self.services.carriers.close()
        self.services.pool.close()
