"""What checking a signed-in client's bearer token adds to a tool call, against Jupyter's own token.

A real Jupyter server (a subprocess, as ``bench_proxy`` starts it) serves one notebook's trivial tool.
A client registers, is allowed on the consent page (the Jupyter token stands in for the browser's
login) and gets an access token for the kernel's route. Then, in each era, pre-encoded ``tools/call``
POSTs go to that route on kept-alive connections, alternating call by call between the Jupyter token
and the bearer token (same run, same load). The server's CPU time per call is measured for each
credential too. Last, the check alone, in process: the SDK's ``BearerAuthBackend`` over the store
(a SHA-256 digest and one SQLite lookup), per call. Figures, not pass/fail.

    .venv/bin/python bench/bench_signin.py [--calls 400] [--json]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import anyio
import httpx
from _common import machine
from bench_proxy import JupyterServer, cpu_seconds, raw_latencies, summary

REDIRECT = "http://127.0.0.1:9/callback"


def access_token(server: JupyterServer, route: str) -> str:
    """Register, authorize, allow (as the Jupyter user), exchange: an access token for ``route``."""
    issuer = server.url + "mcp/oauth"
    with httpx.Client(timeout=30) as http:
        client = http.post(f"{issuer}/register", json={"client_name": "bench", "redirect_uris": [REDIRECT]}).json()
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
        query = {"response_type": "code", "client_id": client["client_id"], "redirect_uri": REDIRECT, "state": "s",
                 "code_challenge": challenge, "code_challenge_method": "S256", "resource": route}  # fmt: skip
        consent = urljoin(issuer, http.get(f"{issuer}/authorize?{urlencode(query)}").headers["Location"])
        request_id = parse_qs(urlsplit(consent).query)["auth_request"][0]
        jupyter = {"Authorization": f"token {server.token}"}
        allowed = http.post(consent, data={"auth_request": request_id, "decision": "allow"}, headers=jupyter)
        code = parse_qs(urlsplit(allowed.headers["Location"]).query)["code"][0]
        form = {"grant_type": "authorization_code", "code": code, "code_verifier": verifier, "redirect_uri": REDIRECT,
                "client_id": client["client_id"], "client_secret": client["client_secret"]}  # fmt: skip
        return str(http.post(f"{issuer}/token", data=form).json()["access_token"])


def measure(server: JupyterServer, kernel_id: str, calls: int) -> dict[str, Any]:
    route = f"{server.url}mcp/kernels/{kernel_id}"
    bearer = access_token(server, route)
    credentials = {
        "Jupyter token": {"Authorization": f"token {server.token}"},
        "bearer (signed in)": {"Authorization": f"Bearer {bearer}"},
    }
    results: dict[str, Any] = {}
    for era in ("2025", "2026"):
        timings = anyio.run(raw_latencies, [(route, auth) for auth in credentials.values()], era, calls)
        results[era] = {name: summary(values) for name, values in zip(credentials, timings, strict=True)}
        for name, auth in credentials.items():
            before = cpu_seconds(server.process.pid)
            anyio.run(raw_latencies, [(route, auth)], era, calls)
            results[era][name]["server_cpu_ms"] = (cpu_seconds(server.process.pid) - before) / (calls + 50) * 1000
    results["check in process (us)"] = check_alone(calls * 10)
    return results


def check_alone(rounds: int) -> dict[str, float]:
    """The bearer check by itself: ``BearerAuthBackend.authenticate`` over a store with one grant."""
    from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend
    from pydantic import AnyHttpUrl
    from starlette.requests import HTTPConnection

    from jupyter_mcp.serverext.oauth.authority import Authority
    from jupyter_mcp.serverext.oauth.store import Choices, Grant, Store

    resource = "http://127.0.0.1:8888/mcp"
    with tempfile.TemporaryDirectory() as folder:
        authority = Authority(Store(Path(folder) / "oauth.sqlite"))
        grant = Grant("g", "c", "bench", False, "127.0.0.1:9", "me", resource, Choices(False), time.time(), None)
        authority.store.add_grant(grant)
        token = authority.tokens(grant, grant.scopes).access_token
        backend = BearerAuthBackend(authority, resource_server_url=AnyHttpUrl(resource))
        scope = {"type": "http", "headers": [(b"authorization", f"Bearer {token}".encode())]}

        async def checks() -> list[float]:
            spent = []
            for _ in range(rounds):
                started = time.perf_counter()
                assert await backend.authenticate(HTTPConnection(scope)) is not None
                spent.append(time.perf_counter() - started)
            return spent

        spent = anyio.run(checks)
        authority.store.close()
    return {"median": statistics.median(spent) * 1e6, "p90": sorted(spent)[int(len(spent) * 0.9)] * 1e6}


def report(results: dict[str, Any]) -> str:
    lines = [
        machine(),
        f"{'era':<6} {'credential':<20} {'median':>9} {'p10':>9} {'p90':>9} {'added':>9} {'CPU/call':>9}",
    ]
    for era in ("2025", "2026"):
        base = results[era]["Jupyter token"]["median_ms"]
        for name, figures in results[era].items():
            added = "" if name == "Jupyter token" else f"{figures['median_ms'] - base:+.3f}ms"
            lines.append(
                f"{era:<6} {name:<20} {figures['median_ms']:>7.3f}ms {figures['p10_ms']:>7.3f}ms "
                f"{figures['p90_ms']:>7.3f}ms {added:>9} {figures['server_cpu_ms']:>7.3f}ms"
            )
    check = results["check in process (us)"]
    lines.append(f"the bearer check alone, in process: median {check['median']:.1f} us, p90 {check['p90']:.1f} us")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=400, help="calls per credential and era")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        server = JupyterServer(Path(workdir), [f"--MCPExtensionApp.oauth_store={workdir}/oauth.sqlite"])
        try:
            results = measure(server, server.start_notebook(), args.calls)
        finally:
            server.stop()
    print(json.dumps(results, indent=2) if args.json else report(results))


if __name__ == "__main__":
    main()
