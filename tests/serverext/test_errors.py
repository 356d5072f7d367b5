"""What a client can act on: 401 (sign in) without credentials, 403 with wrong ones, 404, 503 and 502 with
JSON-RPC bodies."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from tornado.httpclient import HTTPResponse

from jupyter_mcp import discovery
from tests.harness import free_port
from tests.serverext.conftest import Notebook
from tests.serverext.test_proxy import INITIALIZE, JSON_HEADERS, TOOLS

BODY = json.dumps(INITIALIZE)


async def post(jp_fetch: Any, *parts: str, headers: dict[str, str] | None = None) -> HTTPResponse:
    response: HTTPResponse = await jp_fetch(
        *parts, method="POST", body=BODY, headers={**JSON_HEADERS, **(headers or {})}, raise_error=False
    )
    return response


def jsonrpc_message(response: HTTPResponse) -> str:
    assert response.headers["Content-Type"].startswith("application/json")
    body = json.loads(response.body)
    assert body["jsonrpc"] == "2.0"
    assert body["id"] is None
    return str(body["error"]["message"])


@pytest.mark.parametrize(
    ("credentials", "status"),
    [({"Authorization": ""}, 401), ({"Authorization": "token wrong"}, 403)],
    ids=["none", "wrong"],
)
async def test_every_route_needs_credentials(
    jp_fetch: Any, notebook: Notebook, credentials: dict[str, str], status: int
) -> None:
    """None at all: 401, whose WWW-Authenticate starts sign-in with Jupyter; a wrong Jupyter token: 403, as ever."""
    await notebook.run(TOOLS)
    routes = [("mcp", "kernels", notebook.kernel_id), ("mcp", "notebooks", notebook.path)]
    for route in routes:
        refused = await post(jp_fetch, *route, headers=credentials)
        assert refused.code == status
        assert ("resource_metadata=" in refused.headers.get("WWW-Authenticate", "")) == (status == 401)
        for method in ("GET", "DELETE"):
            response = await jp_fetch(*route, method=method, headers=credentials, raise_error=False)
            assert response.code == status, (route, method)
    for api in [("api", "mcp", "servers"), ("api", "mcp", "config")]:  # REST: Jupyter's own answer
        assert (await jp_fetch(*api, headers=credentials, raise_error=False)).code == 403
    # The kernel's own token is no Jupyter credential either.
    kernel_token = await notebook.value("server.token")
    wrong_kind = {"Authorization": f"Bearer {kernel_token}"}
    assert (await post(jp_fetch, "mcp", "kernels", notebook.kernel_id, headers=wrong_kind)).code == 403


async def test_token_in_query_is_accepted_and_not_forwarded(
    jp_fetch: Any, notebook: Notebook, jupyter_token: str
) -> None:
    await notebook.run(TOOLS)
    response = await jp_fetch(
        "mcp", "kernels", notebook.kernel_id, method="POST", body=BODY,
        headers={**JSON_HEADERS, "Authorization": ""}, params={"token": jupyter_token},
    )  # fmt: skip
    assert response.code == 200
    assert response.headers["Mcp-Session-Id"]


async def test_unknown_kernel_or_notebook_is_404(jp_fetch: Any, notebook: Notebook) -> None:
    await notebook.run(TOOLS)
    unknown = await post(jp_fetch, "mcp", "kernels", "00000000-0000-0000-0000-000000000000")
    assert unknown.code == 404
    assert "no running kernel with id" in jsonrpc_message(unknown)
    closed = await post(jp_fetch, "mcp", "notebooks", "work dir/other.ipynb")
    assert closed.code == 404
    assert "no running kernel for notebook 'work dir/other.ipynb'" in jsonrpc_message(closed)


async def test_kernel_without_tools_is_503_with_advice(jp_fetch: Any, notebook: Notebook) -> None:
    for route in [("mcp", "kernels", notebook.kernel_id), ("mcp", "notebooks", notebook.path)]:
        response = await post(jp_fetch, *route)
        assert response.code == 503
        assert "has no MCP tool server yet: run a %%mcp_tool cell" in jsonrpc_message(response)


async def test_kernel_that_stopped_answering_is_502(jp_fetch: Any, notebook: Notebook) -> None:
    port = free_port()  # a port nobody listens on
    # What a kernel whose server thread died leaves behind: a discovery file for a live process.
    stale = discovery.ServerInfo(f"http://127.0.0.1:{port}/mcp", "t", os.getpid(), notebook.kernel_id, None)
    discovery.write(stale)
    response = await post(jp_fetch, "mcp", "notebooks", notebook.path)
    assert response.code == 502
    assert "cannot connect to the kernel's tool server" in jsonrpc_message(response)
