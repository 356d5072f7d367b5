"""The REST API's OpenAPI document (``GET /api/mcp/openapi.json``, and ``docs/openapi.json``).

The schemas are generated from the typed shapes with pydantic, never written by hand: the replies
and the notebook user's answers from ``jupyter_mcp/shapes`` (``rest``, ``answers``, ``notebooks``). Only the
routes, their parameters and their words are said here; a test checks the document against the
handlers the extension installs, and fuzzes a real server with it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import TypeAdapter

from jupyter_mcp._version import __version__
from jupyter_mcp.shapes.answers import (
    ApprovalAnswer,
    ClientLimit,
    PauseState,
    PauseSwitch,
    QuestionReply,
    ReadOnlyClients,
    Settled,
)
from jupyter_mcp.shapes.notebooks import NotebookToolsReply, NotebookToolsSwitch, UndoEdit
from jupyter_mcp.shapes.rest import AppEntry, ConfigReply, ServerEntry, UnionReply

_SHAPES: dict[str, Any] = {
    "ServerEntry": ServerEntry,
    "ConfigReply": ConfigReply,
    "UnionReply": UnionReply,
    "ApprovalAnswer": ApprovalAnswer,
    "PauseSwitch": PauseSwitch,
    "QuestionReply": QuestionReply,
    "ClientLimit": ClientLimit,
    "Settled": Settled,
    "PauseState": PauseState,
    "ReadOnlyClients": ReadOnlyClients,
    "NotebookToolsReply": NotebookToolsReply,
    "NotebookToolsSwitch": NotebookToolsSwitch,
    "UndoEdit": UndoEdit,
    "AppEntry": AppEntry,
}
_REF = "#/components/schemas/{model}"

ERROR_SCHEMA = {
    "type": "object",
    "description": "Jupyter's error reply: one sentence saying what is wrong.",
    "properties": {"message": {"type": "string"}, "reason": {"type": ["string", "null"]}},
    "required": ["message"],
}

INTRO = (
    "The routes the jupyter_mcp server extension adds under the Jupyter server's base URL, behind "
    "Jupyter's own auth (a Jupyter token as `Authorization: token <token>`, a bearer header, `?token=`, "
    "or the browser's session). The MCP routes themselves (`/mcp`, `/mcp/scope/<notebooks>`, "
    "`/mcp/notebooks/<path>`, `/mcp/kernels/<id>`) speak MCP streamable HTTP, not REST, and are not described here."
)


def openapi_document(base_url: str = "/") -> dict[str, Any]:
    """The OpenAPI 3.1 document of the REST routes, for a Jupyter server at ``base_url``."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "jupyter_mcp REST API", "version": __version__, "description": INTRO},
        "servers": [{"url": base_url}],
        "security": [{"token": []}, {"bearer": []}],
        "paths": _paths(),
        "components": {
            "schemas": {**_schemas(), "Error": ERROR_SCHEMA},
            "securitySchemes": {
                "token": {"type": "apiKey", "in": "header", "name": "Authorization", "description": "token <token>"},
                "bearer": {"type": "http", "scheme": "bearer"},
            },
        },
    }


def _paths() -> dict[str, Any]:
    kernel = _path_parameter("kernel_id", "The kernel's id.")
    call = _path_parameter("call_id", "The id of the waiting call (or question).")
    return {
        "/api/mcp/servers": {"get": _servers()},
        "/api/mcp/config": {"get": _config()},
        "/api/mcp/union": {"get": _union()},
        "/api/mcp/limits": {"post": _limits()},
        "/api/mcp/openapi.json": {"get": _openapi()},
        "/api/mcp/notebook-tools": {"get": _notebook_tools(), "post": _switch()},
        "/api/mcp/notebook-tools/undo": {"post": _undo()},
        "/api/mcp/apps": {"get": _apps()},
        "/api/mcp/apps/{grant_id}": {
            "delete": _revoke(),
            "parameters": [_path_parameter("grant_id", "The signed-in app's grant id.")],
        },
        "/api/mcp/kernels/{kernel_id}/approvals/{call_id}": {
            "post": _post("Allow or deny a client's call waiting for approval.", "ApprovalAnswer", "Settled"),
            "parameters": [kernel, call],
        },
        "/api/mcp/kernels/{kernel_id}/pause": {
            "post": _post("Pause (or resume) all of a kernel's tools.", "PauseSwitch", "PauseState"),
            "parameters": [kernel],
        },
        "/api/mcp/kernels/{kernel_id}/questions/{call_id}": {
            "post": _post("Answer a tool's question to the notebook user.", "QuestionReply", "Settled"),
            "parameters": [kernel, call],
        },
        "/api/mcp/kernels/{kernel_id}/limits": {
            "post": _post("Limit a client to read-only tools, or lift the limit.", "ClientLimit", "ReadOnlyClients"),
            "parameters": [kernel],
        },
    }


def _servers() -> dict[str, Any]:
    listing = {"type": "array", "items": {"$ref": _REF.format(model="ServerEntry")}}
    return {
        "operationId": "listServers",
        "summary": "Every live tool server of this Jupyter server's kernels.",
        "responses": {"200": _json("The live tool servers.", listing), **_errors(403)},
    }


def _config() -> dict[str, Any]:
    clients = _schemas()["ConfigReply"]["properties"]["client"]
    return {
        "operationId": "clientConfig",
        "summary": "A ready client config: for every notebook at `/mcp`, or a notebook's (a kernel's) own route.",
        "description": "Give `notebook` or `kernel`, or neither for `/mcp` (`notebooks` then scopes it).",
        "parameters": [
            {"name": "client", "in": "query", "required": False, "schema": {**clients, "default": "claude"}},
            {"name": "notebook", "in": "query", "required": False, "schema": {"type": "string"}},
            {"name": "kernel", "in": "query", "required": False, "schema": {"type": "string"}},
            {
                "name": "notebooks",
                "in": "query",
                "required": False,
                "description": "Without `notebook` and `kernel`: notebooks and folders `/mcp` is scoped to, "
                "separated by commas (`a.ipynb,dir/`).",
                "schema": {"type": "string"},
            },
        ],
        "responses": {"200": _json("The config.", _ref("ConfigReply")), **_errors(400, 403)},
    }


def _union() -> dict[str, Any]:
    return {
        "operationId": "union",
        "summary": "The notebooks of `/mcp`: each one's prefix, why it is longer than its own, its tools as "
        "clients see them; the clients of `/mcp` and those limited to read-only tools.",
        "responses": {"200": _json("Every notebook at one address.", _ref("UnionReply")), **_errors(403)},
    }


def _limits() -> dict[str, Any]:
    return {
        "operationId": "limitEverywhere",
        "summary": "Limit a client to read-only tools in every notebook (those that start later too), or lift it.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("ClientLimit")}}},
        "responses": {"200": _json("Done.", _ref("ReadOnlyClients")), **_errors(400, 403)},
    }


def _notebook_tools() -> dict[str, Any]:
    return {
        "operationId": "notebookTools",
        "summary": "What agents may do in the notebooks (jupyter_read, jupyter_edit, jupyter_run ...), which of "
        "their calls wait for approval, and the agents at work in which notebooks.",
        "responses": {
            "200": _json("The notebook tools' settings and agents.", _ref("NotebookToolsReply")),
            **_errors(403),
        },
    }


def _switch() -> dict[str, Any]:
    return {
        "operationId": "switchNotebookTools",
        "summary": "Switch MCPExtensionApp.notebook_tools (`mode`) or notebook_tools_confirm (`confirm`) now.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("NotebookToolsSwitch")}}},
        "responses": {"200": _json("The settings now.", _ref("NotebookToolsReply")), **_errors(400, 403)},
    }


def _undo() -> dict[str, Any]:
    return {
        "operationId": "undoAgentEdit",
        "summary": "Take back an agent's last edit of a notebook; the user's own edits, before or after, stay.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("UndoEdit")}}},
        "responses": {"200": _json("Done.", _ref("NotebookToolsReply")), **_errors(400, 403, 409)},
    }


def _apps() -> dict[str, Any]:
    listing = {"type": "array", "items": _ref("AppEntry")}
    return {
        "operationId": "listApps",
        "summary": "The clients signed in with Jupyter (Connected apps): who allowed what, where, until when.",
        "description": "Absent when sign-in is off (`MCPExtensionApp.oauth = False`).",
        "responses": {"200": _json("The signed-in apps, newest first.", listing), **_errors(403)},
    }


def _revoke() -> dict[str, Any]:
    return {
        "operationId": "revokeApp",
        "summary": "Revoke a signed-in app: its tokens stop working at once.",
        "responses": {"204": {"description": "Revoked."}, **_errors(403, 404)},
    }


def _openapi() -> dict[str, Any]:
    return {
        "operationId": "openapi",
        "summary": "This document.",
        "responses": {"200": _json("The OpenAPI document.", {"type": "object"}), **_errors(403)},
    }


def _post(summary: str, body: str, reply: str) -> dict[str, Any]:
    return {
        "operationId": summary.split(maxsplit=1)[0].lower() + body,
        "summary": summary,
        "description": "Forwarded to the kernel's own server with its admin token.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": _ref(body)}}},
        "responses": {
            "200": _json("Done.", _ref(reply)),
            **_errors(400, 403, 404, 502, 503),
        },
    }


_ERRORS = {
    400: "The body is not a JSON object, or the kernel refused it (the message says why).",
    403: "No Jupyter credentials, or not allowed.",
    404: "No such kernel, nothing waits under that call id, or no such signed-in app.",
    502: "The kernel's tool server did not answer.",
    503: "The kernel has no MCP tool server yet (no %%mcp_tool cell has run).",
    409: "The agent has no edit of that notebook left to undo.",
}


def _errors(*statuses: int) -> dict[str, Any]:
    return {str(status): _json(_ERRORS[status], _ref("Error")) for status in statuses}


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF.format(model=name)}


def _path_parameter(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description, "schema": {"type": "string"}}


@cache
def _schemas() -> dict[str, Any]:
    """JSON schemas of the shapes, shared definitions once, each under its own name."""
    inputs = [(name, "serialization", TypeAdapter(shape)) for name, shape in _SHAPES.items()]
    named, definitions = TypeAdapter.json_schemas(inputs, ref_template=_REF)  # type: ignore[arg-type]
    schemas = dict(definitions.get("$defs", {}))
    for (name, _), schema in named.items():
        schemas[name] = schemas.get(name, schema) if "$ref" in schema else schema
    return schemas
