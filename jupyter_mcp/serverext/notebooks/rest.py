"""``/api/mcp/notebook-tools``: what JupyterLab's sidebar reads and switches for the notebook tools.

``GET``: the mode and confirm settings, whether real-time collaboration is on, the agents at work in
which notebooks; ``POST {"mode": ..., "confirm": ...}`` switches either setting (as the traits
``MCPExtensionApp.notebook_tools`` and ``notebook_tools_confirm`` set them at start);
``POST /api/mcp/notebook-tools/undo {"agent": NAME, "notebook": PATH}`` takes back that agent's last
edit of that notebook, and only its own.
"""

from __future__ import annotations

import json
from typing import Any

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.extension.handler import ExtensionHandlerMixin
from tornado import web

from jupyter_mcp.jsonlimits import JSONRefused, load_object
from jupyter_mcp.serverext.notebooks.host import NotebookTools
from jupyter_mcp.shapes.notebooks import NotebookToolsReply

AUTH_RESOURCE = "contents"


class _Base(ExtensionHandlerMixin, APIHandler):
    auth_resource = AUTH_RESOURCE

    def initialize(self, name: str, notebooks: NotebookTools) -> None:
        super().initialize(name)
        self.notebooks = notebooks

    def _body(self) -> dict[str, Any]:
        try:
            return load_object(self.request.body)
        except JSONRefused as refused:
            raise web.HTTPError(400, str(refused), reason="Bad body") from None


def describe(notebooks: NotebookTools) -> NotebookToolsReply:
    return {
        "mode": notebooks.modes.mode,
        "confirm": notebooks.modes.confirm,
        "collaboration": notebooks.documents.collaboration,
        "agents": notebooks.agents.entries(),
    }


class NotebookToolsHandler(_Base):
    """The notebook tools' settings and agents (``GET``); switch a setting (``POST``)."""

    @web.authenticated
    @authorized("read", resource=AUTH_RESOURCE)
    def get(self) -> None:
        self.finish(json.dumps(describe(self.notebooks)))

    @web.authenticated
    @authorized("write", resource=AUTH_RESOURCE)
    def post(self) -> None:
        body = self._body()
        mode, confirm = body.get("mode"), body.get("confirm")
        if mode is None and confirm is None:
            raise web.HTTPError(400, 'give {"mode": ...} and/or {"confirm": ...}', reason="Bad body")
        try:
            self.notebooks.modes.set(mode=mode, confirm=confirm)
        except ValueError as error:
            raise web.HTTPError(400, str(error), reason="Bad setting") from None
        self.finish(json.dumps(describe(self.notebooks)))


class UndoHandler(_Base):
    """Take back an agent's last edit of a notebook: ``{"agent": NAME, "notebook": PATH}``."""

    @web.authenticated
    @authorized("write", resource=AUTH_RESOURCE)
    async def post(self) -> None:
        body = self._body()
        agent, notebook = body.get("agent"), body.get("notebook")
        if not isinstance(agent, str) or not isinstance(notebook, str):
            raise web.HTTPError(400, 'give {"agent": NAME, "notebook": PATH}', reason="Bad body")
        if not await self.notebooks.agents.undo(agent, notebook):
            raise web.HTTPError(409, f"{agent} has no edit of {notebook} left to undo", reason="Nothing to undo")
        self.finish(json.dumps(describe(self.notebooks)))
