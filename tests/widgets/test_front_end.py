"""The widgets' front end goes to the browser once per kernel (issue 34): each card and panel carries a
small loader and names the kernel's one front-end model, which holds the bundle; so does the widget
state a notebook saves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbclient
import nbformat

from jupyter_mcp.widgets.frontend import bundle, loader

TOOLS = 20
CELLS = [
    "%load_ext jupyter_mcp",
    *(
        f'%%mcp_tool\ndef tool_{i}(text: str, times: int = 1) -> str:\n    """Repeat text ({i})."""\n'
        "    return text * times"
        for i in range(TOOLS)
    ),
    "%mcp",
]
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"


def test_twenty_cards_send_the_front_end_once_and_save_it_once(runtime_dir: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=120, store_widget_state=True).execute()
    models: dict[str, Any] = notebook.metadata.widgets[WIDGET_STATE]["state"]
    shown = [cell.outputs[0]["data"][VIEW]["model_id"] for cell in notebook.cells[1:]]
    assert len(shown) == TOOLS + 1  # 20 cards and the panel

    states = [models[model_id]["state"] for model_id in shown]
    second = states[1]
    assert second["_esm"] == loader()  # the loader (about 1 kB), not the front end (about 57 kB)
    assert len(json.dumps(second)) < 6_000, len(json.dumps(second))
    (named,) = {state["_front_end"] for state in states}  # every view names the kernel's one front end
    front_end = models[named.removeprefix("IPY_MODEL_")]
    assert (front_end["model_module"], front_end["model_name"]) == ("@jupyter-widgets/base", "WidgetModel")
    assert front_end["state"]["bundle"] == bundle()

    saved = json.dumps(notebook.metadata.widgets)
    assert saved.count(json.dumps(bundle())[1:200]) == 1  # the bundle once in the saved state
    assert len(saved) < len(json.dumps(bundle())) + (TOOLS + 1) * 6_000 + 20_000, len(saved)
