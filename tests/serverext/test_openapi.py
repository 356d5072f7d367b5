"""The REST API's OpenAPI document: served by the extension, the same as docs/openapi.json, true to the
handlers the extension installs, and fuzzed with schemathesis against a real Jupyter server (with and
without credentials): no 5xx, every status and reply as the document says."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import schemathesis
from hypothesis import given, note
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from jupyter_mcp.serverext.openapi import openapi_document
from tests.reliability.fuzzing import ACCEPT, ERA_2026, META, budget
from tests.serverext.conftest import Notebook
from tests.serverext.test_proxy import TOOLS

ROOT = Path(__file__).resolve().parents[2]
VERBS = ("get", "post", "put", "patch", "delete")


def test_docs_openapi_json_is_generated_from_the_code() -> None:
    script = ROOT / "scripts" / "openapi_doc.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_document_is_valid_openapi() -> None:
    schemathesis.openapi.from_dict(openapi_document()).validate()


def documented_routes(document: dict[str, Any]) -> dict[str, set[str]]:
    return {path: {verb for verb in item if verb in VERBS} for path, item in document["paths"].items()}


def installed_routes(serverapp: Any) -> dict[str, set[str]]:
    """The extension's REST routes as OpenAPI paths (``(?P<kernel_id>[^/]+)`` -> ``{kernel_id}``), with
    the verbs each handler class answers itself; the catch-all 404 route is not an operation."""
    app = serverapp.extension_manager.extension_apps["jupyter_mcp"]
    (extension,) = app
    routes: dict[str, set[str]] = {}
    for pattern, handler, *_ in extension.handlers:
        if not pattern.startswith("/api/mcp/") or pattern.endswith(".*"):
            continue
        path = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", pattern).removesuffix("/?").replace("\\.", ".")
        verbs = {
            verb
            for verb in VERBS
            if any(verb in vars(kind) for kind in handler.__mro__[:-1] if kind.__module__.startswith("jupyter_mcp"))
        }
        routes[path] = verbs
    return routes


def test_the_document_says_what_the_handlers_do(jp_serverapp: Any) -> None:
    assert documented_routes(openapi_document()) == installed_routes(jp_serverapp)


async def test_the_extension_serves_it_for_its_base_url(jp_fetch: Any, jp_base_url: str) -> None:
    served = json.loads((await jp_fetch("api", "mcp", "openapi.json")).body)
    assert served == json.loads(json.dumps(openapi_document(jp_base_url)))
    assert served["servers"] == [{"url": jp_base_url}]
    missing = await jp_fetch("api", "mcp", "nothing", "here", raise_error=False)
    assert missing.code == 404
    assert json.loads(missing.body)["message"].startswith("no such route: the routes under /api/mcp/ are servers")


def validator(name: str) -> jsonschema.protocols.Validator:
    """A validator for the document's schema ``name`` (its references resolved within the document)."""
    document = openapi_document()
    schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    return jsonschema.Draft202012Validator(schema)


async def test_real_replies_fit_the_documents_schemas(jp_fetch: Any, notebook: Notebook) -> None:
    await notebook.run(TOOLS)
    (entry,) = json.loads((await jp_fetch("api", "mcp", "servers")).body)
    validator("ServerEntry").validate(entry)
    config = await jp_fetch("api", "mcp", "config", params={"client": "vscode", "notebook": notebook.path})
    validator("ConfigReply").validate(json.loads(config.body))
    paused = await jp_fetch(
        "api", "mcp", "kernels", notebook.kernel_id, "pause", method="POST", body=json.dumps({"paused": False})
    )
    validator("PauseState").validate(json.loads(paused.body))


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
async def operations(jp_fetch: Any) -> Any:
    document = json.loads((await jp_fetch("api", "mcp", "openapi.json")).body)
    schema = schemathesis.openapi.from_dict(document)
    return [result.ok() for result in schema.get_all_operations()]


@budget(60)
@given(data=st.data(), who=st.sampled_from(["jupyter", "none", "wrong"]))
async def test_schemathesis_finds_nothing(
    operations: list[Any], notebook: Notebook, server_url: str, jupyter_token: str, data: st.DataObject, who: str
) -> None:
    if not await notebook.value("'get_var' in server.tools"):
        await notebook.run(TOOLS + "\nx = 42")
    operation = data.draw(st.sampled_from(operations))
    mode = data.draw(st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE]))
    case = data.draw(operation.as_strategy(generation_mode=mode))
    if "kernel_id" in (case.path_parameters or {}) and data.draw(st.booleans()):
        case.path_parameters["kernel_id"] = notebook.kernel_id  # a real kernel, often
    headers = {
        "jupyter": {"Authorization": f"token {jupyter_token}"},
        "none": {},
        "wrong": {"Authorization": "token wrong"},
    }[who]
    note(f"{who} {mode} {case.method} {case.formatted_path} {case.path_parameters} {case.query} {case.body!r:.200}")
    response = await asyncio.to_thread(case.call, base_url=server_url.rstrip("/"), headers=headers)
    case.validate_response(response, checks=CHECKS)
    if who != "jupyter":
        assert response.status_code == 403
    await still_serving(notebook, server_url, jupyter_token)


async def still_serving(notebook: Notebook, server_url: str, jupyter_token: str) -> None:
    """Undo a pause or a limit the fuzzer may have sent, then call a tool through Jupyter."""
    await notebook.run(
        "server.resume()\nfor name in list(server.approvals.read_only_clients): server.limit_client(name, read_only=False)"
    )
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "get_var", "arguments": {"name": "x"}, "_meta": META},
    }
    headers = {"Authorization": f"token {jupyter_token}", "Accept": ACCEPT, "mcp-protocol-version": ERA_2026}
    headers |= {"mcp-method": "tools/call", "mcp-name": "get_var"}
    async with httpx.AsyncClient(timeout=20) as http:
        reply = await http.post(f"{server_url}mcp/kernels/{notebook.kernel_id}", json=body, headers=headers)
    assert reply.json()["result"]["content"][0]["text"] == "42"
