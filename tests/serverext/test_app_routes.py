"""MCP Apps through the Jupyter server's routes: the proxy passes each client's capabilities on, so a client
that renders apps gets each tool's card (and can read it) and any other client gets none, in both eras."""

from __future__ import annotations

import mcp_types as mt

from tests.serverext.conftest import Notebook, jupyter_client
from tests.serverext.test_proxy import TOOLS, kernel_url, notebook_url
from tests.tools.apps.test_apps import APPS


async def test_the_routes_carry_the_cards_to_clients_that_render_apps(
    notebook: Notebook, server_url: str, jupyter_token: str, mode: str
) -> None:
    await notebook.run(TOOLS)
    for url in (kernel_url(server_url, notebook), notebook_url(server_url, notebook)):
        async with jupyter_client(url, jupyter_token, mode=mode, extensions=[APPS]) as apps:
            listed = (await apps.list_tools()).tools
            document = await apps.read_resource("ui://jupyter-mcp/tool/get_var")
        async with jupyter_client(url, jupyter_token, mode=mode) as plain:
            bare = (await plain.list_tools()).tools
        linked = {tool.name: (tool.meta or {}).get("ui") for tool in listed}
        assert linked["get_var"] == {"resourceUri": "ui://jupyter-mcp/tool/get_var"}
        assert linked["jupyter_mcp_app_status"] == {"visibility": ["app"]}
        assert isinstance(document.contents[0], mt.TextResourceContents)
        assert document.contents[0].mime_type == "text/html;profile=mcp-app"
        assert [(tool.name, tool.meta) for tool in bare] == [("get_var", None)]
    assert await notebook.value("len(server.history)") == 0  # the documents are not calls
