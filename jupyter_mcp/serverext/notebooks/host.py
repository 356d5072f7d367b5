"""``NotebookTools``: the notebook tools as one more member of ``<jupyter url>/mcp``, served by the extension.

A ``ToolServer`` of the tool layer, in the Jupyter server's process, on its loop: the union reaches it
through an ``AppCarrier`` like a kernel's server through its carrier, so its calls get what every
tool's get (approvals, result budgets and ``result://`` links, progress, tasks, cancellation, both
protocol eras), with no kernel serving anything. It joins the union under ``PREFIX`` for what must be
routed (``result://jupyter/...`` links, task ids), while its tool names stay bare (``jupyter_read``).
The approvals it waits in are listed by ``/api/mcp/servers`` and answered through
``/api/mcp/kernels/notebook-tools/...``, as a kernel's are.
"""

from __future__ import annotations

import os
import secrets
import time
from typing import Any

from jupyter_mcp._version import __version__
from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.serverext.carriers.inprocess import AppCarrier
from jupyter_mcp.serverext.directory import Located
from jupyter_mcp.serverext.notebooks.agents import Agents
from jupyter_mcp.serverext.notebooks.documents import Documents
from jupyter_mcp.serverext.notebooks.listing import Serving
from jupyter_mcp.serverext.notebooks.modes import NotebookModes
from jupyter_mcp.serverext.notebooks.outputs import Outputs
from jupyter_mcp.serverext.notebooks.runs import Kernels
from jupyter_mcp.serverext.notebooks.tools import register
from jupyter_mcp.tools import ToolServer

SERVER_ID = "notebook-tools"
"""Where the notebook tools stand among the kernels' servers (``/api/mcp/kernels/notebook-tools/...``)."""
PREFIX = "jupyter"
"""The notebook tools' prefix at ``/mcp``, for their links and task ids (a notebook named so gets another)."""
INSTRUCTIONS = (
    "Tools to work in this Jupyter server's notebooks: jupyter_notebooks lists them, jupyter_read reads cells "
    "(ids and versions), jupyter_edit changes them (carrying the versions read), jupyter_run runs them on the "
    "notebook's kernel, jupyter_create makes a new notebook. The notebook's user sees every change live and "
    "may have to approve it."
)


class NotebookTools:
    """The notebook tools of one Jupyter server, and what they work with."""

    def __init__(self, serverapp: Any, modes: NotebookModes, serving: Serving) -> None:
        self.serverapp = serverapp
        self.modes = modes
        self.serving = serving
        self.documents = Documents(serverapp)
        self.kernels = Kernels(serverapp, self.documents)
        self.agents = Agents(self.documents)
        self.server = ToolServer("jupyter-notebooks", instructions=INSTRUCTIONS)
        register(self.server, self)
        token = secrets.token_urlsafe(32)
        self.carrier = AppCarrier(self.server.protected_http_app(token))
        self.info = ServerInfo(
            url="",
            token=token,
            pid=os.getpid(),
            kernel_id=SERVER_ID,
            notebook_path=None,
            started=time.time(),
            version=__version__,
            admin_token=self.server.approvals.admin_token,
            name=PREFIX,
        )

    def located(self) -> Located | None:
        """The notebook tools as the directory lists servers; ``None`` while they are off."""
        return Located(self.info, None, self.carrier) if self.modes.mode != "off" else None

    def outputs(self, call_id: str) -> Outputs:
        """A renderer of outputs for one answer (its links kept with the server's other full results)."""
        return Outputs(self.server.result_links, call_id, PREFIX)

    async def close(self) -> None:
        """Stop (the server stops): no more outputs, the documents the tools changed saved, the app ended."""
        self.kernels.close()
        self.agents.close()
        self.documents.idle.close()
        await self.documents.flush()
        await self.carrier.stop()
