"""A real JupyterHub on loopback for tests: dummy authenticator, local-process spawner, its own proxy.

The hub runs as a subprocess with ``configurable-http-proxy`` from tests/node; every user's
single-user server runs from this venv (so the server extension is there) with its own HOME, so
each user has their own Jupyter runtime directory — as on a real hub, where users are separate.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

from tests.harness import free_port

NODE_TOOLS = Path(__file__).resolve().parents[1] / "node"
PROXY = NODE_TOOLS / "node_modules" / ".bin" / "configurable-http-proxy"
BIN = Path(sys.executable).parent
ADMIN_SCOPES = ["admin:users", "admin:servers", "access:servers", "tokens", "list:users", "read:users"]
CONFIG = """
import json, pathlib
settings = json.loads(pathlib.Path(__file__).with_name("settings.json").read_text())
c.JupyterHub.bind_url = settings["url"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = settings["hub_port"]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{settings['proxy_api_port']}"
c.ConfigurableHTTPProxy.command = [settings["proxy"]]
c.ConfigurableHTTPProxy.should_start = True
c.JupyterHub.db_url = f"sqlite:///{settings['root']}/hub.sqlite"
c.JupyterHub.cookie_secret_file = f"{settings['root']}/cookie_secret"
c.JupyterHub.pid_file = f"{settings['root']}/hub.pid"
c.JupyterHub.cleanup_servers = True
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allowed_users = set(settings["users"])
c.Authenticator.admin_users = {settings["teacher"]}
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = settings["root"] + "/home/{username}"
c.Spawner.cmd = [settings["singleuser"]]
c.Spawner.args = settings["singleuser_args"]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {"PATH": settings["path"], "JUPYTER_MCP_TEST_HUB": "1"}
def _listen_where_picked(spawner):  # the test's pick, below the ephemeral range (tests.harness.free_port)
    spawner.port = settings["user_ports"][spawner.user.name]
c.Spawner.pre_spawn_hook = _listen_where_picked
c.JupyterHub.services = [{"name": "mcp-tests", "api_token": settings["admin_token"]}]
c.JupyterHub.load_roles = [{"name": "mcp-tests", "scopes": settings["admin_scopes"], "services": ["mcp-tests"]}]
"""


@dataclass
class Hub:
    """A running hub: ``url`` is its public address; ``admin_token`` belongs to a service with admin scopes."""

    root: Path
    users: tuple[str, ...]
    teacher: str = "teacher"
    admin_token: str = field(default_factory=lambda: os.urandom(16).hex())
    url: str = ""
    hub_port: int = 0
    proxy_api_port: int = 0
    process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120) -> Hub:
        self.url = f"http://127.0.0.1:{free_port()}"
        self.hub_port, self.proxy_api_port = free_port(), free_port()
        settings = {
            "url": self.url,
            "hub_port": self.hub_port,
            "proxy_api_port": self.proxy_api_port,
            "proxy": str(PROXY),
            "root": str(self.root),
            "users": [*self.users, self.teacher],
            "user_ports": {user: free_port() for user in (*self.users, self.teacher)},
            "teacher": self.teacher,
            "singleuser": str(BIN / "jupyterhub-singleuser"),
            "singleuser_args": ["--allow-root"] if os.getuid() == 0 else [],  # CI containers run as root
            "path": f"{BIN}:/usr/bin:/bin",
            "admin_token": self.admin_token,
            "admin_scopes": ADMIN_SCOPES,
        }
        (self.root / "settings.json").write_text(json.dumps(settings))
        (self.root / "jupyterhub_config.py").write_text(CONFIG)
        log = (self.root / "hub.log").open("wb")
        env = {**os.environ, "PATH": f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}"}
        self.process = subprocess.Popen(
            [str(BIN / "jupyterhub"), "-f", str(self.root / "jupyterhub_config.py")],
            cwd=self.root, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )  # fmt: skip
        try:
            self._wait(lambda: self.api("GET", "/hub/api/").status_code == 200, timeout, "the hub to answer")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.process is None:
            return
        with _suppress():
            for user in (*self.users, self.teacher):
                self.api("DELETE", f"/hub/api/users/{user}/server")
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self._stop_strays()

    def _stop_strays(self) -> None:
        """The proxy and the single-user servers run in sessions of their own (JupyterHub starts them so):
        a hub that died or was killed leaves them behind, so they are found and stopped here."""
        strays = [p for p in psutil.process_iter(["cmdline"]) if self._started_by_this_hub(p)]
        for process in strays:
            with contextlib.suppress(psutil.Error):
                process.terminate()
        _, alive = psutil.wait_procs(strays, timeout=10)
        for process in alive:
            with contextlib.suppress(psutil.Error):
                process.kill()

    def _started_by_this_hub(self, process: psutil.Process) -> bool:
        cmdline = " ".join(process.info["cmdline"] or [])
        if "configurable-http-proxy" in cmdline and str(self.proxy_api_port) in cmdline:
            return True
        try:
            api_url = process.environ().get("JUPYTERHUB_API_URL", "")
        except (psutil.Error, OSError):
            return False
        return f":{self.hub_port}/" in api_url

    def log(self) -> str:
        return (self.root / "hub.log").read_text(errors="replace")[-4000:]

    # ---- REST ------------------------------------------------------------------------------------

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"token {token or self.admin_token}"}
        return httpx.request(method, self.url + path, json=body, headers=headers, timeout=60)

    def spawn(self, user: str, timeout: float = 120) -> None:
        """Start ``user``'s single-user server and wait until the hub says it is ready."""
        reply = self.api("POST", f"/hub/api/users/{user}/server")
        assert reply.status_code in (201, 202, 400), reply.text  # 400: already running
        self._wait(lambda: self._ready(user), timeout, f"{user}'s server")

    def _ready(self, user: str) -> bool:
        servers = self.api("GET", f"/hub/api/users/{user}").json().get("servers", {})
        return bool(servers.get("", {}).get("ready"))

    def token(self, user: str, scopes: list[str] | None = None) -> str:
        """A new API token of ``user``'s (by default: access to their own server only)."""
        body = {"scopes": scopes or [f"access:servers!user={user}"], "note": "mcp tests", "expires_in": 3600}
        reply = self.api("POST", f"/hub/api/users/{user}/tokens", body)
        assert reply.status_code == 201, reply.text
        return str(reply.json()["token"])

    def home(self, user: str) -> Path:
        return self.root / "home" / user

    def user_url(self, user: str, *parts: str) -> str:
        return "/".join([f"{self.url}/user/{user}", *parts])

    def _wait(self, probe: Any, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError(f"the hub exited ({self.process.returncode}):\n{self.log()}")
            with _suppress():
                if probe():
                    return
            time.sleep(0.25)
        raise AssertionError(f"timed out waiting for {what}:\n{self.log()}")


class _suppress:
    """Ignore connection errors while something starts or stops."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> bool:
        return kind is not None and issubclass(kind, (httpx.HTTPError, OSError, ValueError, KeyError))
