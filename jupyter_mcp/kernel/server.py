"""``NotebookServer``: this kernel's tool server — registries, MCP protocol, HTTP thread, history.

One per kernel (``get_server()``). It starts with the first tool, resource or prompt, serves from a daemon thread
with its own event loop (so clients are answered while cells run) and records every call.
Observers of its lifecycle publish the discovery file that ``jupyter-mcp`` and the Jupyter server
extension find it by (``publishing.py``) and lower the GIL switch interval (``switch.py``).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import os
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import mcp_types as mt

from jupyter_mcp import discovery
from jupyter_mcp._version import __version__
from jupyter_mcp.adapters import ipykernel, jupyter_client
from jupyter_mcp.adapters.fastpaths import Adapter
from jupyter_mcp.clientconfig import Target, config_for, kernel_target, server_name
from jupyter_mcp.endpoints import Endpoint, channel_endpoint, channel_target
from jupyter_mcp.hubenv import BrowserPage, current_hub, hub_target
from jupyter_mcp.kernel.config import NotebookSettings, load_settings
from jupyter_mcp.kernel.keeping import KeptCalls, notebook_file
from jupyter_mcp.kernel.serving.callresult import CallResult
from jupyter_mcp.kernel.serving.capture import OutputCapture
from jupyter_mcp.kernel.serving.channel import KernelChannel, current_kernel
from jupyter_mcp.kernel.serving.logs import quiet_library_loggers
from jupyter_mcp.kernel.serving.mainthread import MainThreadExecutor
from jupyter_mcp.kernel.serving.publishing import DiscoveryPublisher
from jupyter_mcp.kernel.serving.summaries import prompt_summary, resource_summary, tool_summary
from jupyter_mcp.kernel.serving.switch import SwitchInterval
from jupyter_mcp.shapes.status import KernelCarrier, NotebookStatus
from jupyter_mcp.tokens import generate_token
from jupyter_mcp.tools.calls.history import CallHistory
from jupyter_mcp.tools.calls.path import NOTEBOOK
from jupyter_mcp.tools.components.registry import RegistryChange
from jupyter_mcp.tools.observers import Observers
from jupyter_mcp.tools.server import ToolServer
from jupyter_mcp.tools.transports.http.serving import BackgroundServer, Lifecycle, is_loopback
from jupyter_mcp.tools.transports.messages.apploop import AppLoop

if TYPE_CHECKING:
    from collections.abc import Iterable

    from jupyter_mcp.export import ExportResult
    from jupyter_mcp.widgets import ServerPanel

logger = logging.getLogger(__name__)

T = TypeVar("T")

_server: NotebookServer | None = None
_server_lock = threading.Lock()


def get_server() -> NotebookServer:
    """This kernel's ``NotebookServer``, created on first use (nothing listens until a tool exists)."""
    global _server  # noqa: PLW0603 - one server per kernel process
    with _server_lock:
        if _server is None:
            _server = NotebookServer()
        return _server


class NotebookServer(ToolServer):
    """The in-kernel MCP server. Re-registering a name replaces the tool (re-running a cell).

    Example::

        server = jupyter_mcp.get_server()

        @server.tool
        def add(a: int, b: int) -> int:
            '''Adds two integer numbers together.'''
            return a + b

        server.url, server.client_config("vscode")
        await server.call("add", {"a": 1, "b": 2})
    """

    settings: NotebookSettings

    def __init__(self, settings: NotebookSettings | None = None, **overrides: Any) -> None:
        quiet_library_loggers()  # from the first line on (the fast paths' verdict): to %mcp log, not into cells
        super().__init__("jupyter-mcp", settings=settings or load_settings(**overrides))
        self.kernel_id = _kernel_id()
        self.notebook_path = os.environ.get("JPY_SESSION_NAME") or None
        self.history = CallHistory(self.settings.history_size, self.settings.max_payload)
        self.add_call_observer(self.history)
        self.approvals.decisions.add(self.history.call_decided)
        self.kept = KeptCalls(notebook_file(self.notebook_path))
        self.history.subscribe(self.kept)
        self.capture = OutputCapture(self.history.write_output)
        self.calls.execution.hooks.append(self.capture.hook)
        self._main_loop = _main_thread_loop()
        if self._main_loop is not None:
            self.calls.execution.executors["main"] = MainThreadExecutor(self._main_loop, self.settings.main_thread_wait)
        self._runner: BackgroundServer | AppLoop | None = None
        self._channel: KernelChannel | None = None
        self._last_port: int | None = None
        self._token = self.settings.token or generate_token()
        self.started_at: float | None = None
        self._lifecycle = threading.RLock()
        self.lifecycle: Observers[Callable[[Lifecycle], None]] = Observers(__name__)
        self.lifecycle.add(SwitchInterval(lambda: self.settings.switch_interval))
        self.publisher = DiscoveryPublisher(self.kernel_id, self.describe)
        self.lifecycle.add(self.publisher)
        for registry in self.registries:
            registry.subscribe(self.publisher.publish)
            registry.subscribe(self._components_changed)
        self.clients_tracker.subscribe(self.publisher.publish)
        self.settings.on_change(self.publisher.setting_changed)
        atexit.register(self.stop)

    # ---- lifecycle -------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._runner is not None and self._runner.running

    def start(self, host: str | None = None, port: int | None = None) -> None:
        """Bind and serve (idempotent). Called implicitly when the first tool (resource, prompt) is registered."""
        with self._lifecycle:
            if self.running:
                return
            host = host or self.settings.host
            if not is_loopback(host) and not self.settings.allow_remote:
                raise PermissionError(
                    f"refusing to bind {host!r}: only loopback is allowed unless JupyterMCP.allow_remote is set "
                    "(the token is required either way)"
                )
            quiet_library_loggers()
            self.capture.install(self._main_loop)
            self._runner = self._bind(host, port)
            self._last_port = self._runner.port or self._last_port
            self._open_channel(self._runner)
            self.started_at = time.time()
            self.lifecycle.each(lambda observer: observer("started"))

    def _bind(self, host: str, port: int | None) -> BackgroundServer | AppLoop:
        app = self.protected_http_app(self._token, allowed_hosts=self._extra_hosts(host))
        if self.settings.transport == "kernel":
            if port:
                raise ValueError("transport='kernel' opens no port: leave the port out (or use transport='http')")
            serving = AppLoop(app)  # the app's lifespan on a loop of its own; no socket at all
            serving.start()
            return serving
        wanted = port if port is not None else (self.settings.port or self._last_port or 0)
        try:
            runner = BackgroundServer(app, host, wanted)
            runner.start()
        except OSError:
            if port is not None or self.settings.port:
                raise  # a pinned port is a promise; say it is taken
            # The previous port was taken meanwhile: any free port will do.
            runner = BackgroundServer(app, host, 0)
            runner.start()
        return runner

    def _open_channel(self, runner: BackgroundServer | AppLoop) -> None:
        """Answer the Jupyter server over the kernel's own messaging too (when this is an ipykernel)."""
        kernel = current_kernel()
        if kernel is None or runner.loop is None:
            return
        self._channel = KernelChannel(kernel, self.fast_paths_taken)
        self._channel.open(runner.app, runner.loop, self._hello)

    def _adapters(self) -> list[Adapter]:
        kernel = current_kernel()
        kernels = [ipykernel.adapter_for(kernel), jupyter_client.ADAPTER] if kernel is not None else []
        return [*super()._adapters(), *kernels]

    def _hello(self) -> dict[str, Any]:
        info = self.describe()
        return info.to_json() if info is not None else {}

    def stop(self) -> None:
        """Stop serving and remove the discovery file; tools stay registered."""
        with self._lifecycle:
            channel, self._channel = self._channel, None
            if channel is not None:
                channel.close()
            runner, self._runner = self._runner, None
            if runner is not None:
                runner.stop()
            self.capture.uninstall()  # the streams are as they were until serving starts again
            self.started_at = None
            self.lifecycle.each(lambda observer: observer("stopped"))

    def restart(self) -> None:
        """Stop and start again, on the same port and with the same token."""
        self.stop()
        self.start()

    def _extra_hosts(self, host: str) -> list[str]:
        return [] if is_loopback(host) else [host]

    # ---- addresses -------------------------------------------------------------------------------

    @property
    def token(self) -> str:
        return self._token

    @property
    def port(self) -> int | None:
        return self._runner.port if self._runner is not None else None

    @property
    def url(self) -> str | None:
        """The MCP endpoint (``None`` until the server starts)."""
        if self._runner is None or self._runner.port is None:
            return None
        host = self._runner.host
        host = f"[{host}]" if ":" in host and not host.startswith("[") else host
        return f"http://{host}:{self._runner.port}/mcp"

    def endpoint(self, page: BrowserPage | None = None) -> Endpoint | None:
        """Where clients connect (``None`` while not serving): this kernel's URL or, with ``transport="kernel"``,
        its notebook's route on the Jupyter server (exact once ``page``, the browser showing it, is known)."""
        url = self.url
        if url is not None:
            return Endpoint(url)
        return channel_endpoint(self.notebook_path, self.kernel_id, page) if self.transport == "kernel" else None

    def target(self, page: BrowserPage | None = None) -> Target:
        """Where clients connect: this kernel's own address (with ``transport="kernel"``, the Jupyter server's
        route to it), or under JupyterHub the hub's route to it (``page``, the browser showing the notebook,
        tells the hub's public address)."""
        hub = current_hub()
        if hub is not None:
            return hub_target(hub, self.notebook_path, self.kernel_id, page)
        if self.settings.transport == "kernel":
            route = channel_endpoint(self.notebook_path, self.kernel_id, page)
            return channel_target(route, server_name(self.notebook_path, self.kernel_id))
        url = self.url or "http://127.0.0.1:<port>/mcp"
        return kernel_target(url, self._token, self.notebook_path, self.kernel_id)

    def client_config(self, client: str = "claude", page: BrowserPage | None = None) -> dict[str, Any]:
        """Config for ``"claude"``, ``"vscode"``, ``"cursor"`` or ``"inspector"`` pointing at this kernel."""
        return config_for(client, self.target(page))

    # ---- calls -----------------------------------------------------------------------------------

    async def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> mt.CallToolResult:
        """Call a tool through the same path a client uses; the call lands in ``history``."""
        return CallResult.wrap(await self._on_server_loop(self.calls.call(name, arguments, NOTEBOOK)))

    async def read_resource(self, uri: str) -> mt.ReadResourceResult:
        """Read ``uri`` through the same path a client uses; the read lands in ``history``."""
        return await self._on_server_loop(self.calls.read_resource(uri, NOTEBOOK))

    async def get_prompt(self, name: str, arguments: Mapping[str, Any] | None = None) -> mt.GetPromptResult:
        """Get a prompt through the same path a client uses; the get lands in ``history``."""
        return await self._on_server_loop(self.calls.get_prompt(name, arguments, NOTEBOOK))

    async def _on_server_loop(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` where clients' requests run (async functions on the serving loop), when serving."""
        runner = self._runner
        if runner is None or runner.loop is None:
            return await work
        return await asyncio.wrap_future(runner.run_coroutine(work))

    def call_in_background(
        self, name: str, arguments: Mapping[str, Any] | None = None
    ) -> concurrent.futures.Future[mt.CallToolResult]:
        """Start a call from synchronous code (a widget callback); returns a concurrent Future."""
        return self._in_background(self.calls.call(name, arguments, NOTEBOOK))

    def read_in_background(self, uri: str) -> concurrent.futures.Future[mt.ReadResourceResult]:
        """Start a read of ``uri`` from synchronous code (a card's preview); recorded like a client's."""
        return self._in_background(self.calls.read_resource(uri, NOTEBOOK))

    def get_prompt_in_background(
        self, name: str, arguments: Mapping[str, Any] | None = None
    ) -> concurrent.futures.Future[mt.GetPromptResult]:
        """Start a prompt get from synchronous code (a card's try-it); recorded like a client's."""
        return self._in_background(self.calls.get_prompt(name, arguments, NOTEBOOK))

    def _in_background(self, work: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        if not self.running:
            self.start()
        assert self._runner is not None
        return self._runner.run_coroutine(work)

    # ---- lifecycle observers ---------------------------------------------------------------------

    def _components_changed(self, change: RegistryChange) -> None:
        if change.kind in ("added", "replaced") and not self.running:
            self.start()

    @property
    def transport(self) -> KernelCarrier | None:
        """How the Jupyter server reaches this server now: ``"http"``, ``"kernel"`` (``None`` while stopped)."""
        runner = self._runner
        if runner is None:
            return None
        return "kernel" if isinstance(runner, AppLoop) else "http"

    def describe(self) -> discovery.ServerInfo | None:
        """What the discovery file says about this server (``None`` while it is not serving)."""
        transport = self.transport
        if not self.running or transport is None:
            return None
        return discovery.ServerInfo(
            url=self.url or "",
            transport=transport,
            token=self._token,
            pid=os.getpid(),
            kernel_id=self.kernel_id,
            notebook_path=self.notebook_path,
            tools=[tool_summary(t, self.registry.is_visible(t)) for t in self.registry.all().values()],
            resources=[resource_summary(r, self.resource_registry.is_visible(r)) for r in self.resources.values()],
            prompts=[prompt_summary(p, self.prompt_registry.is_visible(p)) for p in self.prompts.values()],
            started=self.started_at or time.time(),
            version=__version__,
            clients=len(self.connected_clients()),
            calls=self.history.total_calls,
            admin_token=self.approvals.admin_token,
            name=self.settings.name or None,
        )

    def status(self) -> NotebookStatus:
        return {
            **super().status(),
            "kernel_id": self.kernel_id,
            "notebook_path": self.notebook_path,
            "url": self.url,
            "transport": self.transport,
            "started": self.started_at,
            "pid": os.getpid(),
        }

    def export(
        self,
        path: str | Path,
        *,
        keep: Iterable[int | str] | None = None,
        tagged: bool = False,
        dockerfile: bool = False,
        name: str | None = None,
        check: bool = True,
    ) -> ExportResult:
        """Write this notebook (as saved) as a standalone server project at ``path``, kept calls as tests.

        ``keep``: the calls to replay (history numbers or call ids) instead of the kept ones. The
        result's ``differences`` say where the export's tools/list differs from this server's.

        Example::

            server.export("analysis-server", tagged=True).summary()
        """
        from jupyter_mcp.kernel.exporting import export_session

        return export_session(
            self,
            self.kept,
            self.history,
            Path(path),
            keep=keep,
            tagged=tagged,
            dockerfile=dockerfile,
            name=name,
            check=check,
        )

    def panel(self) -> ServerPanel:
        """The status + history panel (a widget); what ``%mcp`` shows."""
        from jupyter_mcp.widgets import ServerPanel  # ipywidgets loads only when a panel is wanted

        return ServerPanel(self)


def _kernel_id() -> str:
    try:
        from ipykernel.connect import get_connection_file

        stem = Path(get_connection_file()).stem
    except (ImportError, RuntimeError, AttributeError):
        return f"pid-{os.getpid()}"
    return stem.removeprefix("kernel-")


def _main_thread_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's main-thread loop, when created from a cell (where it is running)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
