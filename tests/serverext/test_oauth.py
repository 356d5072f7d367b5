"""Sign-in with Jupyter on a real Jupyter server (odd base URL): the 401 that starts it, discovery the ways
clients try it, and the SDK's own OAuth client signing in (registered, and by a client ID metadata document)
to list and call tools in both eras."""

from __future__ import annotations

import json
import ssl
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread
from typing import Any
from urllib.parse import quote, urlsplit

import httpx2
import pytest
import trustme

from tests.conftest import NOTEBOOK_TOOLS
from tests.oauth import RESET, Consent, MemoryStorage, challenge_fields, oauth_client, sdk_provider
from tests.serverext.conftest import BASE_URL, WHOAMI, Notebook


@pytest.fixture
async def sales(jp_fetch: Any, jp_serverapp: Any) -> Any:
    notebook = await Notebook(jp_fetch, jp_serverapp, "sales.ipynb").serve(WHOAMI, RESET)
    try:
        yield notebook
    finally:
        notebook.close()


def routes(server_url: str, kernel_id: str) -> list[str]:
    return [
        f"{server_url}mcp",
        f"{server_url}mcp/scope/ops/",
        f"{server_url}mcp/notebooks/{quote('work dir/demo nb.ipynb')}",
        f"{server_url}mcp/kernels/{kernel_id}",
    ]


async def test_no_credentials_get_a_401_naming_each_routes_metadata_and_discovery_answers_every_way(
    server_url: str, notebook: Notebook
) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        for route in routes(server_url, notebook.kernel_id):
            refused = await http.post(route, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
            assert refused.status_code == 401, route
            challenge = challenge_fields(refused.headers["WWW-Authenticate"])
            metadata_url = challenge["resource_metadata"]
            assert metadata_url.startswith(f"{server_url}.well-known/oauth-protected-resource/mcp")
            resource = (await http.get(metadata_url)).json()
            assert urlsplit(resource["resource"]).path == urlsplit(route).path, route
            assert resource["authorization_servers"] == [f"{server_url}mcp/oauth"]
            assert resource["scopes_supported"] == ["mcp:read", "mcp:write"]
            # RFC 9728's own place, at the origin's root (this server owns it: no hub proxy in front)
            origin = server_url.split(BASE_URL, maxsplit=1)[0]
            root = route.replace(server_url, f"{origin}/.well-known/oauth-protected-resource{BASE_URL}")
            assert (await http.get(root)).json() == resource
        issuer = f"{server_url}mcp/oauth"
        origin, path = server_url.split(BASE_URL, maxsplit=1)[0], urlsplit(issuer).path
        places = [
            f"{issuer}/.well-known/openid-configuration",  # path-appended: what reaches a single-user server on a hub
            f"{issuer}/.well-known/oauth-authorization-server",
            f"{origin}/.well-known/oauth-authorization-server{path}",  # RFC 8414, path-inserted
            f"{origin}/.well-known/openid-configuration{path}",
        ]
        documents = [(await http.get(place)).json() for place in places]
    assert all(document == documents[0] for document in documents)
    metadata = documents[0]
    assert metadata["issuer"] == issuer
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["client_id_metadata_document_supported"] is True
    assert metadata["registration_endpoint"] == f"{issuer}/register"
    assert metadata["revocation_endpoint"] == f"{issuer}/revoke"
    assert metadata["grant_types_supported"] == ["authorization_code", "refresh_token"]


async def test_the_sdk_client_registers_signs_in_and_calls_tools(
    sales: Notebook, server_url: str, jupyter_token: str, mode: str
) -> None:
    consent = Consent(jupyter_token)
    provider = sdk_provider(f"{server_url}mcp", consent)
    async with oauth_client(f"{server_url}mcp", provider, mode=mode) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == {"sales_whoami", "sales_reset", *NOTEBOOK_TOOLS}  # (the server's notebook tools: "read")
        answer = await client.call_tool("sales_whoami", {})
        assert answer.structured_content == {"result": "sales.ipynb"}
    assert "SDK test client" in consent.pages[0]
    assert "Registered itself" in consent.pages[0]
    assert await sales.value("len(server.history)") == 1


@pytest.fixture
def metadata_documents(tmp_path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """An https server on loopback (its CA in a file the Jupyter server is told to trust) serving one document."""
    authority = trustme.CA()
    ca_file = tmp_path / "ca.pem"
    authority.cert_pem.write_to_path(str(ca_file))
    documents: dict[str, bytes] = {}

    class _Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = documents.get(self.path)
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body or b"{}")

        def log_message(self, *_: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(context)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"https://127.0.0.1:{server.server_port}/clients/test.json"
    served: dict[str, Any] = {"ca_file": str(ca_file), "documents": documents}
    try:
        yield url, served
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def mcp_settings(metadata_documents: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """Documents on loopback, under a test CA: allowed here (a real server fetches from public hosts only)."""
    return {
        "oauth_client_metadata_private_addresses": True,
        "oauth_client_metadata_ca_file": metadata_documents[1]["ca_file"],
    }


async def test_the_sdk_client_described_by_a_metadata_document_signs_in_as_verified(
    sales: Notebook, server_url: str, jupyter_token: str, mode: str, metadata_documents: Any
) -> None:
    url, served = metadata_documents
    consent = Consent(jupyter_token)
    redirect = "http://127.0.0.1:9/callback"
    served["documents"]["/clients/test.json"] = json.dumps(
        {"client_id": url, "client_name": "Documented client", "redirect_uris": [redirect],
         "token_endpoint_auth_method": "none", "grant_types": ["authorization_code", "refresh_token"]}
    ).encode()  # fmt: skip
    storage = MemoryStorage()
    provider = sdk_provider(f"{server_url}mcp", consent, client_metadata_url=url, storage=storage)
    async with oauth_client(f"{server_url}mcp", provider, mode=mode) as client:
        answer = await client.call_tool("sales_whoami", {})
        assert answer.structured_content == {"result": "sales.ipynb"}
    assert storage.client_info is not None
    assert storage.client_info.client_id == url
    assert "Documented client" in consent.pages[0]
    assert "Verified" in consent.pages[0]
