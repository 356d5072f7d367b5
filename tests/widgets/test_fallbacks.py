"""Without a widget front end (nbconvert, GitHub previews), a notebook still shows cards and panels."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat
from nbconvert import HTMLExporter

from tests.widgets.htmltext import visible_text

CELLS = [
    "%load_ext jupyter_mcp\nimport jupyter_mcp\nserver = jupyter_mcp.get_server()",
    '%%mcp_tool --read-only\ndef add(a: int, b: int = 2) -> int:\n    """Add two integers."""\n    return a + b',
    "r = await server.call('add', {'a': 1})",
    "%mcp",
    "print(server.token)",
]


def test_nbconvert_html_shows_the_snapshots_and_no_token(runtime_dir: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    # JupyterLab saves no widget state unless asked to; without it, viewers fall back to text/html.
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=120, store_widget_state=False).execute()
    token = notebook.cells[4].outputs[0]["text"].strip()
    card, panel = notebook.cells[1].outputs[0]["data"], notebook.cells[3].outputs[0]["data"]
    assert {"application/vnd.jupyter.widget-view+json", "text/html", "text/plain"} <= set(card) & set(panel)
    notebook.cells.pop()  # the cell that printed the token on purpose
    html, _resources = HTMLExporter().from_notebook_node(notebook)
    text = visible_text(html)
    assert "add live read-only worker thread until proven quick · no timeout" in text
    assert "parameter type required default constraints description a int required b int optional 2" in text
    assert "MCP server running at http://127.0.0.1:" in text
    assert "✓ ok" in text
    assert "a=1" in text
    assert token not in html
